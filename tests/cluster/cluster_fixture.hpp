// `parley serve` nodes on one PostgreSQL for the cluster tests (docs/scale-out.md): a fresh schema
// of the run's test cluster, the nodes started on free ports with the cluster team, and a reader
// of the store for the test's own checks.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "parley/store/store.hpp"
#include "rest_client.hpp"
#include "server_process.hpp"
#include "support/pg_test_schema.hpp"

namespace parley::test {

inline constexpr const char* kClusterToken = "cluster-test-token";

class ClusterTest : public ::testing::Test {
 protected:
  // `team`: a folder of tests/cluster with the team's team.yaml.
  explicit ClusterTest(int nodes, std::string team = "team")
      : team_(std::move(team)), nodes_(static_cast<std::size_t>(nodes)) {}

  void SetUp() override {
    url_ = pg_fresh_schema_url();
    ASSERT_FALSE(url_.empty());
    dir_ = std::filesystem::temp_directory_path() / ("parley-cluster-" + std::to_string(::getpid()) + "-" +
                                                     ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    for (std::size_t i = 0; i < nodes_.size(); ++i) start_node(static_cast<int>(i));
  }
  void TearDown() override {
    for (auto& node : nodes_) node.reset();
    std::filesystem::remove_all(dir_);
  }

  void start_node(int i) {
    const std::string team = std::string(PARLEY_SOURCE_DIR) + "/tests/cluster/" + team_ + "/team.yaml";
    auto& node = nodes_[static_cast<std::size_t>(i)];
    node = std::make_unique<server_process>(std::vector<std::string>{"--team", team, "--data",
                                                                     (dir_ / ("node" + std::to_string(i))).string(),
                                                                     "--store", url_, "--token", kClusterToken});
    ASSERT_TRUE(node->started()) << node->output();
  }
  server_process& node(int i) const { return *nodes_[static_cast<std::size_t>(i)]; }
  // The count a `SELECT count(*) ...` on the test's schema returns (-1 when it fails).
  long long count_of(const std::string& sql) const {
    const auto rows = pg_rows(url_, sql);
    return rows.empty() || rows[0].empty() ? -1 : std::stoll(rows[0][0]);
  }
  rest_client client(int i) const { return rest_client(node(i).port(), kClusterToken); }
  std::unique_ptr<store> open_store() const {
    postgres_options options;
    options.node_id = "test-reader";
    auto opened = open_postgres_store(url_, options);
    EXPECT_TRUE(opened) << opened.err().message;
    return opened ? std::move(*opened) : nullptr;
  }

  std::string team_;
  std::string url_;
  std::filesystem::path dir_;
  std::vector<std::unique_ptr<server_process>> nodes_;
};

}  // namespace parley::test

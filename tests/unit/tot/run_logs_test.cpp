// Where a ToT run's folders go and are found (tot/run_logs.hpp). Seed 003, 日志规范: "每次执行 /tot
// 命令时,在 logs/ 目录下创建独立的任务文件夹" — the project's logs/, i.e. the team's workspace's.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "parley/tot/durable_run.hpp"
#include "parley/tot/run_logs.hpp"

namespace parley::tot {
namespace {

namespace fs = std::filesystem;

class RunLogs : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device device;
    root_ = fs::temp_directory_path() / ("parley-run-logs-" + std::to_string(device()));
    fs::create_directories(root_ / "workspace");
  }
  void TearDown() override { fs::remove_all(root_); }
  fs::path workspace() const { return root_ / "workspace"; }
  fs::path data() const { return root_ / "data"; }
  fs::path root_;
};

TEST_F(RunLogs, ANewRunGoesToTheWorkspacesLogsFolderAsTheSeedSays) {
  const auto logs = run_logs::of(workspace(), data());
  EXPECT_EQ(logs.dir(), workspace() / "logs");
  auto folder = logs.create(1761834656123);
  ASSERT_TRUE(folder) << folder.err().message;
  EXPECT_EQ(folder->dir().parent_path(), workspace() / "logs");
  EXPECT_EQ(folder->task_id().rfind("tot-20251030-143056-", 0), 0U) << folder->task_id();
  EXPECT_FALSE(fs::exists(data() / "logs"));
}

TEST_F(RunLogs, ARunWrittenUnderTheDataDirectoryBeforeIsStillFoundAndIndexed) {
  auto older = run_folder::create_in(data() / "logs", 1761834656123);
  ASSERT_TRUE(older) << older.err().message;
  ASSERT_TRUE(older->write_task_info(json::object{{"problem", "4 9 10 13"},
                                                  {"task_type", "math_reasoning"},
                                                  {"start_time", "2025-10-30T14:30:56.123Z"},
                                                  {"status", "running"},
                                                  {"root_dialogs", json::array{"root-1"}}}));
  const auto logs = run_logs::of(workspace(), data());
  auto found = logs.open(older->task_id());
  ASSERT_TRUE(found) << found.err().message;
  EXPECT_EQ(found->dir(), older->dir());
  EXPECT_EQ(index_run_roots(logs).at("root-1"), older->task_id());
  auto missing = logs.open("tot-20250101-000000-abcdef");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.err().code, errc::not_found);
  auto not_an_id = logs.open("../data");
  ASSERT_FALSE(not_an_id);
  EXPECT_EQ(not_an_id.err().code, errc::invalid_argument);
}

TEST_F(RunLogs, AFolderTheUserNamesWinsAndTheDataDirectoryIsReadOnlyOnce) {
  const auto chosen = run_logs::of(workspace(), data(), root_ / "elsewhere");
  EXPECT_EQ(chosen.dir(), root_ / "elsewhere");
  EXPECT_EQ(chosen.folders().size(), 2U);
  // A workspace that is the data directory (a test's, or a user's choice) reads that folder once.
  EXPECT_EQ(run_logs::of(data(), data()).folders().size(), 1U);
}

}  // namespace
}  // namespace parley::tot

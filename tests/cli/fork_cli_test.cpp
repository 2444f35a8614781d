// `parley fork` on the real binary (docs/fork.md): a fork of the demo's tree shown with its origin,
// resumed from the generation it was cut before; bad points refused with one clear line, and
// nothing written.
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>

#include <filesystem>
#include <random>
#include <string>

#include "parley/store/store.hpp"
#include "support/cli_runner.hpp"

namespace parley {
namespace {

namespace fs = std::filesystem;

class CliFork : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device device;
    root_ = fs::temp_directory_path() / ("parley-cli-fork-" + std::to_string(device()));
    data_ = root_ / "data";
  }
  void TearDown() override { fs::remove_all(root_); }
  static testing::cli_outcome run(const std::string& args) { return testing::run_cli(args); }
  std::string data() const { return " --data " + data_.string(); }
  std::string team() const { return " --team " + std::string(PARLEY_SOURCE_DIR) + "/examples/demo/team.yaml"; }
  // The demo's first dialog: its id, its events, and the seq of its first generation with calls.
  std::string demo_root() {
    EXPECT_EQ(run("run" + team() + data() + " --quiet 'What is in the notes?'").status, 0);
    auto log = open_sqlite_store(data_.string());
    const auto id = (*log)->list_dialogs({}).value().at(0).id;
    for (const auto& ev : (*log)->read_events(id).value()) {
      const auto* done = ev.as<events::generation_finished>();
      if (done != nullptr && !done->tool_calls.empty() && call_seq_ == 0) call_seq_ = ev.seq;
    }
    events_ = static_cast<std::int64_t>((*log)->read_all_events().value().size());
    return id;
  }
  std::int64_t all_events() {
    auto log = open_sqlite_store(data_.string());
    return static_cast<std::int64_t>((*log)->read_all_events().value().size());
  }

  fs::path root_;
  fs::path data_;
  std::int64_t call_seq_ = 0;
  std::int64_t events_ = 0;
};

TEST_F(CliFork, AForkIsShownWithItsOriginAndResumedFromTheGenerationItWasCutBefore) {
  const std::string id = demo_root();
  const auto forked = run("fork " + id + " --at-generation 2 --json" + data());
  ASSERT_EQ(forked.status, 0) << forked.output;
  const auto out = boost::json::parse(forked.output).as_object();
  const std::string fork_id(out.at("id").as_string());
  EXPECT_EQ(out.at("forkedFrom").at("dialog"), id.c_str());
  EXPECT_EQ(all_events(), events_ + 1) << "a tree of one dialog forks with one event";

  const auto shown = run("show " + fork_id + data());
  ASSERT_EQ(shown.status, 0) << shown.output;
  const std::string origin_line =
      "forked from " + id + " at event " + std::to_string(out.at("forkedFrom").at("at").as_int64()) + "\n";
  EXPECT_NE(shown.output.find(origin_line), std::string::npos) << shown.output;
  EXPECT_NE(shown.output.find("What is in the notes?"), std::string::npos) << shown.output;
  EXPECT_EQ(shown.output.find("864 hours"), std::string::npos) << "the fork was cut before the answer";

  const auto resumed = run("resume " + fork_id + data() + " --quiet");
  ASSERT_EQ(resumed.status, 0) << resumed.output;
  const auto after = run("show " + fork_id + data());
  EXPECT_NE(after.output.find("3 sprints of 12 days are 864 hours."), std::string::npos) << after.output;
  const auto origin = run("show " + id + data() + " --json");
  EXPECT_EQ(origin.output.find("forkedFrom"), std::string::npos);
}

TEST_F(CliFork, BadPointsAreRefusedWithOneLineAndNothingIsWritten) {
  const std::string id = demo_root();
  ASSERT_GT(call_seq_, 0);
  const auto mid_step = run("fork " + id + " --at " + std::to_string(call_seq_) + data());
  EXPECT_EQ(mid_step.status, 2) << mid_step.output;
  EXPECT_NE(mid_step.output.find("is inside an unfinished step (tool call"), std::string::npos) << mid_step.output;
  EXPECT_NE(mid_step.output.find("the nearest valid points are --at "), std::string::npos) << mid_step.output;
  const auto past_the_end = run("fork " + id + " --at 100000" + data());
  EXPECT_EQ(past_the_end.status, 2) << past_the_end.output;
  EXPECT_NE(past_the_end.output.find("has no event 100000; its events are 1.."), std::string::npos);
  EXPECT_EQ(run("fork " + id + " --at 0" + data()).status, 2);
  const auto both = run("fork " + id + " --at 2 --at-generation 1" + data());
  EXPECT_EQ(both.status, 2);
  EXPECT_EQ(both.output, "parley: give either --at or --at-generation, not both\n");
  EXPECT_NE(run("fork no-such-dialog" + data()).status, 0);
  EXPECT_EQ(all_events(), events_);
}

}  // namespace
}  // namespace parley

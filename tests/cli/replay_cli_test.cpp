// `parley replay` on the real binary (docs/fork.md "Replay"): the demo's tree run again, its tool
// calls answered from the record, shown as a replay of its origin; bad input refused with one
// clear line, and nothing written.
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "parley/store/store.hpp"
#include "support/cli_runner.hpp"

namespace parley {
namespace {

namespace fs = std::filesystem;

class CliReplay : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device device;
    root_ = fs::temp_directory_path() / ("parley-cli-replay-" + std::to_string(device()));
    data_ = root_ / "data";
  }
  void TearDown() override { fs::remove_all(root_); }
  static testing::cli_outcome run(const std::string& args) { return testing::run_cli(args); }
  std::string data() const { return " --data " + data_.string(); }
  std::string demo_root() {
    const std::string team = " --team " + std::string(PARLEY_SOURCE_DIR) + "/examples/demo/team.yaml";
    EXPECT_EQ(run("run" + team + data() + " --quiet 'What is in the notes?'").status, 0);
    auto log = open_sqlite_store(data_.string());
    return (*log)->list_dialogs({}).value().at(0).id;
  }
  // How many events of `type` dialog `id`'s own log holds.
  std::int64_t count(const std::string& id, std::string_view type) {
    auto log = open_sqlite_store(data_.string());
    std::int64_t n = 0;
    for (const auto& ev : (*log)->read_events(id).value()) n += ev.type() == type ? 1 : 0;
    return n;
  }
  std::int64_t all_events() {
    auto log = open_sqlite_store(data_.string());
    return static_cast<std::int64_t>((*log)->read_all_events().value().size());
  }

  fs::path root_;
  fs::path data_;
};

TEST_F(CliReplay, TheWholeTreeRunsAgainWithEveryCallAnsweredFromTheRecordAndIsShownAsAReplay) {
  const std::string id = demo_root();
  const auto replayed = run("replay " + id + " --json --tools recorded" + data());
  ASSERT_EQ(replayed.status, 0) << replayed.output;
  const auto out = boost::json::parse(replayed.output.substr(0, replayed.output.find('\n'))).as_object();
  const std::string fork_id(out.at("id").as_string());
  EXPECT_EQ(out.at("replayOf").at("dialog"), id.c_str());
  EXPECT_GT(count(id, "tool_result"), 0);
  EXPECT_EQ(count(fork_id, "call_replayed"), count(id, "tool_result"))
      << "the same script makes the same calls, each answered from the record";

  const auto shown = run("show " + fork_id + data());
  ASSERT_EQ(shown.status, 0) << shown.output;
  EXPECT_NE(shown.output.find("replay of " + id + " from event "), std::string::npos) << shown.output;
  EXPECT_NE(shown.output.find("with no change, recorded tools only"), std::string::npos) << shown.output;
  EXPECT_NE(shown.output.find("3 sprints of 12 days are 864 hours."), std::string::npos) << shown.output;
  EXPECT_TRUE(fs::is_directory(data_ / "replays" / fork_id / "workspace"));
}

TEST_F(CliReplay, BadInputIsRefusedWithOneLineAndNothingIsWritten) {
  const std::string id = demo_root();
  const auto before = all_events();
  std::ofstream(root_ / "persona.md") << "You lead differently.";
  const auto unknown_member =
      run("replay " + id + " --member-persona nobody=" + (root_ / "persona.md").string() + data());
  EXPECT_EQ(unknown_member.status, 2) << unknown_member.output;
  EXPECT_EQ(unknown_member.output.rfind("parley: member-persona: the team has no model member 'nobody'", 0), 0U)
      << unknown_member.output;
  const auto missing_file = run("replay " + id + " --member-persona lead=" + (root_ / "none.md").string() + data());
  EXPECT_EQ(missing_file.status, 2) << missing_file.output;
  EXPECT_NE(missing_file.output.find("--member-persona " + (root_ / "none.md").string()), std::string::npos)
      << missing_file.output;
  const auto bad_point = run("replay " + id + " --from 100000" + data());
  EXPECT_EQ(bad_point.status, 2) << bad_point.output;
  EXPECT_NE(bad_point.output.find("has no event 100000"), std::string::npos) << bad_point.output;
  const auto bad_tools = run("replay " + id + " --tools sometimes" + data());
  EXPECT_EQ(bad_tools.output, "parley: --tools: expected recorded or live, got 'sometimes'\n");
  const auto bad_provider = run("replay " + id + " --provider nowhere" + data());
  EXPECT_EQ(bad_provider.status, 2) << bad_provider.output;
  for (const auto* output : {&unknown_member.output, &missing_file.output, &bad_point.output, &bad_provider.output}) {
    EXPECT_EQ(std::count(output->begin(), output->end(), '\n'), 1) << *output;
  }
  EXPECT_EQ(all_events(), before);
  EXPECT_FALSE(fs::exists(data_ / "replays"));
}

// `parley resume --all` takes a failed replay too and drives it as `parley resume FORK` would: under
// the replay's team (its script), not the team given to the verb.
TEST_F(CliReplay, ResumeAllResumesAFailedReplayUnderItsOwnTeam) {
  const fs::path team = root_ / "team";
  fs::create_directories(team / "workspace");
  const std::string head =
      "version: 1\ndefault_member: lead\nworkspace: workspace\nmembers:\n"
      "  lead: {name: Lead, persona: \"You lead.\", provider: offline, model: scripted}\nproviders:\n";
  std::ofstream(team / "team.yaml") << head << "  offline: {kind: scripted, script: script.yaml}\n";
  std::ofstream(team / "script.yaml") << "members:\n  lead:\n    - emit: [{saying: \"ok: {{last_user}}\"}]\n";
  std::ofstream(team / "other.yaml") << head << "  offline: {kind: scripted, script: other-script.yaml}\n";
  // The replay's script has no answer at first: its drive fails.
  std::ofstream(team / "other-script.yaml")
      << "members:\n  lead:\n    - when: {last_user: \"never said\"}\n      emit: [{saying: \"never\"}]\n";
  const std::string team_flag = " --team " + (team / "team.yaml").string();
  ASSERT_EQ(run("run" + team_flag + data() + " --quiet 'hello'").status, 0);
  const std::string id = open_sqlite_store(data_.string()).value()->list_dialogs({}).value().at(0).id;
  const auto replayed = run("replay " + id + " --team " + (team / "other.yaml").string() + data() + " --quiet");
  EXPECT_NE(replayed.status, 0) << replayed.output;
  std::string fork_id;
  {  // closed before the verbs below open the store themselves
    auto log = open_sqlite_store(data_.string());
    for (const auto& row : (*log)->list_dialogs({}).value()) {
      if (row.id != id) fork_id = row.id;
    }
  }
  ASSERT_FALSE(fork_id.empty());

  std::ofstream(team / "other-script.yaml")
      << "members:\n  lead:\n    - emit: [{saying: \"replayed: {{last_user}}\"}]\n";
  const auto resumed = run("resume --all" + team_flag + data() + " --quiet");
  EXPECT_EQ(resumed.status, 0) << resumed.output;
  EXPECT_NE(resumed.output.find("1 dialog(s) resumed: " + fork_id), std::string::npos) << resumed.output;
  const auto shown = run("show " + fork_id + data());
  EXPECT_NE(shown.output.find("replayed: hello"), std::string::npos) << shown.output;
  EXPECT_EQ(shown.output.find("ok: hello"), std::string::npos) << "driven under the served team: " << shown.output;
}

}  // namespace
}  // namespace parley

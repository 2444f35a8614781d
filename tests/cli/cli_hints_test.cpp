// Every command the CLI prints for the user to type next works when typed (issue 43): it carries
// the options the user gave (--data, --team, ...), shell-quoted. Each test runs the printed command.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "support/cli_runner.hpp"

namespace parley {
namespace {

namespace fs = std::filesystem;

using outcome = parley::testing::cli_outcome;

outcome run_hinted(const std::string& args) { return parley::testing::run_cli(args); }

// `parley ARGS` started in `folder`, as a user in that folder would.
outcome run_in(const fs::path& folder, const std::string& args) {
  return parley::testing::run_cli(args, folder.string());
}

// The text after `marker` up to the end of its line (or up to `end` when given).
std::string text_after(const std::string& text, const std::string& marker, char end = '\n') {
  const auto at = text.find(marker);
  if (at == std::string::npos) return {};
  const auto from = at + marker.size();
  return text.substr(from, text.find(end, from) - from);
}

// A printed "parley ..." command, run as printed (its words are shell words).
outcome run_printed(const std::string& command, const fs::path& folder = {}) {
  EXPECT_EQ(command.rfind("parley ", 0), 0U) << command;
  if (command.rfind("parley ", 0) != 0) return {};
  return folder.empty() ? run_hinted(command.substr(7)) : run_in(folder, command.substr(7));
}

class CliHints : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device device;
    root_ = fs::temp_directory_path() / ("parley-hints-" + std::to_string(device()));
    // A folder name a shell splits and unquotes: only a quoted hint finds it.
    data_ = root_ / "my 'data";
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }
  static std::string quoted(const std::string& word) {
    std::string out = "'";
    for (const char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
  }
  std::string data() const { return " --data " + quoted(data_.string()); }
  static std::string team() { return " --team " + std::string(PARLEY_SOURCE_DIR) + "/examples/demo/team.yaml"; }
  fs::path root_;
  fs::path data_;
};

TEST_F(CliHints, RunsQuestionsHintAndTheAnswerLineItPrintsWorkAsPrinted) {
  const auto started = run_hinted("run" + team() + data() + " --quiet 'Plan the next sprint'");
  ASSERT_EQ(started.status, 0) << started.output;
  const std::string questions = text_after(started.output, "1 question waits for you: see `", '`');
  EXPECT_EQ(questions, "parley questions --data " + quoted(data_.string()) + " --team " +
                           std::string(PARLEY_SOURCE_DIR) + "/examples/demo/team.yaml")
      << started.output;
  const auto listed = run_printed(questions);
  ASSERT_EQ(listed.status, 0) << listed.output;
  std::string answer = text_after(listed.output, "  answer: ");
  const auto placeholder = answer.rfind(" 'your answer'");
  ASSERT_NE(placeholder, std::string::npos) << listed.output;
  answer.replace(placeholder, std::string::npos, " 'the CLI'");
  const auto answered = run_printed(answer + " --quiet");
  ASSERT_EQ(answered.status, 0) << answered.output;
  EXPECT_EQ(run_printed(questions).output, "no open questions\n");
}

TEST_F(CliHints, AMistypedVerbOptionOrMemberNamesTheCorrectedCommandWhichWorks) {
  ASSERT_EQ(run_hinted("run" + team() + data() + " --quiet hello").status, 0);
  const auto verb = run_hinted("dialgos" + data());
  EXPECT_EQ(verb.status, 2);
  const std::string verb_fix = text_after(verb.output, "(did you mean 'dialogs'?); try: ");
  EXPECT_EQ(verb_fix, "parley dialogs --data " + quoted(data_.string())) << verb.output;
  EXPECT_EQ(run_printed(verb_fix).status, 0);

  const auto option = run_hinted("dialogs --dat " + quoted(data_.string()));
  EXPECT_EQ(option.status, 2);
  const std::string option_fix = text_after(option.output, "(did you mean --data?); try: ");
  EXPECT_EQ(option_fix, "parley dialogs --data " + quoted(data_.string())) << option.output;
  EXPECT_EQ(run_printed(option_fix).status, 0);

  const auto member = run_hinted("run" + team() + data() + " --member laed --quiet 'hi there'");
  EXPECT_EQ(member.status, 2);
  const std::string member_fix = text_after(member.output, "(did you mean 'lead'?); try: ");
  EXPECT_NE(member_fix.find(" --member lead "), std::string::npos) << member.output;
  const auto fixed = run_printed(member_fix);
  EXPECT_EQ(fixed.status, 0) << fixed.output;
}

TEST_F(CliHints, TheNextPageCommandKeepsTheFiltersAndTheDataDirectory) {
  for (const char* words : {"first", "second", "third"}) {
    ASSERT_EQ(run_hinted("run" + team() + data() + " --quiet " + words).status, 0);
  }
  const auto page = run_hinted("dialogs --status running --limit 2" + data());
  ASSERT_EQ(page.status, 0) << page.output;
  const std::string next = text_after(page.output, "next page: ");
  EXPECT_EQ(next.rfind("parley dialogs --data " + quoted(data_.string()) + " --status running --limit 2 --cursor ", 0),
            0U)
      << page.output;
  const auto second = run_printed(next);
  ASSERT_EQ(second.status, 0) << second.output;
  EXPECT_NE(second.output.find("  first\n"), std::string::npos) << second.output;
  EXPECT_EQ(second.output.find("next page"), std::string::npos) << second.output;
}

// A team whose `language` is zh (issue 43 item 7): the CLI's lines are in Chinese, the commands
// and ids in them as they are; `parley` alone follows the team it remembers.
TEST_F(CliHints, AChineseTeamsRunAndOverviewSpeakChineseAndTheirCommandsStillWork) {
  const fs::path demo = root_ / "demo";
  fs::copy(fs::path(PARLEY_SOURCE_DIR) / "examples/demo", demo, fs::copy_options::recursive);
  std::ofstream(demo / "team.yaml", std::ios::app) << "language: zh\n";
  const std::string zh_team = " --team " + quoted((demo / "team.yaml").string());
  const auto started = run_in(root_, "run" + zh_team + " --quiet 'Plan the next sprint'");
  ASSERT_EQ(started.status, 0) << started.output;
  EXPECT_NE(started.output.find("\n对话 "), std::string::npos) << started.output;
  const std::string questions = text_after(started.output, "有 1 个问题等你回答：见 `", '`');
  EXPECT_EQ(questions.rfind("parley questions", 0), 0U) << started.output;
  EXPECT_EQ(started.output.find("question waits"), std::string::npos) << "no English line: " << started.output;
  EXPECT_EQ(started.output.find("【"), std::string::npos) << "no raw seed marker: " << started.output;

  const auto waiting = run_in(root_, "");
  ASSERT_EQ(waiting.status, 0) << waiting.output;
  EXPECT_NE(waiting.output.find("有 1 个问题等你回答：\n  @researcher"), std::string::npos) << waiting.output;
  EXPECT_NE(waiting.output.find("1 个对话进行中：parley dialogs --status running\n"), std::string::npos)
      << waiting.output;
  const std::string answer_hint = text_after(waiting.output, "阅读并回答：");
  EXPECT_EQ(answer_hint, "parley questions");
  EXPECT_EQ(run_printed(answer_hint, root_).status, 0);
}

// `parley` alone in a folder with a .parley/: what waits, and the commands to type, which work.
TEST_F(CliHints, NoVerbWhereDataIsShowsWhatWaitsAndTheCommandsWork) {
  const auto started = run_in(root_, "run" + team() + " --quiet 'Plan the next sprint'");
  ASSERT_EQ(started.status, 0) << started.output;
  const auto waiting = run_in(root_, "");
  ASSERT_EQ(waiting.status, 0) << waiting.output;
  EXPECT_NE(waiting.output.find("1 question waits for you:\n  @researcher in subdialog "), std::string::npos)
      << waiting.output;
  EXPECT_NE(waiting.output.find("1 dialog open: parley dialogs --status running\n"), std::string::npos)
      << waiting.output;
  const std::string questions = text_after(waiting.output, "read and answer them: ");
  EXPECT_EQ(questions, "parley questions");
  const auto listed = run_printed(questions, root_);
  EXPECT_EQ(listed.status, 0) << listed.output;
  EXPECT_NE(listed.output.find("  answer: parley answer "), std::string::npos) << listed.output;

  // From elsewhere, with --data: every hint carries it.
  const auto elsewhere = run_hinted("--data " + quoted((root_ / ".parley").string()));
  ASSERT_EQ(elsewhere.status, 0) << elsewhere.output;
  const std::string listing = text_after(elsewhere.output, "1 dialog open: ");
  EXPECT_EQ(listing, "parley dialogs --data " + (root_ / ".parley").string() + " --status running");
  EXPECT_EQ(run_printed(listing).status, 0);
  // Where there is no data, the usage as before.
  fs::create_directories(root_ / "empty");
  const auto empty = run_in(root_ / "empty", "");
  EXPECT_EQ(empty.status, 2);
  EXPECT_EQ(empty.output.rfind("usage: parley <verb> [options]", 0), 0U) << empty.output;
}

}  // namespace
}  // namespace parley

// `parley title` and the seed markers in what the CLI shows (issue 43).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "support/cli_runner.hpp"

namespace parley {
namespace {

namespace fs = std::filesystem;

parley::testing::cli_outcome run_titled(const std::string& args) { return parley::testing::run_cli(args); }

// The dialog id `parley run` prints last ("dialog ID", a Chinese team's "对话 ID").
std::string printed_dialog(const std::string& output) {
  for (const std::string label : {"dialog ", "对话 "}) {
    const auto at = output.rfind(label);
    if (at != std::string::npos) return output.substr(at + label.size(), output.find('\n', at) - at - label.size());
  }
  return {};
}

class CliTitle : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device device;
    root_ = fs::temp_directory_path() / ("parley-title-" + std::to_string(device()));
    fs::create_directories(root_ / "team");
  }
  void TearDown() override { fs::remove_all(root_); }
  std::string data() const { return " --data " + (root_ / "data").string(); }
  // A one-member team on the scripted model that answers `saying`, in `language`.
  std::string team_saying(const std::string& saying, const std::string& language = "en") const {
    std::ofstream(root_ / "team" / "team.yaml") << "version: 1\nlanguage: " << language
                                                << "\nproviders:\n  offline: {kind: scripted, script: script.yaml}\n"
                                                   "members:\n  lead: {persona: p, provider: offline, model: m}\n";
    std::ofstream(root_ / "team" / "script.yaml")
        << "members:\n  lead:\n    - emit: [{saying: \"" << saying << "\"}]\n";
    return " --team " + (root_ / "team" / "team.yaml").string();
  }
  fs::path root_;
};

TEST_F(CliTitle, TitleNamesADialogAndABadTitleIsRefusedNamingTheFieldChangingNothing) {
  const auto started = run_titled("run" + team_saying("done") + data() + " --quiet 'Plan the budget review'");
  ASSERT_EQ(started.status, 0) << started.output;
  const std::string id = printed_dialog(started.output);
  ASSERT_FALSE(id.empty()) << started.output;
  const auto titled = run_titled("title " + id + " '  Budget review Q3 '" + data());
  ASSERT_EQ(titled.status, 0) << titled.output;
  EXPECT_EQ(titled.output, id + " is titled: Budget review Q3\n");
  EXPECT_NE(run_titled("dialogs" + data()).output.find("  Budget review Q3\n"), std::string::npos);
  for (const std::string& bad :
       {std::string("''"), std::string("'   '"), std::string(201, 'x'), std::string("\"$(printf 'two\\nlines')\"")}) {
    const auto refused = run_titled("title " + id + " " + bad + data());
    EXPECT_EQ(refused.status, 2) << bad;
    EXPECT_EQ(refused.output.rfind("parley: title: ", 0), 0U) << refused.output;
  }
  const auto shown = run_titled("show " + id + " --json" + data());
  EXPECT_NE(shown.output.find("\"title\":\"Budget review Q3\""), std::string::npos) << shown.output;
  const auto missing = run_titled("title nope 'A title'" + data());
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.output.find("no dialog 'nope'"), std::string::npos) << missing.output;
}

// A marker that opens a message is protocol: `run` and `show` show its tag in the team's language.
TEST_F(CliTitle, ASeedMarkerIsShownAsATagInTheTeamsLanguage) {
  const auto started = run_titled("run" + team_saying("【最终完成】\\nAll done.") + data() + " 'Finish it'");
  ASSERT_EQ(started.status, 0) << started.output;
  EXPECT_NE(started.output.find("[final reply]\nAll done."), std::string::npos) << started.output;
  EXPECT_EQ(started.output.find("【最终完成】"), std::string::npos) << started.output;
  const auto shown = run_titled("show " + printed_dialog(started.output) + data());
  EXPECT_NE(shown.output.find("  [final reply]\n  All done.\n"), std::string::npos) << shown.output;
  // The log keeps the marker as written: it is what the tellasker reads.
  const auto json = run_titled("show " + printed_dialog(started.output) + " --json" + data());
  EXPECT_NE(json.output.find("【最终完成】"), std::string::npos) << json.output;

  fs::remove_all(root_ / "data");
  const auto zh = run_titled("run" + team_saying("【最终完成】\\n完成了。", "zh") + data() + " --quiet '完成它'");
  ASSERT_EQ(zh.status, 0) << zh.output;
  EXPECT_NE(zh.output.find("\n对话 "), std::string::npos)
      << "the run's last line in the team's language: " << zh.output;
  const auto zh_shown = run_titled("show " + printed_dialog(zh.output) + data());
  EXPECT_NE(zh_shown.output.find("  [最终回复]\n  完成了。\n"), std::string::npos) << zh_shown.output;
  // `parley show`'s own lines follow the team's language too (issue 43 item 7).
  EXPECT_NE(zh_shown.output.find(" · 第 1 程 · "), std::string::npos) << zh_shown.output;
  EXPECT_EQ(zh_shown.output.find("course"), std::string::npos) << zh_shown.output;
}

}  // namespace
}  // namespace parley

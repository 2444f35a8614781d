// The CLI speaks the team's `language` (issue 43 item 7): `--help` and usage lines, the headings of
// `parley dialogs`, the maintainer verbs' lines and the fixed part of an error from a lower layer
// (said by its kind, the detail verbatim). Without a team: PARLEY_LANG, else the locale. An
// English team's lines stay as they were; option names, ids and values are never translated.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "support/cli_runner.hpp"

namespace parley {
namespace {

namespace fs = std::filesystem;

using outcome = parley::testing::cli_outcome;

class CliLanguage : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device device;
    root_ = fs::temp_directory_path() / ("parley-language-" + std::to_string(device()));
    fs::create_directories(root_ / "empty");
    // The demo team in Chinese, found in the folder the verbs start in (no --team given).
    fs::copy(fs::path(PARLEY_SOURCE_DIR) / "examples/demo", root_ / "zh", fs::copy_options::recursive);
    std::ofstream(root_ / "zh" / "team.yaml", std::ios::app) << "language: zh\n";
    fs::copy(fs::path(PARLEY_SOURCE_DIR) / "examples/demo", root_ / "en", fs::copy_options::recursive);
  }
  void TearDown() override { fs::remove_all(root_); }
  outcome in(const std::string& folder, const std::string& args, const std::string& env = {}) const {
    return parley::testing::run_cli(args, (root_ / folder).string(), env);
  }
  fs::path root_;
};

TEST_F(CliLanguage, AChineseTeamsHelpIsChineseWithItsOptionsVerbatim) {
  const auto help = in("zh", "--help");
  ASSERT_EQ(help.status, 0) << help.output;
  EXPECT_EQ(help.output.rfind("用法：parley <verb> [options]", 0), 0U) << help.output;
  // The synopsis as typed; the summary in Chinese, saying scripts read --json.
  EXPECT_NE(help.output.find("  parley dialogs [--json] [--status S]"), std::string::npos) << help.output;
  EXPECT_NE(help.output.find("列标题跟随团队的语言，脚本请读 --json"), std::string::npos) << help.output;
  EXPECT_NE(help.output.find("通用选项：--data DIR"), std::string::npos) << help.output;
  EXPECT_EQ(help.output.find("start a root dialog"), std::string::npos) << "no English summary: " << help.output;
  // Every verb's summary (the line under its synopsis) is in Chinese.
  std::size_t verbs = 0;
  for (std::size_t at = help.output.find("\n  parley "); at != std::string::npos;
       at = help.output.find("\n  parley ", at + 1)) {
    const auto summary_at = help.output.find("\n      ", at + 1);
    ASSERT_NE(summary_at, std::string::npos) << help.output;
    const std::string summary =
        help.output.substr(summary_at + 7, help.output.find('\n', summary_at + 1) - summary_at - 7);
    EXPECT_TRUE(
        std::any_of(summary.begin(), summary.end(), [](char c) { return static_cast<unsigned char>(c) >= 0xE4; }))
        << "not in Chinese: " << summary;
    ++verbs;
  }
  EXPECT_GE(verbs, 30U) << help.output;

  const auto verb_help = in("zh", "vacuum --help");
  ASSERT_EQ(verb_help.status, 0) << verb_help.output;
  EXPECT_EQ(verb_help.output.rfind("用法：parley vacuum (--team FILE | --workspace DIR)", 0), 0U) << verb_help.output;
  // A verb's wrong arguments quote its usage in the language, with no error kind before it.
  const auto wrong = in("zh", "vacuum extra");
  EXPECT_EQ(wrong.status, 2);
  EXPECT_EQ(wrong.output, "parley: 用法：parley vacuum (--team FILE | --workspace DIR) [--data DIR] [--dry-run]\n");
}

TEST_F(CliLanguage, WithoutATeamTheEnvironmentChoosesAndEnglishStaysAsItWas) {
  EXPECT_EQ(in("empty", "--help").output.rfind("usage: parley <verb> [options]", 0), 0U);
  EXPECT_EQ(in("empty", "--help", "PARLEY_LANG=zh").output.rfind("用法：parley <verb> [options]", 0), 0U);
  EXPECT_EQ(in("empty", "--help", "LANG=zh_CN.UTF-8").output.rfind("用法：", 0), 0U);
  // PARLEY_LANG over the locale; a team's language over both.
  EXPECT_EQ(in("empty", "--help", "PARLEY_LANG=en LANG=zh_CN.UTF-8").output.rfind("usage: ", 0), 0U);
  EXPECT_EQ(in("en", "--help", "PARLEY_LANG=zh").output.rfind("usage: ", 0), 0U);
  const auto unknown = in("empty", "dialgs", "LC_ALL=zh_TW.UTF-8");
  EXPECT_EQ(unknown.status, 2);
  EXPECT_EQ(unknown.output, "parley: 没有动词 'dialgs'（是否是 'dialogs'？）；见 parley --help\n");
  EXPECT_EQ(in("empty", "dialgs").output,
            "parley: unknown verb 'dialgs' (did you mean 'dialogs'?); see parley --help\n");
}

TEST_F(CliLanguage, AChineseTeamsDialogsHeadingsMaintainerVerbsAndRefusalsAreChinese) {
  ASSERT_EQ(in("zh", "run --quiet 'Plan the next sprint'").status, 0);
  const auto listed = in("zh", "dialogs");
  ASSERT_EQ(listed.status, 0) << listed.output;
  // Each heading as wide as its column on screen (a Chinese character takes two).
  EXPECT_EQ(listed.output.rfind("编号              成员         状态       进展          ", 0), 0U) << listed.output;
  EXPECT_NE(listed.output.find("  标题\n"), std::string::npos) << listed.output;
  EXPECT_NE(listed.output.find("  lead         running    "), std::string::npos)
      << "values verbatim: " << listed.output;
  EXPECT_NE(listed.output.find("\n团队：输入 "), std::string::npos) << listed.output;
  EXPECT_EQ(listed.output.find("MEMBER"), std::string::npos) << listed.output;
  // Scripts read --json: the same keys whatever the language.
  const auto json = in("zh", "dialogs --json");
  EXPECT_EQ(json.output.rfind("[{\"id\":", 0), 0U) << json.output;

  const auto checked = in("zh", "check");
  EXPECT_EQ(checked.status, 0) << checked.output;
  EXPECT_NE(checked.output.find("已检查 2 个对话、"), std::string::npos) << checked.output;
  EXPECT_NE(checked.output.find("个事件：正常\n"), std::string::npos) << checked.output;
  const auto vacuum = in("zh", "vacuum --team team.yaml --data .parley");
  EXPECT_EQ(vacuum.output, "团队保留全部对话（其文件中没有 retention:）：无事可做\n");

  // A refused input: the kind in Chinese, the detail (option, range, value) as the layer said it,
  // and nothing changed; a control character from the command line is shown escaped.
  const auto refused = in("zh", "dialogs --limit 0");
  EXPECT_EQ(refused.status, 2);
  EXPECT_EQ(refused.output, "parley: 输入无效：--limit: expected a whole number from 1 to 500, got '0'\n");
  const auto escaped = in("zh", "dialogs --member \"$(printf 'x\\033[31m')\"");
  EXPECT_EQ(escaped.status, 2);
  EXPECT_EQ(escaped.output.rfind("parley: 输入无效：--member: ", 0), 0U) << escaped.output;
  EXPECT_EQ(escaped.output.find('\033'), std::string::npos) << escaped.output;
  const auto missing = in("zh", "show nosuchdialog");
  EXPECT_EQ(missing.status, 2);
  EXPECT_EQ(missing.output.rfind("parley: 未找到：", 0), 0U) << missing.output;
  EXPECT_NE(missing.output.find(" 中没有对话 'nosuchdialog'\n"), std::string::npos) << missing.output;
  // The eval suite's reader is a lower layer: its kind in Chinese, its detail (the file) as written.
  const auto unread = in("zh", "eval nosuch.yaml");
  EXPECT_EQ(unread.status, 2);
  EXPECT_EQ(unread.output.rfind("parley: 配置有误：", 0), 0U) << unread.output;
  EXPECT_NE(unread.output.find("nosuch.yaml"), std::string::npos) << unread.output;
}

// A serving verb's start-up lines (here `parley mcp`, whose stdin ends at once): the member's model
// described in Chinese, the file names in it as they are.
TEST_F(CliLanguage, AServingVerbsStartUpLinesAreChinese) {
  const auto served = in("zh", "mcp < /dev/null");
  EXPECT_EQ(served.status, 0) << served.output;
  EXPECT_NE(served.output.find("parley: @lead 使用 内置的脚本模型（离线，脚本 script.yaml）"), std::string::npos)
      << served.output;
  EXPECT_NE(served.output.find("parley: 在 stdin/stdout 上提供 MCP 服务（数据：.parley）"), std::string::npos)
      << served.output;
  EXPECT_EQ(served.output.find("talks to"), std::string::npos) << served.output;
}

// `parley diff` of two roots: its own words in Chinese, the step kinds, ids and figures as they are.
TEST_F(CliLanguage, AChineseTeamsDiffIsChinese) {
  const auto first = in("zh", "run --quiet 'Plan the next sprint'");
  const auto second = in("zh", "run --quiet 'Plan the next quarter'");
  ASSERT_EQ(first.status, 0) << first.output;
  ASSERT_EQ(second.status, 0) << second.output;
  const auto id_of = [](const std::string& output) {
    const auto at = output.find("对话 ");
    return at == std::string::npos ? std::string() : output.substr(at + 7, output.find('\n', at) - at - 7);
  };
  const auto diff = in("zh", "diff " + id_of(first.output) + " " + id_of(second.output));
  ASSERT_EQ(diff.status, 0) << diff.output;
  EXPECT_NE(diff.output.find("\n对话（A | B）：\n"), std::string::npos) << diff.output;
  EXPECT_NE(diff.output.find("\n最终回答：\n"), std::string::npos) << diff.output;
  EXPECT_NE(diff.output.find("\n每个成员（A / B）：\n  @lead\n    A "), std::string::npos) << diff.output;
  EXPECT_NE(diff.output.find(" 轮 输入 "), std::string::npos) << diff.output;
  EXPECT_EQ(diff.output.find("final answer"), std::string::npos) << diff.output;
}

TEST_F(CliLanguage, WithoutATeamTheCliOwnRefusalsFollowTheEnvironment) {
  const auto none = in("empty", "run hello", "PARLEY_LANG=zh");
  EXPECT_EQ(none.status, 2);
  EXPECT_EQ(
      none.output,
      "parley: 配置有误：没有团队：给出 --team FILE 或 --workspace DIR（或在有 .minds/ 或 team.yaml 的目录里运行）\n");
  EXPECT_EQ(in("empty", "run hello").output,
            "parley: no team: pass --team FILE or --workspace DIR (or run where a .minds/ or team.yaml is)\n");
}

TEST_F(CliLanguage, AnEnglishTeamsLinesAreUnchanged) {
  ASSERT_EQ(in("en", "run --quiet 'Plan the next sprint'").status, 0);
  const auto listed = in("en", "dialogs");
  EXPECT_EQ(listed.output.rfind("ID                MEMBER       STATUS     STATE         COURSE QUESTIONS  PENDING", 0),
            0U)
      << listed.output;
  EXPECT_NE(listed.output.find("\nteam: "), std::string::npos) << listed.output;
  EXPECT_NE(in("en", "check").output.find(" events checked: ok\n"), std::string::npos);
  EXPECT_EQ(in("en", "dialogs --limit 0").output, "parley: --limit: expected a whole number from 1 to 500, got '0'\n");
}

}  // namespace
}  // namespace parley

// Issue 26 item 5: the minds files as Dominds reads them (minds/load.ts) — `persona`, `knowhow`
// and `pitfalls` of `.minds/team/<id>/` and `.minds/env`, each `<kind>.<work language>.md` first,
// then `<kind>.md`; the work language from LANG; no persona file: Dominds' default persona.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "parley/config/team.hpp"
#include "unit/config/temp_tree.hpp"

namespace parley::config {
namespace {

class minds_files_fixture : public ::testing::Test {
 protected:
  void SetUp() override {
    tree_.write(".minds/team.yaml", "members:\n  alice:\n    provider: deepseek\n  bob:\n    provider: deepseek\n");
  }
  void TearDown() override { ::setenv("LANG", "C.UTF-8", 1); }

  team_config load_in(const char* lang) {
    ::setenv("LANG", lang, 1);
    auto team = load_dominds_workspace(tree_.root());
    EXPECT_TRUE(team) << team.err().message;
    return team ? std::move(team).value() : team_config{};
  }

  testing::temp_tree tree_;
};
using MindsFiles = minds_files_fixture;

TEST_F(MindsFiles, TheWorkLanguageVariantComesFirstThenThePlainFile) {
  tree_.write(".minds/team/alice/persona.md", "plain persona");
  tree_.write(".minds/team/alice/persona.zh.md", "中文角色");
  tree_.write(".minds/team/alice/knowhow.en.md", "english knowhow");
  tree_.write(".minds/team/alice/knowhow.md", "plain knowhow");
  tree_.write(".minds/team/alice/pitfalls.md", "plain pitfalls");
  tree_.write(".minds/env.zh.md", "中文环境");
  tree_.write(".minds/env.md", "plain environment");

  team_config english = load_in("en_US.UTF-8");
  EXPECT_EQ(english.language, "en");
  EXPECT_EQ(english.members[0].persona, "plain persona");  // no persona.en.md
  EXPECT_EQ(english.members[0].knowhow, "english knowhow");
  EXPECT_EQ(english.members[0].pitfalls, "plain pitfalls");
  EXPECT_EQ(english.environment, "plain environment");

  team_config chinese = load_in("zh_CN.UTF-8");
  EXPECT_EQ(chinese.language, "zh");
  EXPECT_EQ(chinese.members[0].persona, "中文角色");
  EXPECT_EQ(chinese.members[0].knowhow, "plain knowhow");  // knowhow.en.md is another language's
  EXPECT_EQ(chinese.environment, "中文环境");
}

TEST_F(MindsFiles, WithoutFilesTheDefaultPersonaAndNoOtherSections) {
  tree_.write(".minds/team/bob/persona.fr.md", "Jamais lu.");  // other languages are never read
  team_config english = load_in("C.UTF-8");
  EXPECT_EQ(english.members[1].persona, "You are a helpful assistant.");
  EXPECT_EQ(english.members[1].knowhow, "");
  EXPECT_EQ(english.members[1].pitfalls, "");
  EXPECT_EQ(english.environment, "");
  EXPECT_EQ(load_in("zh_TW.UTF-8").members[1].persona, "你是一个乐于助人的助手。");
}

TEST_F(MindsFiles, ABlankFileFoundFirstIsKeptBlank) {
  tree_.write(".minds/team/alice/persona.en.md", "\n");
  tree_.write(".minds/team/alice/persona.md", "never reached");
  EXPECT_EQ(load_in("C.UTF-8").members[0].persona, "\n");
}

}  // namespace
}  // namespace parley::config

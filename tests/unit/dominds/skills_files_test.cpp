// Dominds' skills (.minds/skills/*) read as Dominds reads them (dist/skills/load.js): the files and
// package folders, the language variant, the frontmatter; malformed files refused by name and key.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "parley/config/team.hpp"
#include "unit/config/temp_tree.hpp"

namespace parley::config {
namespace {

using testing::temp_tree;

constexpr std::string_view kTeamYaml = R"(member_defaults:
  provider: local
members:
  lead: {}
  helper: {}
)";
constexpr std::string_view kLlmYaml = "providers:\n  local:\n    apiType: openai-compatible\n    models: [m]\n";

class dominds_skills_fixture : public ::testing::Test {
 protected:
  void SetUp() override {
    ::setenv("LANG", "C.UTF-8", 1);
    tree_.write(".minds/team.yaml", kTeamYaml);
    tree_.write(".minds/llm.yaml", kLlmYaml);
  }
  void skill(std::string_view relative, std::string_view text) const {
    tree_.write(".minds/skills/" + std::string(relative), text);
  }
  std::string error_of() const {
    auto team = load_dominds_workspace(tree_.root());
    if (team) {
      ADD_FAILURE() << "expected an error, the workspace loaded";
      return {};
    }
    EXPECT_EQ(team.err().code, errc::config_error);
    return team.err().message;
  }
  std::string path_of(std::string_view relative) const {
    return (tree_.root() / ".minds" / "skills" / relative).string();
  }

  temp_tree tree_;
};
using DomindsSkills = dominds_skills_fixture;

TEST_F(DomindsSkills, TeamSharedAndIndividualSkillsAreReadInDomindsOrder) {
  skill("team_shared/zeta.md", "---\nname: Zeta\ndescription: Last by id.\n---\nZ body\n");
  skill("team_shared/alpha/SKILL.md", "---\nname: Alpha\ndescription: First by id.\n---\n\n  A body  \n\n");
  skill("individual/helper/own.md",
        "---\nname: Own\ndescription: Only the helper's.\nallowed-tools: read_file, search_files\n---\nO body\n");
  skill("individual/nobody/ghost.md", "---\nname: Ghost\ndescription: Not a member's.\n---\nG\n");
  skill("team_shared/notes.txt", "not a skill");
  auto team = load_dominds_workspace(tree_.root());
  ASSERT_TRUE(team) << team.err().message;
  ASSERT_EQ(team->skills.size(), 3U);
  EXPECT_EQ(team->skills[0].id, "alpha");
  EXPECT_EQ(team->skills[0].title, "Alpha");
  EXPECT_EQ(team->skills[0].description, "First by id.");
  EXPECT_EQ(team->skills[0].body, "A body");
  EXPECT_EQ(team->skills[0].source, ".minds/skills/team_shared/alpha/SKILL.md");
  EXPECT_TRUE(team->skills[0].member_id.empty());
  EXPECT_EQ(team->skills[1].id, "zeta");
  EXPECT_EQ(team->skills[2].id, "own");
  EXPECT_EQ(team->skills[2].member_id, "helper");
  EXPECT_EQ(team->skills[2].allowed_tools, (std::vector<std::string>{"read_file", "search_files"}));
}

TEST_F(DomindsSkills, TheWorkLanguagePicksTheVariantAndFallsBackToThePlainFile) {
  skill("team_shared/both.md", "---\nname: Plain\ndescription: d\n---\nplain\n");
  skill("team_shared/both.en.md", "---\nname: English\ndescription: d\n---\nen\n");
  skill("team_shared/both.cn.md", "---\nname: 中文\ndescription: d\n---\ncn\n");
  skill("team_shared/plain-only.md", "---\nname: Plain only\ndescription: d\n---\np\n");
  skill("team_shared/cn-only.cn.md", "---\nname: 只有中文\ndescription: d\n---\nc\n");
  auto english = load_dominds_workspace(tree_.root());
  ASSERT_TRUE(english) << english.err().message;
  std::vector<std::string> seen;
  for (const auto& s : english->skills) seen.push_back(s.id + "=" + s.title);
  // An English work language never reads a .cn file: the Chinese-only skill is not listed.
  EXPECT_EQ(seen, (std::vector<std::string>{"both=English", "plain-only=Plain only"}));

  ::setenv("LANG", "zh_CN.UTF-8", 1);
  auto chinese = load_dominds_workspace(tree_.root());
  ASSERT_TRUE(chinese) << chinese.err().message;
  seen.clear();
  for (const auto& s : chinese->skills) seen.push_back(s.id + "=" + s.title);
  EXPECT_EQ(seen, (std::vector<std::string>{"both=中文", "cn-only=只有中文", "plain-only=Plain only"}));
}

TEST_F(DomindsSkills, AMissingDescriptionIsRefusedNamingFileAndKey) {
  skill("team_shared/bad.md", "---\nname: Bad\n---\nbody\n");
  const std::string message = error_of();
  EXPECT_NE(message.find(path_of("team_shared/bad.md")), std::string::npos) << message;
  EXPECT_NE(message.find("description"), std::string::npos) << message;
}

TEST_F(DomindsSkills, AnUnknownFrontmatterKeyIsRefusedAtItsLine) {
  skill("team_shared/bad.md", "---\nname: Bad\ndescription: d\nauthor: me\n---\nbody\n");
  const std::string message = error_of();
  EXPECT_EQ(message.rfind(path_of("team_shared/bad.md") + ":4:1: ", 0), 0U) << message;
  EXPECT_NE(message.find("author"), std::string::npos) << message;
}

TEST_F(DomindsSkills, AFileWithoutFrontmatterOrBodyIsRefused) {
  skill("team_shared/none.md", "Just text, no frontmatter.\n");
  EXPECT_NE(error_of().find(path_of("team_shared/none.md")), std::string::npos);
  tree_.write(".minds/skills/team_shared/none.md", "---\nname: Empty\ndescription: d\n---\n\n  \n");
  const std::string message = error_of();
  EXPECT_NE(message.find(path_of("team_shared/none.md") + ": the skill has no Markdown body"), std::string::npos)
      << message;
}

TEST_F(DomindsSkills, FrontmatterThatIsNotAMappingOrHasBadTypesIsRefused) {
  skill("team_shared/list.md", "---\n- a\n- b\n---\nbody\n");
  EXPECT_NE(error_of().find("not a mapping"), std::string::npos);
  tree_.write(".minds/skills/team_shared/list.md",
              "---\nname: N\ndescription: d\nuser-invocable: sometimes\n---\nbody\n");
  std::string message = error_of();
  EXPECT_NE(message.find(":4:"), std::string::npos) << message;
  EXPECT_NE(message.find("user-invocable"), std::string::npos) << message;
  tree_.write(".minds/skills/team_shared/list.md", "---\nname: N\ndescription: d\nallowed-tools: ' , '\n---\nbody\n");
  message = error_of();
  EXPECT_NE(message.find("allowed-tools"), std::string::npos) << message;
}

TEST_F(DomindsSkills, TwoFilesOfOneVariantAreRefusedNamingBoth) {
  skill("team_shared/twice.md", "---\nname: A\ndescription: d\n---\nbody\n");
  skill("team_shared/twice/SKILL.md", "---\nname: B\ndescription: d\n---\nbody\n");
  const std::string message = error_of();
  EXPECT_NE(message.find("duplicate skill variant 'neutral'"), std::string::npos) << message;
  EXPECT_NE(message.find(path_of("team_shared/twice.md")), std::string::npos) << message;
  EXPECT_NE(message.find(path_of("team_shared/twice/SKILL.md")), std::string::npos) << message;
}

TEST_F(DomindsSkills, AnOversizeSkillFileIsRefused) {
  skill("team_shared/huge.md", "---\nname: Huge\ndescription: d\n---\n" + std::string(300 * 1024, 'x') + "\n");
  const std::string message = error_of();
  EXPECT_NE(message.find(path_of("team_shared/huge.md")), std::string::npos) << message;
  EXPECT_NE(message.find("over the limit"), std::string::npos) << message;
}

TEST_F(DomindsSkills, ALinkToNothingIsRefused) {
  std::filesystem::create_directories(tree_.root() / ".minds/skills/team_shared");
  std::filesystem::create_symlink(tree_.root() / "missing.md", tree_.root() / ".minds/skills/team_shared/gone.md");
  const std::string message = error_of();
  EXPECT_NE(message.find(path_of("team_shared/gone.md") + ": a skill link whose target does not exist"),
            std::string::npos)
      << message;
}

}  // namespace
}  // namespace parley::config

// Issue 26 item 5: member keys Dominds defines that Parley has no feature for are accepted, except
// where they restrict: `fbr-effort: 0` turns Fresh Boots Reasoning off; `use`/`import` (members
// from Dominds apps, which Parley lacks) are Problems and the member loads from its own keys.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "parley/config/team.hpp"
#include "unit/config/temp_tree.hpp"

namespace parley::config {
namespace {

class member_keys_fixture : public ::testing::Test {
 protected:
  std::string file() const { return (tree_.root() / ".minds" / "team.yaml").string(); }
  testing::temp_tree tree_;
};
using MemberKeys = member_keys_fixture;

bool offers_fbr(const member_config& member) {
  if (!member.dialog_tools) return true;
  const auto& tools = *member.dialog_tools;
  return std::find(tools.begin(), tools.end(), "freshBootsReasoning") != tools.end();
}

TEST_F(MemberKeys, FbrEffortZeroTurnsFreshBootsReasoningOff) {
  tree_.write(".minds/team.yaml", R"(member_defaults:
  provider: deepseek
  fbr-effort: 0
  icon: "x"
  diligence-push-max: 2
members:
  off: {}
  on:
    fbr_effort: 3
)");
  auto team = load_dominds_workspace(tree_.root());
  ASSERT_TRUE(team) << team.err().message;
  EXPECT_FALSE(offers_fbr(team->members[0]));
  ASSERT_TRUE(team->members[0].dialog_tools.has_value());
  EXPECT_EQ(team->members[0].dialog_tools->size(), 14U);  // every other dialog tool stays
  EXPECT_TRUE(offers_fbr(team->members[1]));              // its own key wins over member_defaults'
}

TEST_F(MemberKeys, FbrEffortMustBeAWholeNumber) {
  tree_.write(".minds/team.yaml", "members:\n  a:\n    provider: deepseek\n    fbr-effort: lots\n");
  auto team = load_dominds_workspace(tree_.root());
  ASSERT_FALSE(team);
  EXPECT_EQ(team.err().message, file() +
                                    ":4:17: members.a.fbr-effort: got 'lots' (expected a whole number >= 0 (0 "
                                    "turns Fresh Boots Reasoning off))");
}

// Dominds loads such a member from its own keys and reports the app it cannot find; so does Parley,
// which has no apps.
TEST_F(MemberKeys, MembersFromDomindsAppsLoadFromTheirOwnKeysWithAProblem) {
  tree_.write(".minds/team.yaml", "members:\n  a:\n    provider: deepseek\n    from: some-app\n");
  auto plain = load_dominds_workspace(tree_.root());  // `from` alone is a no-op, as in Dominds
  ASSERT_TRUE(plain) << plain.err().message;
  EXPECT_TRUE(plain->problems.empty());
  tree_.write(".minds/team.yaml",
              "member_defaults:\n  provider: deepseek\nmembers:\n  a:\n    from: some-app\n    use: reviewer\n"
              "  b:\n    import: helper\n  c:\n    from: x\n    use: r\n    import: r\n");
  auto team = load_dominds_workspace(tree_.root());
  ASSERT_TRUE(team) << team.err().message;
  ASSERT_EQ(team->members.size(), 3U);
  EXPECT_EQ(team->members[0].provider, "deepseek");
  ASSERT_EQ(team->problems.size(), 3U) << ::testing::PrintToString(problem_texts(team->problems));
  EXPECT_EQ(team->problems[0].text(), file() +
                                          ":6:5: members.a.use: 'use' takes member 'reviewer' from Dominds app "
                                          "'some-app', and Parley has no Dominds apps (as Dominds with the app not "
                                          "enabled): member 'a' is loaded from its own keys");
  EXPECT_EQ(team->problems[0].member, "a");
  EXPECT_FALSE(team->problems[0].blocks_member);
  EXPECT_NE(team->problems[1].text().find("members.b.import: 'import' is a cross-app member reference and needs "
                                          "'from: <app id>'"),
            std::string::npos)
      << team->problems[1].text();
  EXPECT_NE(team->problems[2].text().find("cannot specify both 'use' and 'import'"), std::string::npos);
}

}  // namespace
}  // namespace parley::config

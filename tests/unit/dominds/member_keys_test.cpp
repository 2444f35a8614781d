// Issue 26 item 5: member keys Dominds defines that Parley has no feature for are accepted, except
// where they restrict: `fbr-effort: 0` turns Fresh Boots Reasoning off; `use`/`import` (members
// from Dominds apps) are refused, naming the key.
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
  EXPECT_EQ(team->members[0].dialog_tools->size(), 9U);  // every other dialog tool stays
  EXPECT_TRUE(offers_fbr(team->members[1]));             // its own key wins over member_defaults'
}

TEST_F(MemberKeys, FbrEffortMustBeAWholeNumber) {
  tree_.write(".minds/team.yaml", "members:\n  a:\n    provider: deepseek\n    fbr-effort: lots\n");
  auto team = load_dominds_workspace(tree_.root());
  ASSERT_FALSE(team);
  EXPECT_EQ(team.err().message, file() +
                                    ":4:17: members.a.fbr-effort: got 'lots' (expected a whole number >= 0 (0 "
                                    "turns Fresh Boots Reasoning off))");
}

TEST_F(MemberKeys, MembersFromDomindsAppsAreRefused) {
  tree_.write(".minds/team.yaml", "members:\n  a:\n    provider: deepseek\n    from: some-app\n");
  EXPECT_TRUE(load_dominds_workspace(tree_.root()));  // `from` alone is a no-op, as in Dominds
  tree_.write(".minds/team.yaml", "members:\n  a:\n    from: some-app\n    use: reviewer\n");
  auto team = load_dominds_workspace(tree_.root());
  ASSERT_FALSE(team);
  EXPECT_EQ(team.err().message, file() +
                                    ":4:5: members.a.use: 'use' takes a member from a Dominds app, and Parley "
                                    "has no apps; define the member here instead");
}

}  // namespace
}  // namespace parley::config

// Issue 46 item 4: a Dominds workspace's policy — Dominds' diligence-push-max with Dominds' default
// (99), no tool-round limit but Parley's backstop, and Parley's own `max_tool_rounds` and `shell`
// (sandbox, allowlist) where Dominds has no key: top level, member_defaults, member.
#include <gtest/gtest.h>

#include <string>

#include "parley/config/team.hpp"
#include "unit/config/temp_tree.hpp"

namespace parley::config {
namespace {

class DomindsPolicyKeys : public ::testing::Test {
 protected:
  result<team_config> load(const std::string& team_yaml) {
    tree_.write(".minds/llm.yaml", "providers:\n  local:\n    apiType: openai-compatible\n    models: [m]\n");
    tree_.write(".minds/team.yaml", team_yaml);
    return load_dominds_workspace(tree_.root());
  }
  testing::temp_tree tree_;
};

TEST_F(DomindsPolicyKeys, DefaultsAreDomindsDiligenceAndParleysRoundBackstop) {
  auto team = load("members:\n  dev: {provider: local}\n");
  ASSERT_TRUE(team) << team.err().message;
  EXPECT_EQ(team->members[0].diligence_push_max, 99);
  EXPECT_EQ(team->members[0].max_tool_rounds, 1000);
  EXPECT_EQ(team->members[0].shell.sandbox, access::shell_sandbox::none);
}

TEST_F(DomindsPolicyKeys, MemberWinsOverMemberDefaultsWhichWinsOverTheTopLevel) {
  auto team = load(R"(shell:
  sandbox: bubblewrap
  allow: ["git *"]
  timeout_seconds: 30
member_defaults:
  provider: local
  diligence-push-max: 5
  max_tool_rounds: 50
  shell:
    allow: ["make"]
members:
  dev: {}
  ops:
    diligence_push_max: 0
    max_tool_rounds: 7
    shell: {allow: ["ls"], network: true}
)");
  ASSERT_TRUE(team) << team.err().message;
  const member_config& dev = team->members[0];
  EXPECT_EQ(dev.diligence_push_max, 5);
  EXPECT_EQ(dev.max_tool_rounds, 50);
  EXPECT_EQ(dev.shell.sandbox, access::shell_sandbox::bubblewrap);
  EXPECT_EQ(dev.shell.allow, std::vector<std::string>{"make"});
  EXPECT_EQ(dev.shell.timeout_seconds, 30);
  const member_config& ops = team->members[1];
  EXPECT_EQ(ops.diligence_push_max, 0);
  EXPECT_EQ(ops.max_tool_rounds, 7);
  EXPECT_EQ(ops.shell.sandbox, access::shell_sandbox::bubblewrap);
  EXPECT_EQ(ops.shell.allow, std::vector<std::string>{"ls"});
  EXPECT_TRUE(ops.shell.network);
}

TEST_F(DomindsPolicyKeys, WrongValuesAreErrorsWithTheirPosition) {
  const std::string file = (tree_.root() / ".minds" / "team.yaml").string();
  auto rounds = load("members:\n  dev: {provider: local, max_tool_rounds: 0}\n");
  ASSERT_FALSE(rounds);
  EXPECT_EQ(rounds.err().message.rfind(file + ":2:", 0), 0U) << rounds.err().message;
  EXPECT_NE(rounds.err().message.find("members.dev.max_tool_rounds"), std::string::npos) << rounds.err().message;
  auto sandbox = load("shell: {sandbox: docker}\nmembers:\n  dev: {provider: local}\n");
  ASSERT_FALSE(sandbox);
  EXPECT_EQ(sandbox.err().message.rfind(file + ":1:18: shell.sandbox: unknown sandbox 'docker'", 0), 0U)
      << sandbox.err().message;
}

}  // namespace
}  // namespace parley::config

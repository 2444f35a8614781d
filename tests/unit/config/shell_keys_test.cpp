// The `shell` keys: the team's default replaced key by key by a member's, and refused values named.
#include <gtest/gtest.h>

#include <string>

#include "parley/config/team.hpp"
#include "team_file_fixture.hpp"

namespace parley::config {
namespace {

using ShellKeys = testing::team_file_test;

constexpr std::string_view kShellTeam = R"(providers:
  offline: {kind: scripted, script: script.yaml}
shell:
  allow: ["git *", "make"]
  timeout_seconds: 30
members:
  lead:
    persona: p
    provider: offline
    model: m
  ops:
    persona: p
    provider: offline
    model: m
    shell:
      deny: ["rm *"]
      sandbox: bubblewrap
      network: true
      max_output_bytes: 1000
)";

TEST_F(ShellKeys, TheTeamDefaultIsReplacedKeyByKey) {
  auto team = load(kShellTeam);
  ASSERT_TRUE(team) << team.err().message;
  const auto& lead = team->members[0].shell;
  EXPECT_EQ(lead.allow, (std::vector<std::string>{"git *", "make"}));
  EXPECT_EQ(lead.timeout_seconds, 30);
  EXPECT_EQ(lead.sandbox, access::shell_sandbox::none);
  const auto& ops = team->members[1].shell;
  EXPECT_EQ(ops.allow, (std::vector<std::string>{"git *", "make"}));
  EXPECT_EQ(ops.deny, (std::vector<std::string>{"rm *"}));
  EXPECT_EQ(ops.sandbox, access::shell_sandbox::bubblewrap);
  EXPECT_TRUE(ops.network);
  EXPECT_EQ(ops.max_output_bytes, 1000);
}

TEST_F(ShellKeys, BadValuesAreRefusedWithTheirPlace) {
  const std::string base =
      "providers:\n  offline: {kind: scripted, script: script.yaml}\nmembers:\n  lead:\n    persona: p\n"
      "    provider: offline\n    model: m\n    shell:\n";
  EXPECT_NE(error_of(base + "      sandbox: docker\n").find("unknown sandbox 'docker'; expected none or bubblewrap"),
            std::string::npos);
  EXPECT_NE(error_of(base + "      timeout: 5\n").find("unknown key 'timeout'"), std::string::npos);
  EXPECT_NE(error_of(base + "      timeout_seconds: 0\n").find("members.lead.shell.timeout_seconds"),
            std::string::npos);
  EXPECT_NE(error_of(base + "      timeout_seconds: 900\n").find("is above max_timeout_seconds (600)"),
            std::string::npos);
  EXPECT_NE(error_of(base + "      max_output_bytes: 99999999\n").find("must be at most 16777216"), std::string::npos);
}

}  // namespace
}  // namespace parley::config

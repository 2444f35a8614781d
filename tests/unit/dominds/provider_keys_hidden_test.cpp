// A provider's key variable may have any name in `.minds/llm.yaml` (apiKeyEnvVar); whatever it is
// called, no shell command is given it, and env_get does not show it (issue 46: shell tools never
// receive the provider keys). And Dominds' os toolset under shell_specialists.
#include <gtest/gtest.h>

#include <cstdlib>

#include "parley/config/team.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/engine/member_toolsets.hpp"
#include "parley/tools/dominds_tools.hpp"
#include "parley/tools/shell_command.hpp"
#include "unit/config/temp_tree.hpp"

namespace parley::engine {
namespace {

TEST(ProviderKeysHidden, AKeyVariableOfAnyNameIsKeptFromShellCommands) {
  ::setenv("PARLEY_DOS_LLM_ACCESS", "sk-live-secret", 1);  // no secret word in its name
  EXPECT_FALSE(tools::is_secret_variable("PARLEY_DOS_LLM_ACCESS"));
  config::testing::temp_tree tree;
  tree.write(".minds/llm.yaml",
             "providers:\n  local:\n    apiType: openai-compatible\n    baseUrl: http://127.0.0.1:9/v1\n"
             "    apiKeyEnvVar: PARLEY_DOS_LLM_ACCESS\n    models: [m]\n");
  tree.write(".minds/team.yaml", "member_defaults:\n  provider: local\n  model: m\nmembers:\n  dev: {}\n");
  auto team = config::load_dominds_workspace(tree.root());
  ASSERT_TRUE(team) << team.err().message;
  ASSERT_TRUE(build_providers(*team));
  EXPECT_TRUE(tools::is_secret_variable("PARLEY_DOS_LLM_ACCESS"));
  for (const auto& entry : tools::stripped_environment()) {
    EXPECT_FALSE(entry.starts_with("PARLEY_DOS_LLM_ACCESS=")) << entry;
  }
  ::unsetenv("PARLEY_DOS_LLM_ACCESS");
}

// Dominds' shell tools are shell_cmd, stop_daemon and get_daemon_output (its SHELL_TOOL_NAMES):
// a member shell_specialists does not list loses the three; the env tools run nothing and stay.
TEST(ProviderKeysHidden, ANonSpecialistLosesDomindsShellToolsButKeepsTheEnvTools) {
  config::member_config member;
  member.id = "dev";
  member.shell_specialist = false;
  const auto withheld = withheld_shell_tools(member, tools::dominds_toolset_tools("os"));
  EXPECT_EQ(withheld, (std::vector<std::string>{"shell_cmd", "stop_daemon", "get_daemon_output"}));
}

}  // namespace
}  // namespace parley::engine

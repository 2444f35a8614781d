// Dominds' toolset names resolve to Parley's tools of the same meaning; the names Parley has no
// tools for are refused with what is missing; `*` and `!name` work as Dominds resolves them.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "parley/tools/basic_tools.hpp"
#include "parley/tools/dominds_toolsets.hpp"
#include "parley/tools/memory_tools.hpp"
#include "parley/tools/shell_tools.hpp"
#include "parley/tools/workspace_tools.hpp"

namespace parley::tools {
namespace {

class dominds_toolsets_fixture : public ::testing::Test {
 protected:
  void SetUp() override {
    register_workspace_tools(registry_);
    register_basic_tools(registry_);
    register_shell_tools(registry_);
    register_memory_tools(registry_);
    register_dominds_toolsets(registry_);
  }
  std::vector<std::string> resolved(const std::vector<std::string>& names) const {
    auto tools = registry_.resolve_toolsets(names);
    EXPECT_TRUE(tools) << tools.err().message;
    return tools ? *tools : std::vector<std::string>{};
  }
  std::string refusal(const std::vector<std::string>& names) const {
    auto tools = registry_.resolve_toolsets(names);
    EXPECT_FALSE(tools);
    return tools ? std::string() : tools.err().message;
  }
  tool_registry registry_;
};
using DomindsToolsets = dominds_toolsets_fixture;

TEST_F(DomindsToolsets, EachMapsToParleyToolsOfTheSameMeaning) {
  EXPECT_EQ(resolved({"ws_read"}), (std::vector<std::string>{"list_dir", "read_file", "search_files"}));
  EXPECT_EQ(resolved({"ws_mod"}), *registry_.toolset("workspace"));
  EXPECT_EQ(resolved({"os"}), *registry_.toolset("shell"));
  EXPECT_EQ(resolved({"personal_memory"}), *registry_.toolset("memory"));
  EXPECT_EQ(resolved({"team_memory"}), (std::vector<std::string>{"add_team_memory", "replace_team_memory",
                                                                 "drop_team_memory", "clear_team_memory"}));
  EXPECT_EQ(resolved({"codex_inspect_and_patch_tools"}), (std::vector<std::string>{"readonly_shell", "apply_patch"}));
  EXPECT_EQ(resolved({"skills"}), (std::vector<std::string>{"read_skill"}));
}

TEST_F(DomindsToolsets, EveryMappedToolExists) {
  for (const char* name :
       {"ws_read", "ws_mod", "os", "personal_memory", "team_memory", "codex_inspect_and_patch_tools"}) {
    for (const auto& tool_name : *registry_.toolset(name)) {
      EXPECT_NE(registry_.find(tool_name), nullptr) << name << ": " << tool_name;
    }
  }
}

TEST_F(DomindsToolsets, ToolsOfSeveralSetsAreTakenOnceInOrder) {
  EXPECT_EQ(resolved({"ws_read", "ws_mod"}), *registry_.toolset("workspace"));
  EXPECT_EQ(resolved({"ws_read", "basic"}),
            (std::vector<std::string>{"list_dir", "read_file", "search_files", "calculate"}));
}

TEST_F(DomindsToolsets, TheWildcardIsEveryDomindsToolsetLessTheExcludedOnes) {
  const auto all = resolved({"*"});
  for (const char* tool_name :
       {"write_file", "shell_cmd", "add_memory", "add_team_memory", "readonly_shell", "read_skill"}) {
    EXPECT_NE(std::find(all.begin(), all.end(), tool_name), all.end()) << tool_name;
  }
  EXPECT_EQ(std::find(all.begin(), all.end(), "calculate"), all.end());  // Parley's own sets are not in it
  const auto without_os = resolved({"*", "!os", "!codex_inspect_and_patch_tools", "!team_mgmt"});
  EXPECT_EQ(std::find(without_os.begin(), without_os.end(), "shell_cmd"), without_os.end());
  EXPECT_EQ(std::find(without_os.begin(), without_os.end(), "readonly_shell"), without_os.end());
  EXPECT_NE(std::find(without_os.begin(), without_os.end(), "write_file"), without_os.end());
  EXPECT_EQ(resolved({"ws_read", "!ws_read"}), std::vector<std::string>{});
}

TEST_F(DomindsToolsets, ToolsetsWithoutAParleyEquivalentAreRefusedSayingWhatIsMissing) {
  std::string message = refusal({"ws_read", "team_mgmt"});
  EXPECT_EQ(
      message.rfind("toolset 'team_mgmt' (Dominds) has no equivalent in Parley: its tools read and edit .minds/", 0),
      0U)
      << message;
  EXPECT_NE(refusal({"fs_read"}).find("outside the workspace"), std::string::npos);
  EXPECT_NE(refusal({"mcp_admin"}).find("MCP"), std::string::npos);
  EXPECT_NE(refusal({"resources"}).find("MCP"), std::string::npos);
  EXPECT_NE(refusal({"control"}).find("every member"), std::string::npos);
}

TEST_F(DomindsToolsets, UnknownNamesAreRefusedWithTheClosest) {
  EXPECT_EQ(refusal({"ws_reed"}), "unknown toolset 'ws_reed' (did you mean 'ws_read'?)");
  EXPECT_EQ(refusal({"!wsmod"}).rfind("unknown toolset 'wsmod' after '!'", 0), 0U);
}

}  // namespace
}  // namespace parley::tools

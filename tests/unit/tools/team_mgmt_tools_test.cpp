// Dominds' team_mgmt tools beyond the file edits (issue 46, item 3): each callable under its Dominds
// name with Dominds' argument names on a temporary workspace, its answer in Dominds' shape; every
// change that would leave a team that does not load refused with the loader's position and the
// files untouched; the paths never leave `.minds/`.
#include <gtest/gtest.h>

#include "parley/config/team.hpp"
#include "parley/tools/dominds_tools.hpp"
#include "parley/tools/team_mgmt_tools.hpp"
#include "workspace_fixture.hpp"

namespace parley::tools::testing {
namespace {

bool has(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

constexpr std::string_view kMgmtLlm =
    "providers:\n  local:\n    apiType: openai-compatible\n"
    "    baseUrl: http://127.0.0.1:1/v1\n    apiKeyEnvVar: PARLEY_TEST_UNSET_KEY\n"
    "    models:\n      m: {context_length: 8192}\n      n: {}\n";
constexpr std::string_view kMgmtTeam = "member_defaults:\n  provider: local\n  model: m\nmembers:\n  alice: {}\n";

class TeamMgmtTools : public workspace_fixture {
 protected:
  void SetUp() override {
    workspace_fixture::SetUp();
    register_dominds_tools(registry_);
    ctx_.member_id = "admin";
    put(".minds/llm.yaml", std::string(kMgmtLlm));
    put(".minds/team.yaml", std::string(kMgmtTeam));
    put(".minds/team/alice/persona.md", "You are Alice.\n");
  }
};

TEST_F(TeamMgmtTools, EveryNamedToolIsOffered) {
  for (const auto& name : team_mgmt_tool_names()) {
    const tool* found = registry_.find(name);
    ASSERT_NE(found, nullptr) << name;
    EXPECT_FALSE(has(found->spec().description, "no Dominds spec")) << name;
  }
  EXPECT_EQ(team_mgmt_tool_names().size(), 34U);  // Dominds 1.29's team_mgmt toolset, none left out
}

TEST_F(TeamMgmtTools, MkDirMoveAndRemoveUnderMinds) {
  const auto made = call("team_mgmt_mk_dir", R"({"path":".minds/team/bob","parents":true})");
  ASSERT_TRUE(made.ok) << made.content;
  EXPECT_TRUE(has(made.content, "status: ok\nmode: mk_dir")) << made.content;
  EXPECT_TRUE(fs::is_directory(workspace_ / ".minds" / "team" / "bob"));
  put(".minds/notes.md", "n\n");
  const auto moved = call("team_mgmt_move_file", R"({"from":"notes.md","to":"team/bob/notes.md"})");
  ASSERT_TRUE(moved.ok) << moved.content;
  EXPECT_TRUE(has(moved.content, "mode: move_file")) << moved.content;
  EXPECT_EQ(contents(".minds/team/bob/notes.md"), "n\n");
  const auto removed = call("team_mgmt_rm_dir", R"({"path":"team/bob","recursive":true})");
  ASSERT_TRUE(removed.ok) << removed.content;
  EXPECT_FALSE(fs::exists(workspace_ / ".minds" / "team" / "bob"));
  const auto escaped = call("team_mgmt_rm_file", R"({"path":"../outside.txt"})");
  EXPECT_FALSE(escaped.ok);
  const auto bad = call("team_mgmt_rm_dir", R"({"path":"team","recursive":"yes"})");
  EXPECT_FALSE(bad.ok);
  EXPECT_TRUE(has(bad.content, "recursive")) << bad.content;
}

TEST_F(TeamMgmtTools, ARemovalOrMoveThatBreaksTheTeamIsRefusedAndChangesNothing) {
  const auto removed = call("team_mgmt_rm_file", R"({"path":"llm.yaml"})");
  EXPECT_FALSE(removed.ok);
  EXPECT_TRUE(has(removed.content, "error: TEAM_WOULD_NOT_LOAD")) << removed.content;
  EXPECT_TRUE(has(removed.content, "member ''alice'' could not run")) << removed.content;
  EXPECT_TRUE(has(removed.content, (workspace_ / ".minds" / "team.yaml").string() + ":")) << removed.content;
  EXPECT_EQ(contents(".minds/llm.yaml"), kMgmtLlm);
  const auto moved = call("team_mgmt_move_file", R"({"from":"team.yaml","to":"old-team.yaml"})");
  EXPECT_FALSE(moved.ok);
  EXPECT_EQ(contents(".minds/team.yaml"), kMgmtTeam);
  EXPECT_FALSE(fs::exists(workspace_ / ".minds" / "old-team.yaml"));
  put(".minds/team.yaml.bak", "members: [broken\n");  // not read by the loader: may go
  EXPECT_TRUE(call("team_mgmt_rm_file", R"({"path":"team.yaml.bak"})").ok);
  // memory/ is not part of the team: no check, and the member's memory files can be tidied.
  put(".minds/memory/team_shared/old.md", "x\n");
  EXPECT_TRUE(call("team_mgmt_rm_file", R"({"path":"memory/team_shared/old.md"})").ok);
}

TEST_F(TeamMgmtTools, RipgrepSearchesOnlyMinds) {
  put("src/secret.txt", "You are Alice.\n");
  const auto found = call("team_mgmt_ripgrep_files", R"({"pattern":"Alice"})");
  ASSERT_TRUE(found.ok) << found.content;
  EXPECT_TRUE(has(found.content, "team/alice/persona.md")) << found.content;
  EXPECT_FALSE(has(found.content, "secret")) << found.content;
  const auto snippets = call("team_mgmt_ripgrep_snippets", R"({"pattern":"provider","path":".minds"})");
  ASSERT_TRUE(snippets.ok) << snippets.content;
  EXPECT_TRUE(has(snippets.content, "team.yaml")) << snippets.content;
}

TEST_F(TeamMgmtTools, ProvidersAndModelsAreListedFromLlmYaml) {
  const auto providers = call("team_mgmt_list_providers", R"({"provider_pattern":"loc*"})");
  ASSERT_TRUE(providers.ok) << providers.content;
  EXPECT_TRUE(has(providers.content, "# LLM Providers\n")) << providers.content;
  EXPECT_TRUE(has(providers.content,
                  "- `local` (apiType: `openai-compatible`) — apiKeyEnvVar: PARLEY_TEST_UNSET_KEY (NOT set) — "
                  "models(2): m, n\n"))
      << providers.content;
  const auto models = call("team_mgmt_list_models", R"({"source":"rtws","model_pattern":"m"})");
  ASSERT_TRUE(models.ok) << models.content;
  EXPECT_TRUE(has(models.content, "## `local` (apiType: `openai-compatible`)\n- `m` — context_length: 8192\n"))
      << models.content;
  EXPECT_FALSE(has(models.content, "`n`")) << models.content;
  const auto wrong = call("team_mgmt_list_models", R"({"source":"elsewhere"})");
  EXPECT_FALSE(wrong.ok);
  EXPECT_TRUE(has(wrong.content, "source")) << wrong.content;
}

TEST_F(TeamMgmtTools, McpConfigAndProblemsAreReported) {
  const auto none = call("team_mgmt_validate_mcp_cfg", "{}");
  ASSERT_TRUE(none.ok) << none.content;
  EXPECT_TRUE(has(none.content, "✅ not found (treated as empty config)")) << none.content;
  put(".minds/mcp.yaml",
      "version: 1\nservers:\n  files:\n    transport: stdio\n    command: node\n    args: [server.js]\n");
  const auto good = call("team_mgmt_validate_mcp_cfg", "{}");
  EXPECT_TRUE(has(good.content, "# mcp.yaml Validation Passed")) << good.content;
  const auto clean = call("team_mgmt_list_problems", "{}");
  ASSERT_TRUE(clean.ok) << clean.content;
  EXPECT_TRUE(has(clean.content, "# Problems Query\n- 0 problem(s) matched")) << clean.content;
  put(".minds/team.yaml", "member_defaults:\n  provider: local\n  model: m\nmembers:\n  alice:\n    import: helper\n");
  auto team = config::load_dominds_workspace(workspace_);
  ASSERT_TRUE(team) << team.err().message;
  const auto listed = call("team_mgmt_list_problems", R"({"source":"team"})");
  ASSERT_TRUE(listed.ok) << listed.content;
  EXPECT_TRUE(has(listed.content, "## Active Problems\n- [")) << listed.content;
  EXPECT_TRUE(has(listed.content, "] team/members.alice.import: 'import' is a cross-app member reference"))
      << listed.content;
  EXPECT_TRUE(has(listed.content, "  file: " + (workspace_ / ".minds" / "team.yaml").string())) << listed.content;
  const auto other = call("team_mgmt_list_problems", R"({"source":"mcp"})");
  EXPECT_TRUE(has(other.content, "No matching problems.")) << other.content;
}

}  // namespace
}  // namespace parley::tools::testing

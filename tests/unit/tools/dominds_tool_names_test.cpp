// Dominds' tool names for a `.minds/` team (issue 46, item 3): each tool callable under its Dominds
// name with Dominds' argument names on a temporary workspace, its answer in Dominds' shape, a bad
// argument named; the access rules bind them as they bind Parley's tools; team_mgmt edits `.minds/`
// only when the team still loads.
#include <gtest/gtest.h>

#include <algorithm>

#include "access_globs.hpp"
#include "parley/config/team.hpp"
#include "parley/tools/dominds_tools.hpp"
#include "parley/tools/dominds_toolsets.hpp"
#include "parley/tools/memory_tools.hpp"
#include "parley/tools/shell_tools.hpp"
#include "parley/tools/team_mgmt_tools.hpp"
#include "workspace_fixture.hpp"

namespace parley::tools::testing {
namespace {

bool contains(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

class DomindsToolNames : public workspace_fixture {
 protected:
  void SetUp() override {
    workspace_fixture::SetUp();
    register_shell_tools(registry_);
    register_memory_tools(registry_);
    register_dominds_tools(registry_);
    register_dominds_toolsets(registry_, tool_naming::dominds);
    ctx_.member_id = "dev";
  }
};

TEST_F(DomindsToolNames, EveryToolOfEachToolsetIsRegisteredWithDomindsSpec) {
  for (const char* set :
       {"ws_read", "ws_mod", "os", "personal_memory", "team_memory", "codex_inspect_and_patch_tools", "team_mgmt"}) {
    const auto* names = registry_.toolset(set);
    ASSERT_NE(names, nullptr) << set;
    EXPECT_FALSE(names->empty()) << set;
    for (const auto& name : *names) {
      // ws_mod's scratch pads are the engine's dialog tools (engine/dominds_pads.hpp): a spec, no tool here.
      if (name.starts_with("pad_")) {
        EXPECT_TRUE(dominds_tool_spec(name)) << name;
        continue;
      }
      const tool* found = registry_.find(name);
      ASSERT_NE(found, nullptr) << set << ": " << name;
      EXPECT_FALSE(contains(found->spec().description, "no Dominds spec")) << name;
    }
  }
  const auto* ws_read = registry_.toolset("ws_read");
  EXPECT_NE(std::find(ws_read->begin(), ws_read->end(), "ripgrep_snippets"), ws_read->end());
  EXPECT_TRUE(registry_.find("read_file")->spec().parameters.at("properties").as_object().contains("range"));
  EXPECT_TRUE(registry_.find("shell_cmd")->spec().parameters.at("properties").as_object().contains("timeoutSeconds"));
}

// The tools Parley once left out of Dominds' toolsets are all offered now.
TEST_F(DomindsToolNames, ToolsOnceLeftOutAreOffered) {
  // Offered (dominds_edit_tools_test.cpp, dominds_link_picture_search_test.cpp,
  // dominds_os_tools_test.cpp; the pad_* tools are the engine's dialog tools: dominds_pads_test.cpp).
  for (const char* offered : {"file_block_replace",
                              "prepare_occurrence_replace",
                              "apply_occurrence_replace",
                              "ripgrep_search",
                              "read_symlink",
                              "create_symlink",
                              "write_picture",
                              "team_mgmt_file_block_replace",
                              "team_mgmt_prepare_occurrence_replace",
                              "team_mgmt_apply_occurrence_replace",
                              "team_mgmt_ripgrep_search",
                              "team_mgmt_read_symlink",
                              "team_mgmt_create_symlink",
                              "team_mgmt_rm_symlink",
                              "env_get",
                              "env_set",
                              "env_unset",
                              "stop_daemon",
                              "get_daemon_output",
                              "team_mgmt_check_provider"}) {
    EXPECT_NE(registry_.find(offered), nullptr) << offered;
  }
}

TEST(DomindsToolNamesParley, ParleysFormatKeepsParleysNames) {
  tool_registry registry;
  register_workspace_tools(registry);
  register_shell_tools(registry);
  register_memory_tools(registry);
  register_dominds_toolsets(registry);
  EXPECT_EQ(registry.find("ripgrep_snippets"), nullptr);
  EXPECT_EQ(registry.find("overwrite_entire_file"), nullptr);
  EXPECT_EQ(*registry.toolset("ws_read"), (std::vector<std::string>{"list_dir", "read_file", "search_files"}));
  EXPECT_TRUE(registry.find("read_file")->spec().parameters.at("properties").as_object().contains("start_line"));
}

TEST_F(DomindsToolNames, ReadFileShowsARangeWithLineNumbers) {
  put("src/a.txt", "one\ntwo\nthree\n");
  const auto out = call("read_file", R"({"path":"src/a.txt","range":"2~3"})");
  ASSERT_TRUE(out.ok) << out.content;
  EXPECT_TRUE(contains(out.content, "```yaml\nstatus: ok\nmode: read_file\npath: 'src/a.txt'\n")) << out.content;
  EXPECT_TRUE(contains(out.content, "total_lines: 3\nshown_lines: 2\n")) << out.content;
  EXPECT_TRUE(contains(out.content, "   2| two\n   3| three\n")) << out.content;
  EXPECT_FALSE(contains(out.content, "| one")) << out.content;
  const auto plain = call("read_file", R"({"path":"src/a.txt","show_linenos":false,"max_lines":1})");
  EXPECT_TRUE(contains(plain.content, "```\none\n```")) << plain.content;
  EXPECT_TRUE(contains(plain.content, "truncated_by_max_lines: true")) << plain.content;
  const auto bad = call("read_file", R"({"path":"src/a.txt","range":"3~x"})");
  EXPECT_FALSE(bad.ok);
  EXPECT_TRUE(contains(bad.content, "range: invalid end ''x''")) << bad.content;
  const auto folder = call("read_file", R"({"path":"src"})");
  EXPECT_TRUE(contains(folder.content, "error: NOT_A_FILE")) << folder.content;
  const auto wrong_type = call("read_file", R"({"path":"src/a.txt","max_lines":"ten"})");
  EXPECT_FALSE(wrong_type.ok);
  EXPECT_TRUE(contains(wrong_type.content, "max_lines")) << wrong_type.content;
}

TEST_F(DomindsToolNames, ReadPictureGivesAnImageToAModelThatSeesOne) {
  put("shot.png", std::string("\x89PNG\r\n\x1a\n", 8) + std::string("\0\0\0\rIHDR tiny", 14));
  put("notes.txt", "text\n");
  const auto refused = call("read_picture", R"({"path":"shot.png"})");
  EXPECT_FALSE(refused.ok);
  EXPECT_TRUE(contains(refused.content, "does not take images")) << refused.content;
  ctx_.takes_images = true;
  const auto seen = call("read_picture", R"({"path":"shot.png"})");
  ASSERT_TRUE(seen.ok) << seen.content;
  ASSERT_EQ(seen.media.size(), 1U);
  EXPECT_EQ(seen.media[0].mime, "image/png");
  const auto text = call("read_picture", R"({"path":"notes.txt"})");
  EXPECT_TRUE(contains(text.content, "error: UNSUPPORTED_FORMAT")) << text.content;
}

TEST_F(DomindsToolNames, ManListsToolsetsAndTheirTools) {
  const auto all = call("man", "{}");
  ASSERT_TRUE(all.ok) << all.content;
  EXPECT_TRUE(contains(all.content, "- `ws_read`")) << all.content;
  const auto ws_read = call("man", R"({"toolsetId":"ws_read","topic":"tools"})");
  ASSERT_TRUE(ws_read.ok) << ws_read.content;
  EXPECT_TRUE(contains(ws_read.content, "- `ripgrep_snippets`: Search snippets with line/col")) << ws_read.content;
  const auto unknown = call("man", R"({"toolsetId":"nope"})");
  EXPECT_FALSE(unknown.ok);
  EXPECT_TRUE(contains(unknown.content, "toolsetId: no manual for 'nope'")) << unknown.content;
}

TEST_F(DomindsToolNames, ListDirIsATable) {
  put("src/a.txt", "12345");
  put("src/sub/b.txt", "x");
  const auto out = call("list_dir", R"({"path":"src"})");
  ASSERT_TRUE(out.ok) << out.content;
  EXPECT_TRUE(contains(out.content, "📁 **Directory:** `src`")) << out.content;
  EXPECT_TRUE(contains(out.content, "| Name | Type | Size | Lines | Target |")) << out.content;
  EXPECT_TRUE(contains(out.content, "| 📄 `a.txt` | file | 5 |")) << out.content;
  EXPECT_TRUE(contains(out.content, "| 📁 `sub` | dir | - |")) << out.content;
}

TEST_F(DomindsToolNames, CreateNewFileNeverOverwrites) {
  const auto out = call("create_new_file", R"({"path":"notes/n.md","content":"hello"})");
  ASSERT_TRUE(out.ok) << out.content;
  EXPECT_TRUE(
      contains(out.content, "mode: create_new_file\npath: 'notes/n.md'\nnew_total_lines: 1\nnew_total_bytes: 6"))
      << out.content;
  EXPECT_EQ(contents("notes/n.md"), "hello\n");
  const auto again = call("create_new_file", R"({"path":"notes/n.md","content":"other"})");
  EXPECT_FALSE(again.ok);
  EXPECT_TRUE(contains(again.content, "error: FILE_EXISTS")) << again.content;
  EXPECT_EQ(contents("notes/n.md"), "hello\n");
}

TEST_F(DomindsToolNames, OverwriteEntireFileIsGuardedByTheKnownTotals) {
  put("a.txt", "one\ntwo\n");
  const auto stale = call("overwrite_entire_file",
                          R"({"path":"a.txt","known_old_total_lines":3,"known_old_total_bytes":8,"content":"x"})");
  EXPECT_FALSE(stale.ok);
  EXPECT_TRUE(contains(stale.content, "error: STATS_MISMATCH\nactual_old_total_lines: 2\nactual_old_total_bytes: 8"))
      << stale.content;
  EXPECT_EQ(contents("a.txt"), "one\ntwo\n");
  const auto patch = call(
      "overwrite_entire_file",
      R"({"path":"a.txt","known_old_total_lines":2,"known_old_total_bytes":8,"content":"--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+uno\n"})");
  EXPECT_TRUE(contains(patch.content, "error: SUSPICIOUS_DIFF")) << patch.content;
  EXPECT_EQ(contents("a.txt"), "one\ntwo\n");
  const auto done = call("overwrite_entire_file",
                         R"({"path":"a.txt","known_old_total_lines":2,"known_old_total_bytes":8,"content":"new"})");
  ASSERT_TRUE(done.ok) << done.content;
  EXPECT_EQ(contents("a.txt"), "new\n");
  const auto missing = call("overwrite_entire_file",
                            R"({"path":"nope.txt","known_old_total_lines":0,"known_old_total_bytes":0,"content":"x"})");
  EXPECT_TRUE(contains(missing.content, "error: FILE_NOT_FOUND")) << missing.content;
}

TEST_F(DomindsToolNames, LineEditsByRangeAnchorAndAppend) {
  put("a.txt", "alpha\nbeta\ngamma\n");
  ASSERT_TRUE(call("file_range_edit", R"({"path":"a.txt","range":"2~2","content":"BETA"})").ok);
  EXPECT_EQ(contents("a.txt"), "alpha\nBETA\ngamma\n");
  ASSERT_TRUE(call("file_insert_after", R"({"path":"a.txt","anchor":"alpha","content":"after-alpha"})").ok);
  ASSERT_TRUE(call("file_insert_before", R"({"path":"a.txt","anchor":"gamma","match":"equals","content":"pre"})").ok);
  const auto appended = call("file_append", R"({"path":"a.txt","content":"end"})");
  ASSERT_TRUE(appended.ok) << appended.content;
  EXPECT_TRUE(contains(appended.content, "mode: file_append")) << appended.content;
  EXPECT_EQ(contents("a.txt"), "alpha\nafter-alpha\nBETA\npre\ngamma\nend\n");
  const auto deleted = call("file_range_edit", R"({"path":"a.txt","range":"2~4","content":""})");
  ASSERT_TRUE(deleted.ok) << deleted.content;
  EXPECT_EQ(contents("a.txt"), "alpha\ngamma\nend\n");
  const auto missing_anchor = call("file_insert_after", R"({"path":"a.txt","anchor":"zeta","content":"x"})");
  EXPECT_FALSE(missing_anchor.ok);
  EXPECT_TRUE(contains(missing_anchor.content, "anchor: no line contains ''zeta''")) << missing_anchor.content;
  const auto bad_range = call("file_range_edit", R"({"path":"a.txt","range":"9~12","content":"x"})");
  EXPECT_TRUE(contains(bad_range.content, "range: ''9~12'' is outside")) << bad_range.content;
  EXPECT_EQ(contents("a.txt"), "alpha\ngamma\nend\n");
}

TEST_F(DomindsToolNames, FileSystemToolsRemoveOnlyWhatTheyName) {
  put("d/a.txt", "x");
  ASSERT_TRUE(call("mk_dir", R"({"path":"e/f","parents":true})").ok);
  EXPECT_TRUE(fs::is_directory(workspace_ / "e" / "f"));
  const auto wrong = call("rm_file", R"({"path":"d"})");
  EXPECT_FALSE(wrong.ok);
  EXPECT_TRUE(contains(wrong.content, "error: WRONG_TYPE")) << wrong.content;
  const auto moved = call("move_file", R"({"from":"d/a.txt","to":"e/b.txt"})");
  ASSERT_TRUE(moved.ok) << moved.content;
  EXPECT_TRUE(contains(moved.content, "mode: move_file\nfrom: 'd/a.txt'")) << moved.content;
  EXPECT_EQ(contents("e/b.txt"), "x");
  ASSERT_TRUE(call("rm_file", R"({"path":"e/b.txt"})").ok);
  ASSERT_TRUE(call("rm_dir", R"({"path":"e","recursive":true})").ok);
  EXPECT_FALSE(fs::exists(workspace_ / "e"));
}

TEST_F(DomindsToolNames, RipgrepToolsAnswerDomindsYaml) {
  put("src/a.cpp", "int x;\nint needle = 1;\nint y;\n");
  put("src/b.cpp", "needle();\nneedle();\n");
  const auto snippets =
      call("ripgrep_snippets", R"({"pattern":"needle","path":"src","globs":["a.cpp"],"context_before":1})");
  ASSERT_TRUE(snippets.ok) << snippets.content;
  EXPECT_TRUE(contains(snippets.content, "mode: snippets")) << snippets.content;
  EXPECT_TRUE(contains(snippets.content,
                       "  - path: 'src/a.cpp'\n    line: 2\n    match: 'int needle = 1;'\n    before: ['int x;']"))
      << snippets.content;
  EXPECT_TRUE(contains(snippets.content, "  files_matched: 1\n  matches: 1")) << snippets.content;
  const auto count = call("ripgrep_count", R"({"pattern":"needle","path":"src"})");
  EXPECT_TRUE(contains(count.content, "  - path: 'src/b.cpp'\n    count: 2")) << count.content;
  const auto files = call("ripgrep_fixed", R"j({"literal":"needle()","mode":"files"})j");
  EXPECT_TRUE(contains(files.content, "mode: files")) << files.content;
  EXPECT_TRUE(contains(files.content, "  - path: 'src/b.cpp'")) << files.content;
  EXPECT_FALSE(contains(files.content, "a.cpp")) << files.content;
  const auto bad = call("ripgrep_files", R"({"pattern":"x","case":"upper"})");
  EXPECT_FALSE(bad.ok);
  EXPECT_TRUE(contains(bad.content, "case: must be one of")) << bad.content;
}

TEST_F(DomindsToolNames, ShellToolsAnswerAsDominds) {
  put("a.txt", "hello\n");
  const auto out = call("shell_cmd", R"({"command":"cat a.txt","timeoutSeconds":5})");
  ASSERT_TRUE(out.ok) << out.content;
  EXPECT_EQ(out.content, "✅ Command completed (exit code: 0)\n\n📤 stdout:\n```console\nhello\n```");
  const auto failed = call("shell_cmd", R"({"command":"exit 3"})");
  EXPECT_FALSE(failed.ok);
  EXPECT_TRUE(contains(failed.content, "exit code: 3")) << failed.content;
  const auto other_shell = call("shell_cmd", R"({"command":"dir","shell":"pwsh"})");
  EXPECT_FALSE(other_shell.ok);
  EXPECT_TRUE(contains(other_shell.content, "shell: Parley runs commands with /bin/sh")) << other_shell.content;
  const auto read = call("readonly_shell", R"({"command":"wc -l a.txt","timeout_ms":2500})");
  ASSERT_TRUE(read.ok) << read.content;
  EXPECT_TRUE(contains(read.content, "1 a.txt")) << read.content;
  const auto refused = call("readonly_shell", R"({"command":"rm a.txt"})");
  EXPECT_FALSE(refused.ok);
  EXPECT_TRUE(contains(refused.content, "refused")) << refused.content;
  EXPECT_EQ(contents("a.txt"), "hello\n");
}

TEST_F(DomindsToolNames, MemoryToolsUseTheMemberStore) {
  const auto added = call("add_personal_memory", R"({"path":"build","content":"make -j2"})");
  ASSERT_TRUE(added.ok) << added.content;
  EXPECT_EQ(added.content, "Added");
  EXPECT_EQ(contents(".minds/memory/individual/dev/build.md"), "make -j2");
  EXPECT_EQ(call("replace_personal_memory", R"({"path":"build","content":"ninja"})").content, "Updated");
  EXPECT_EQ(call("add_team_memory", R"({"path":"style","content":"snake_case"})").content, "Added");
  EXPECT_EQ(contents(".minds/memory/team_shared/style.md"), "snake_case");
  EXPECT_EQ(call("drop_team_memory", R"({"path":"style"})").content, "Deleted");
  const auto again = call("add_personal_memory", R"({"path":"build","content":"x"})");
  EXPECT_FALSE(again.ok);
  EXPECT_TRUE(contains(again.content, "already")) << again.content;
  EXPECT_EQ(call("clear_personal_memory", "{}").content, "Cleared");
}

TEST_F(DomindsToolNames, AccessRulesBindTheDomindsTools) {
  access::access_rules rules;
  rules.read.deny_dirs = globs({"secrets"});
  rules.write.deny_dirs = globs({"src"});
  ctx_.access = &rules;
  put("secrets/key.txt", "k\n");
  put("src/a.c", "int a;\n");
  const auto read = call("read_file", R"({"path":"secrets/key.txt"})");
  EXPECT_FALSE(read.ok);
  EXPECT_TRUE(contains(read.content, "error: ACCESS_DENIED")) << read.content;
  EXPECT_FALSE(contains(read.content, "k\n```")) << read.content;
  const auto found = call("ripgrep_snippets", R"({"pattern":"k"})");
  EXPECT_FALSE(contains(found.content, "secrets/key.txt")) << found.content;
  const auto write = call("overwrite_entire_file",
                          R"({"path":"src/a.c","known_old_total_lines":1,"known_old_total_bytes":7,"content":"pwn"})");
  EXPECT_FALSE(write.ok);
  EXPECT_TRUE(contains(write.content, "error: ACCESS_DENIED")) << write.content;
  EXPECT_EQ(contents("src/a.c"), "int a;\n");
  EXPECT_FALSE(call("create_new_file", R"({"path":"src/pwn.c","content":"x"})").ok);
  EXPECT_FALSE(fs::exists(workspace_ / "src" / "pwn.c"));
}

TEST_F(DomindsToolNames, WorkspaceToolsNeverWriteUnderMinds) {
  put(".minds/team.yaml", "members: {}\n");
  EXPECT_FALSE(call("overwrite_entire_file",
                    R"({"path":".minds/team.yaml","known_old_total_lines":1,"known_old_total_bytes":12,"content":"x"})")
                   .ok);
  EXPECT_FALSE(call("create_new_file", R"({"path":".minds/llm.yaml","content":"x"})").ok);
  EXPECT_EQ(contents(".minds/team.yaml"), "members: {}\n");
  EXPECT_FALSE(fs::exists(workspace_ / ".minds" / "llm.yaml"));
}

constexpr std::string_view kTeamMgmtLlm =
    "providers:\n  local:\n    apiType: openai-compatible\n"
    "    baseUrl: http://127.0.0.1:1/v1\n    apiKeyEnvVar: LOCAL_KEY\n"
    "    models:\n      m: {}\n";
constexpr std::string_view kTeamMgmtTeam = "member_defaults:\n  provider: local\n  model: m\nmembers:\n  alice: {}\n";

TEST_F(DomindsToolNames, TeamMgmtRefusesAnEditThatBreaksTheTeam) {
  put(".minds/llm.yaml", std::string(kTeamMgmtLlm));
  put(".minds/team.yaml", std::string(kTeamMgmtTeam));
  const auto read = call("team_mgmt_read_file", R"({"path":"team.yaml"})");
  ASSERT_TRUE(read.ok) << read.content;
  EXPECT_TRUE(contains(read.content, "mode: team_mgmt_read_file")) << read.content;
  const auto broken = call("team_mgmt_overwrite_entire_file",
                           R"({"path":".minds/team.yaml","known_old_total_lines":5,"known_old_total_bytes":67,)"
                           R"("content":"members: [alice\n"})");
  EXPECT_FALSE(broken.ok);
  EXPECT_TRUE(contains(broken.content, "the team would not load")) << broken.content;
  EXPECT_TRUE(contains(broken.content, (workspace_ / ".minds" / "team.yaml").string() + ":")) << broken.content;
  EXPECT_EQ(contents(".minds/team.yaml"), kTeamMgmtTeam);
  const auto outside = call("team_mgmt_create_new_file", R"({"path":"../escape.txt","content":"x"})");
  EXPECT_FALSE(outside.ok);
  EXPECT_FALSE(fs::exists(workspace_ / "escape.txt"));
}

TEST_F(DomindsToolNames, TeamMgmtEditIsWhatTheNextLoadSees) {
  put(".minds/llm.yaml", std::string(kTeamMgmtLlm));
  put(".minds/team.yaml", std::string(kTeamMgmtTeam));
  const auto added = call("team_mgmt_file_append", R"({"path":"team.yaml","content":"  bob: {}"})");
  ASSERT_TRUE(added.ok) << added.content;
  auto team = config::load_dominds_workspace(workspace_);
  ASSERT_TRUE(team) << team.err().message;
  EXPECT_NE(team->find_member("bob"), nullptr);
  const auto validated = call("team_mgmt_validate_team_cfg", "{}");
  EXPECT_TRUE(contains(validated.content, "✅ no issues detected")) << validated.content;
  const auto listed = call("team_mgmt_list_dir", "{}");
  EXPECT_TRUE(contains(listed.content, "| `team.yaml` | file |")) << listed.content;
}

}  // namespace
}  // namespace parley::tools::testing

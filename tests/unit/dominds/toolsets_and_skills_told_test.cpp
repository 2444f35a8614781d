// Issue 26 items 1, 2 and 5 from the model's side: what a member of a Dominds workspace is told —
// the tools its Dominds toolsets stand for, less the shell tools Dominds' shell_specialists rule
// withholds, the skills index in its system prompt — and what read_skill and a withheld shell_cmd
// answer in a dialog driven by the scripted model.
#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "parley/config/team.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/engine/engine.hpp"
#include "parley/engine/member_toolsets.hpp"
#include "parley/store/store.hpp"
#include "parley/tools/shell_command.hpp"
#include "parley/tools/shell_tools.hpp"
#include "unit/config/temp_tree.hpp"

namespace parley::engine {
namespace {

namespace asio = boost::asio;

constexpr std::string_view kLlmYaml = "providers:\n  local:\n    apiType: openai-compatible\n    models: [m]\n";

class dominds_told_fixture : public ::testing::Test {
 protected:
  void SetUp() override {
    ::setenv("LANG", "C.UTF-8", 1);
    tree_.write(".minds/llm.yaml", kLlmYaml);
  }

  config::team_config load() {
    auto team = config::load_dominds_workspace(tree_.root());
    EXPECT_TRUE(team) << team.err().message;
    return team ? std::move(team).value() : config::team_config{};
  }

  // The scripted model behind the workspace's provider, with `script` (the scripted format).
  void script_provider(config::team_config& team, std::string_view script) {
    tree_.write("script.yaml", script);
    for (auto& provider : team.providers) {
      if (provider.id != "local") continue;
      provider = config::provider_config{};
      provider.id = "local";
      provider.kind = config::provider_kind::scripted;
      provider.script = tree_.root() / "script.yaml";
    }
  }

  // What `member` is sent for the first model call of a root dialog.
  llm::model_request told(config::team_config team, const std::string& member) {
    script_provider(team, "members:\n  \"*\":\n    - emit: [{saying: ok}]\n");
    asio::io_context io;
    auto log = make_memory_store();
    auto providers = build_providers(team);
    EXPECT_TRUE(providers) << providers.err().message;
    auto eng = engine::create(io.get_executor(), *log, team, std::move(*providers), build_builtin_tools());
    EXPECT_TRUE(eng) << eng.err().message;
    if (!eng) return {};
    events::dialog_created created;
    created.member_id = member;
    created.kind = events::dialog_kind::root;
    std::vector<event> events{{"root", "root", 1, std::move(created), 0}};
    auto dialog = dialog_runtime::replay(events);
    EXPECT_TRUE(dialog) << dialog.err().message;
    auto request = (*eng)->members().model_request_for(**dialog);
    EXPECT_TRUE(request) << request.err().message;
    return request ? std::move(request).value() : llm::model_request{};
  }

  // Runs a root dialog of `member` on `team` (its provider scripted already) to its end: the
  // contents of its tool messages, in order.
  static std::vector<std::string> tool_results(const config::team_config& team, const std::string& member,
                                               const std::string& first_message) {
    asio::io_context io;
    auto log = make_memory_store();
    auto providers = build_providers(team);
    EXPECT_TRUE(providers) << providers.err().message;
    if (!providers) return {};
    auto eng = engine::create(io.get_executor(), *log, team, std::move(*providers), build_builtin_tools());
    EXPECT_TRUE(eng) << eng.err().message;
    if (!eng) return {};
    std::string id;
    asio::co_spawn(
        io,
        [&]() -> asio::awaitable<void> {
          new_dialog spec{member, "", ""};
          spec.first_message = first_message;
          id = (co_await (*eng)->create_root_dialog(std::move(spec))).value();
          co_await (*eng)->runs().wait_until_idle(id);
        },
        asio::detached);
    io.run();
    std::vector<std::string> results;
    for (const auto& msg : log->messages(id, 1).value()) {
      if (msg.role == parley::events::message_role::tool) results.push_back(msg.content);
    }
    return results;
  }

  static std::vector<std::string> tool_names(const llm::model_request& request) {
    std::vector<std::string> names;
    if (request.tools) {
      for (const auto& tool : *request.tools) names.push_back(tool.name);
    }
    return names;
  }
  static bool has(const std::vector<std::string>& names, std::string_view name) {
    return std::find(names.begin(), names.end(), name) != names.end();
  }

  config::testing::temp_tree tree_;
};
using DomindsTold = dominds_told_fixture;

TEST_F(DomindsTold, AMemberWithWsReadAndWsModIsToldParleysFileToolsWithTheirSchemas) {
  tree_.write(".minds/team.yaml",
              "member_defaults: {provider: local}\nmembers:\n  dev:\n    toolsets: [ws_read, ws_mod]\n");
  const auto request = told(load(), "dev");
  const auto names = tool_names(request);
  const std::vector<std::string> files{"list_dir",  "read_file",     "search_files",     "write_file",
                                       "edit_file", "replace_lines", "insert_at_anchor", "apply_patch",
                                       "move_path", "remove_path",   "make_dir"};
  ASSERT_GE(names.size(), files.size());
  EXPECT_EQ(std::vector<std::string>(names.begin(), names.begin() + static_cast<std::ptrdiff_t>(files.size())), files);
  EXPECT_FALSE(has(names, "shell_cmd"));
  EXPECT_FALSE(has(names, "read_skill"));  // no skills in this workspace
  for (const auto& tool : *request.tools) {
    if (tool.name != "read_file") continue;
    const auto& properties = tool.parameters.at("properties").as_object();
    EXPECT_TRUE(properties.contains("path"));
    EXPECT_TRUE(properties.contains("start_line"));
  }
}

TEST_F(DomindsTold, TheTemplatesOsAndMemoryToolsetsGiveShellAndMemoryTools) {
  tree_.write(".minds/team.yaml",
              "member_defaults:\n  provider: local\n  toolsets: [ws_read, personal_memory]\nshell_specialists: dev\n"
              "members:\n  dev:\n    toolsets: [ws_mod, os]\n  reader: {}\n");
  const auto team = load();
  const auto dev = tool_names(told(team, "dev"));
  EXPECT_TRUE(has(dev, "write_file"));
  EXPECT_TRUE(has(dev, "shell_cmd"));
  EXPECT_TRUE(has(dev, "start_process"));
  EXPECT_FALSE(has(dev, "add_memory"));  // a member's own toolsets replace member_defaults', as in Dominds
  const auto reader = tool_names(told(team, "reader"));
  EXPECT_TRUE(has(reader, "read_file"));
  EXPECT_TRUE(has(reader, "add_memory"));
  EXPECT_FALSE(has(reader, "write_file"));
}

// Dominds' rule: without shell_specialists no visible member keeps shell tools. The template's
// dev asks for `os`; it is told its file tools and none of the shell tools, and the CLI says so
// once, at the key that asked for them.
TEST_F(DomindsTold, WithoutShellSpecialistsTheTemplatesDevIsToldNoShellTools) {
  tree_.write(".minds/team.yaml",
              "member_defaults:\n  provider: local\n  toolsets: [ws_read, personal_memory]\nmembers:\n  dev:\n"
              "    toolsets: [ws_mod, os, codex_inspect_and_patch_tools]\n");
  const auto team = load();
  const auto dev = tool_names(told(team, "dev"));
  EXPECT_TRUE(has(dev, "write_file"));
  for (const auto& shell : tools::shell_tool_names()) EXPECT_FALSE(has(dev, shell)) << shell;
  EXPECT_TRUE(has(dev, "readonly_shell"));  // as in Dominds, inspection is not a shell specialist's
  const auto notices = shell_tool_notices(team, build_builtin_tools());
  ASSERT_EQ(notices.size(), 1U);
  EXPECT_EQ(notices[0], (tree_.root() / ".minds/team.yaml").string() +
                            ":6:5: members.dev.toolsets: shell tools withheld from 'dev' (shell_cmd, start_process, "
                            "list_processes, read_process, stop_process): shell_specialists lists no member, and as "
                            "in Dominds only those members keep shell tools; add 'dev' to shell_specialists or remove "
                            "the shell tools from it");
}

// The listed specialist keeps its shell tools, a hidden member is exempt as in Dominds, and a
// non-specialist loses them whether `os`, `*` or `tools:` asked for them.
TEST_F(DomindsTold, OnlyShellSpecialistsAndHiddenMembersAreToldShellTools) {
  tree_.write(".minds/team.yaml",
              "member_defaults:\n  provider: local\n  toolsets: [ws_read, os]\nshell_specialists: [cmdr]\n"
              "members:\n  cmdr: {}\n  dev: {}\n  ops: {hidden: true}\n  all:\n    toolsets: ['*']\n"
              "  named:\n    toolsets: [ws_read]\n    tools: [shell_cmd]\n");
  const auto team = load();
  EXPECT_EQ(team.shell_specialists, std::vector<std::string>{"cmdr"});
  EXPECT_TRUE(has(tool_names(told(team, "cmdr")), "shell_cmd"));
  EXPECT_TRUE(has(tool_names(told(team, "ops")), "shell_cmd"));
  for (const char* member : {"dev", "all", "named"}) {
    const auto names = tool_names(told(team, member));
    EXPECT_TRUE(has(names, "read_file")) << member;
    for (const auto& shell : tools::shell_tool_names()) EXPECT_FALSE(has(names, shell)) << member << " " << shell;
  }
  const auto notices = shell_tool_notices(team, build_builtin_tools());
  ASSERT_EQ(notices.size(), 3U);
  const std::string file = (tree_.root() / ".minds/team.yaml").string();
  EXPECT_EQ(notices[0].rfind(file + ":3:3: member_defaults.toolsets: shell tools withheld from 'dev' (", 0), 0U)
      << notices[0];
  EXPECT_EQ(notices[1].rfind(file + ":10:5: members.all.toolsets: shell tools withheld from 'all' (", 0), 0U)
      << notices[1];
  EXPECT_EQ(notices[2].rfind(file + ":13:5: members.named.tools: shell tools withheld from 'named' (shell_cmd): "
                                    "shell_specialists lists cmdr",
                             0),
            0U)
      << notices[2];
}

// A non-specialist that calls shell_cmd anyway (a model guessing a tool it was not told of) is
// refused before anything runs, and told whom to ask.
TEST_F(DomindsTold, AShellCallByANonSpecialistIsRefusedAndNothingRuns) {
  tree_.write(".minds/team.yaml",
              "member_defaults:\n  provider: local\n  toolsets: [ws_mod, os]\nshell_specialists: cmdr\n"
              "members:\n  dev: {}\n  cmdr: {}\n");
  auto team = load();
  script_provider(team, R"(members:
  dev:
    - when: {round: 1}
      emit:
        - tool_call: {name: shell_cmd, arguments: {command: "touch ran.txt"}}
    - emit: [{saying: "Asked."}]
  cmdr:
    - emit: [{saying: "ok"}]
)");
  const auto results = tool_results(team, "dev", "Touch it.");
  ASSERT_EQ(results.size(), 1U);
  EXPECT_EQ(results[0],
            "refused: 'shell_cmd' is a shell tool, and only the members listed in shell_specialists "
            "(.minds/team.yaml) may use it; ask a shell specialist (cmdr) to run it with tellask, saying the command "
            "and why");
  EXPECT_FALSE(std::filesystem::exists(tree_.root() / "ran.txt"));
}

// Access rules bind every tool (issue 46 item 5): a shell specialist with `no_read_dirs` and no
// sandbox (a Dominds workspace names none) could `cat ../secrets/key.txt`, so it is told no tool
// that runs commands, readonly_shell included; the CLI says why once, and a call anyway is refused
// with the reason before anything runs.
TEST_F(DomindsTold, AMemberWithAccessRulesAndNoSandboxIsToldNoShellAndItsCallsAreRefused) {
  tree_.write(".minds/team.yaml",
              "member_defaults:\n  provider: local\n  toolsets: [ws_read, os, codex_inspect_and_patch_tools]\n"
              "shell_specialists: [cmdr]\nmembers:\n  cmdr:\n    no_read_dirs: [secrets]\n  free: {}\n");
  tree_.write("secrets/key.txt", "the-secret-key");
  auto team = load();
  const auto cmdr = tool_names(told(team, "cmdr"));
  EXPECT_TRUE(has(cmdr, "read_file"));
  EXPECT_FALSE(has(cmdr, "readonly_shell"));
  for (const auto& shell : tools::shell_tool_names()) EXPECT_FALSE(has(cmdr, shell)) << shell;
  // A shell specialist without rules keeps its shell; a non-specialist its readonly_shell.
  EXPECT_TRUE(has(tool_names(told(team, "free")), "readonly_shell"));
  const auto notices = shell_tool_notices(team, build_builtin_tools());
  ASSERT_EQ(notices.size(), 2U);
  EXPECT_NE(notices[0].find("shell tools withheld from 'cmdr' (shell_cmd, start_process, list_processes, "
                            "read_process, stop_process, readonly_shell): this member has access rules, which bind "
                            "every tool, and a shell outside the sandbox could walk around them"),
            std::string::npos)
      << notices[0];
  script_provider(team, R"(members:
  cmdr:
    - when: {round: 1}
      emit:
        - tool_call: {name: readonly_shell, arguments: {command: "cat secrets/key.txt"}}
        - tool_call: {name: shell_cmd, arguments: {command: "cat secrets/key.txt; touch ran.txt"}}
    - emit: [{saying: "Done."}]
)");
  const auto results = tool_results(team, "cmdr", "Read the key.");
  ASSERT_EQ(results.size(), 2U);
  for (const auto& result : results) {
    EXPECT_NE(result.find("is a shell tool, and this member has access rules"), std::string::npos) << result;
    EXPECT_EQ(result.find("the-secret-key"), std::string::npos) << result;
  }
  EXPECT_FALSE(std::filesystem::exists(tree_.root() / "ran.txt"));
}

// Access rules bind every tool (issue 39): a stdio MCP server's process runs under the member's
// sandbox, so a member with rules and no sandbox is not given one — not told its tools, not able
// to call them — while a streamable HTTP server (no process here) is given; a member without rules
// keeps both, and so does one with rules and the bubblewrap sandbox (where it is installed). The
// CLI says it once, naming the servers withheld and why.
TEST_F(DomindsTold, AMemberWithAccessRulesAndNoSandboxIsGivenNoStdioMcpServer) {
  tree_.write(".minds/mcp.yaml",
              "version: 1\nservers:\n  local_fs:\n    transport: stdio\n    command: cat\n"
              "  web:\n    transport: streamable_http\n    url: 'http://127.0.0.1:9/mcp'\n");
  tree_.write(".minds/team.yaml",
              "member_defaults:\n  provider: local\n  toolsets: [ws_read, local_fs, web]\n"
              "members:\n  guarded:\n    no_read_dirs: [secrets]\n  free: {}\n"
              "  boxed:\n    no_read_dirs: [secrets]\n");
  auto team = load();
  // The sandbox is a key of Parley's team file, not of Dominds' team.yaml.
  for (auto& member : team.members) {
    if (member.id == "boxed") member.shell.sandbox = access::shell_sandbox::bubblewrap;
  }
  script_provider(team, "members:\n  \"*\":\n    - emit: [{saying: ok}]\n");
  asio::io_context io;
  auto log = make_memory_store();
  auto providers = build_providers(team);
  ASSERT_TRUE(providers) << providers.err().message;
  auto eng = engine::create(io.get_executor(), *log, team, std::move(*providers), build_builtin_tools());
  ASSERT_TRUE(eng) << eng.err().message;
  EXPECT_EQ((*eng)->members().mcp_servers_of("guarded"), std::vector<std::string>{"web"});
  EXPECT_EQ((*eng)->members().mcp_servers_of("free"), (std::vector<std::string>{"local_fs", "web"}));
  const bool sandbox_here = !tools::bubblewrap_program().empty();
  const std::vector<std::string> boxed_gets =
      sandbox_here ? std::vector<std::string>{"local_fs", "web"} : std::vector<std::string>{"web"};
  EXPECT_EQ((*eng)->members().mcp_servers_of("boxed"), boxed_gets);
  const auto notices = shell_tool_notices(team, build_builtin_tools());
  ASSERT_EQ(notices.size(), sandbox_here ? 1U : 2U);
  EXPECT_NE(notices[0].find("stdio MCP servers withheld from 'guarded' (local_fs): like a shell, a server's "
                            "process is held to the member's access rules by its sandbox, and this member has "
                            "access rules, which bind every tool, and a shell outside the sandbox could walk "
                            "around them; the sandbox is set in Parley's team file (`shell: {sandbox: bubblewrap}`)"),
            std::string::npos)
      << notices[0];
}

TEST_F(DomindsTold, AMemberIsToldTheSkillsItSeesAfterItsPitfallsAndCanReadThem) {
  tree_.write(".minds/team.yaml", "member_defaults: {provider: local}\nmembers:\n  lead: {}\n  helper: {}\n");
  tree_.write(".minds/team/lead/pitfalls.md", "Never skip the tests.\n");
  tree_.write(".minds/env.md", "A Debian machine.\n");
  tree_.write(".minds/skills/team_shared/review.md",
              "---\nname: Review\ndescription: Before approving.\n---\nRead it all.\n");
  tree_.write(".minds/skills/individual/helper/triage.md",
              "---\nname: Triage\ndescription: Sort bugs.\nallowed-tools: [read_file]\n---\nLabel each.\n");
  const auto team = load();
  const auto lead = told(team, "lead");
  const std::string& prompt = lead.system_prompt;
  const auto pitfalls = prompt.find("## Pitfalls");
  const auto skills = prompt.find(
      "### Skills\n\n#### Review\n- ID: `review`\n- Scope: Team Shared\n"
      "- Description: Before approving.\n- Read body: `read_skill({ \"skill_id\": \"review\" })`");
  const auto environment = prompt.find("## Runtime Environment");
  ASSERT_NE(pitfalls, std::string::npos) << prompt;
  ASSERT_NE(skills, std::string::npos) << prompt;
  ASSERT_NE(environment, std::string::npos) << prompt;
  EXPECT_LT(pitfalls, skills);
  EXPECT_LT(skills, environment);
  EXPECT_EQ(prompt.find("Triage"), std::string::npos);  // the helper's own skill
  EXPECT_TRUE(has(tool_names(lead), "read_skill"));

  const auto helper = told(team, "helper").system_prompt;
  EXPECT_NE(helper.find("#### Triage\n- ID: `triage`\n- Scope: Individual\n"), std::string::npos) << helper;
  EXPECT_NE(helper.find("- Upstream allowed-tools: read_file (Advisory only"), std::string::npos) << helper;
}

TEST_F(DomindsTold, ReadSkillAnswersTheBodyOfASkillTheMemberSeesAndRefusesOthers) {
  tree_.write(".minds/team.yaml", "member_defaults: {provider: local}\nmembers:\n  lead: {}\n  helper: {}\n");
  tree_.write(".minds/skills/team_shared/review.md",
              "---\nname: Review\ndescription: Before approving.\n---\nRead it all.\n");
  tree_.write(".minds/skills/individual/helper/triage.md",
              "---\nname: Triage\ndescription: Sort bugs.\n---\nLabel each.\n");
  auto team = load();
  script_provider(team, R"(members:
  lead:
    - when: {round: 1}
      emit:
        - tool_call: {name: read_skill, arguments: {skill_id: review}}
        - tool_call: {name: read_skill, arguments: {skill_id: triage}}
    - emit: [{saying: "Read."}]
)");
  const auto results = tool_results(team, "lead", "Review it.");
  ASSERT_EQ(results.size(), 2U);
  EXPECT_EQ(results[0],
            "# Review\n\n- ID: review\n- Scope: team_shared\n- Source: .minds/skills/team_shared/review.md\n"
            "- Description: Before approving.\n\nRead it all.");
  EXPECT_EQ(results[1], "Error: available skill 'triage' was not found. Available: review");
}

}  // namespace
}  // namespace parley::engine

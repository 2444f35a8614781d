// Issue 26 item 6: Parley checked against the files Dominds itself ships. ctest fetches the npm
// package `dominds@1.29.0` first (scripts/fetch_dominds.sh, the DomindsPackageFetch fixture) into
// the build folder; nothing of it is committed. PARLEY_DOMINDS_PACKAGE is its `package/` folder.
#include <gtest/gtest.h>

#include <yaml-cpp/yaml.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "parley/config/provider_catalogue.hpp"
#include "parley/config/team.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/engine/engine.hpp"
#include "parley/engine/member_toolsets.hpp"
#include "parley/store/store.hpp"
#include "unit/config/temp_tree.hpp"

namespace parley {
namespace {

namespace fs = std::filesystem;
namespace asio = boost::asio;

const fs::path kPackage = PARLEY_DOMINDS_PACKAGE;

std::string read_whole(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot read " << path;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The first ```yaml block after `heading` in a Markdown file.
std::string yaml_block_after(const std::string& markdown, std::string_view heading) {
  const auto at = markdown.find(heading);
  if (at == std::string::npos) return {};
  const auto open = markdown.find("```yaml\n", at);
  if (open == std::string::npos) return {};
  const auto start = open + 8;
  return markdown.substr(start, markdown.find("```", start) - start);
}

// In dominds 1.29.0 the team template's code block has a prose note pasted into it ("Note: in the
// normal-member example above, ..." and its two following lines, all at column 0). That paragraph
// and only that is taken out: it is documentation, not part of the template.
std::string without_pasted_note(const std::string& block) {
  std::istringstream in(block);
  std::string out;
  bool in_note = false;
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("Note: ")) in_note = true;
    if (in_note && (line.empty() || line.front() == ' ')) in_note = false;
    if (!in_note) out += line + "\n";
  }
  return out;
}

// The names of the tools a dialog's model is sent (what it is told it may call).
std::vector<std::string> told_tool_names(const engine::engine& eng, const engine::dialog_runtime& dialog) {
  auto request = eng.members().model_request_for(dialog);
  EXPECT_TRUE(request) << request.err().message;
  std::vector<std::string> names;
  if (!request || !request->tools) return names;
  for (const auto& tool : *request->tools) names.push_back(tool.name);
  return names;
}

class dominds_package_fixture : public ::testing::Test {
 protected:
  config::testing::temp_tree tree_;
};
using DomindsPackage = dominds_package_fixture;

// Dominds' defaults.yaml used as a workspace's llm.yaml loads: every provider is either usable
// or reported as not usable, by name, once.
TEST_F(DomindsPackage, DefaultsYamlLoadsAsLlmYaml) {
  const std::string defaults = read_whole(kPackage / "dist/llm/defaults.yaml");
  tree_.write(".minds/llm.yaml", defaults);
  tree_.write(".minds/team.yaml", "members:\n  alice:\n    provider: deepseek\n");
  auto team = config::load_dominds_workspace(tree_.root());
  ASSERT_TRUE(team) << team.err().message;

  const YAML::Node providers = YAML::Load(defaults)["providers"];
  ASSERT_TRUE(providers.IsMap());
  std::size_t checked = 0;
  for (const auto& item : providers) {
    const std::string id = item.first.as<std::string>();
    SCOPED_TRACE(id);
    const auto entry = std::find_if(team->provider_entries.begin(), team->provider_entries.end(),
                                    [&](const config::provider_entry& e) { return e.config.id == id; });
    ASSERT_NE(entry, team->provider_entries.end());
    EXPECT_NE(entry->origin, "built-in");  // llm.yaml's definition replaced the catalogue's
    const auto texts = config::problem_texts(team->problems);
    const auto notices = std::count_if(texts.begin(), texts.end(), [&](const std::string& n) {
      return n.find(": providers." + id + ": skipped, not usable by Parley: ") != std::string::npos;
    });
    if (entry->unsupported.empty()) {
      EXPECT_NE(entry->config.kind, config::provider_kind::none);
      EXPECT_NE(team->find_provider(id), nullptr);
      EXPECT_EQ(notices, 0);
    } else {
      EXPECT_EQ(team->find_provider(id), nullptr);
      EXPECT_EQ(notices, 1);
    }
    ++checked;
  }
  EXPECT_EQ(checked, team->provider_entries.size());
  // Every one of Dominds' built-in apiTypes is spoken, codex included (over the Responses API).
  EXPECT_TRUE(team->problems.empty()) << config::problem_texts(team->problems).front();
}

// With defaults.yaml as llm.yaml and zero edits, a member runs a dialog (its provider put behind the
// scripted model in memory: no network here).
TEST_F(DomindsPackage, DefaultsYamlWorkspaceRunsADialogOnTheScriptedModel) {
  tree_.write(".minds/llm.yaml", read_whole(kPackage / "dist/llm/defaults.yaml"));
  tree_.write(".minds/team.yaml", "members:\n  alice:\n    provider: deepseek\n");
  auto team = config::load_dominds_workspace(tree_.root());
  ASSERT_TRUE(team) << team.err().message;
  tree_.write("script.yaml", "members:\n  alice:\n    - emit: [{saying: \"Hello from alice.\"}]\n");
  for (auto& provider : team->providers) {
    if (provider.id != "deepseek") continue;
    provider = config::provider_config{};
    provider.id = "deepseek";
    provider.kind = config::provider_kind::scripted;
    provider.script = tree_.root() / "script.yaml";
  }
  auto providers = engine::build_providers(*team);
  ASSERT_TRUE(providers) << providers.err().message;
  asio::io_context io;
  auto log = make_memory_store();
  auto eng =
      engine::engine::create(io.get_executor(), *log, *team, std::move(*providers), engine::build_builtin_tools(*team));
  ASSERT_TRUE(eng) << eng.err().message;
  std::string id;
  auto drive = [&]() -> asio::awaitable<void> {
    engine::new_dialog spec;
    spec.first_message = "Say hello.";
    id = (co_await (*eng)->create_root_dialog(std::move(spec))).value();
    co_await (*eng)->runs().wait_until_idle(id);
  };
  asio::co_spawn(io, drive, asio::detached);
  io.run();
  auto messages = log->messages(id, 1);
  ASSERT_TRUE(messages) << messages.err().message;
  ASSERT_FALSE(messages->empty());
  // diligence-push-max defaults to Dominds' 99: the scripted model is pushed on after its answer
  // until its script runs out, so the answer is among the messages rather than last.
  EXPECT_TRUE(
      std::any_of(messages->begin(), messages->end(), [](const auto& m) { return m.content == "Hello from alice."; }));
}

// Parley's own catalogue states the same facts as Dominds' defaults.yaml: the same providers in
// the same order, API types, base URLs, key variables, models and context windows.
TEST_F(DomindsPackage, BuiltInCatalogueStatesTheFactsOfDefaultsYaml) {
  tree_.write(".minds/llm.yaml", read_whole(kPackage / "dist/llm/defaults.yaml"));
  tree_.write(".minds/team.yaml", "members:\n  alice:\n    provider: deepseek\n");
  auto team = config::load_dominds_workspace(tree_.root());
  ASSERT_TRUE(team) << team.err().message;
  auto builtin = config::builtin_providers();
  ASSERT_TRUE(builtin) << builtin.err().message;
  ASSERT_EQ(builtin->size(), team->provider_entries.size());
  for (std::size_t i = 0; i < builtin->size(); ++i) {
    const auto& ours = (*builtin)[i];
    const auto& theirs = team->provider_entries[i];
    SCOPED_TRACE(theirs.config.id);
    EXPECT_EQ(ours.config.id, theirs.config.id);
    EXPECT_EQ(ours.name, theirs.name);
    EXPECT_EQ(ours.api_type, theirs.api_type);
    EXPECT_EQ(ours.config.kind, theirs.config.kind);
    EXPECT_EQ(ours.config.base_url, theirs.config.base_url);
    EXPECT_EQ(ours.config.api_key_env, theirs.config.api_key_env);
    EXPECT_EQ(ours.config.models, theirs.config.models);
    ASSERT_EQ(ours.config.model_details.size(), theirs.config.model_details.size());
    for (std::size_t m = 0; m < ours.config.model_details.size(); ++m) {
      EXPECT_EQ(ours.config.model_details[m].context_window, theirs.config.model_details[m].context_window)
          << ours.config.model_details[m].id;
    }
  }
}

// The team template of dist/docs/team_mgmt-toolset.md loads as written and runs a dialog. The
// template's provider is codex: while Parley cannot speak it, that is a problem for the member that
// uses it (never a refused workspace); the test puts the scripted model behind that provider id.
TEST_F(DomindsPackage, TeamTemplateLoadsAndRunsADialogOnTheScriptedModel) {
  const std::string manual = read_whole(kPackage / "dist/docs/team_mgmt-toolset.md");
  const std::string block = yaml_block_after(manual, "## Managing `.minds/team.yaml`");
  ASSERT_NE(block.find("member_defaults:"), std::string::npos) << block;
  ASSERT_NE(block.find("      - ws_mod"), std::string::npos) << block;
  tree_.write(".minds/team.yaml", without_pasted_note(block));

  tree_.write(".minds/team/dev/persona.md", "You build what is asked.\n");
  auto team = config::load_dominds_workspace(tree_.root());
  ASSERT_TRUE(team) << team.err().message;
  ASSERT_EQ(team->member_ids(), std::vector<std::string>{"dev"});
  const config::member_config& dev = team->members[0];
  EXPECT_EQ(dev.name, "Dev");
  EXPECT_EQ(dev.model, "gpt-5.2");
  EXPECT_EQ(dev.toolsets, (std::vector<std::string>{"ws_mod", "os"}));
  EXPECT_EQ(team->default_member, "dev");  // default_responder fuxi is Dominds' shadow member
  const auto problems = config::problem_texts(team->problems);
  const auto problem_said = [&](std::string_view text) {
    return std::any_of(problems.begin(), problems.end(),
                       [&](const std::string& p) { return p.find(text) != std::string::npos; });
  };
  EXPECT_TRUE(problem_said("default_responder: 'fuxi' is a Dominds shadow member"));
  // As written, with Dominds' built-in codex: a problem of the member, naming provider and apiType,
  // while no codex provider is registered in Parley's catalogue.
  if (team->find_provider("codex")->kind == config::provider_kind::none) {
    EXPECT_TRUE(problem_said("member_defaults.provider: provider 'codex' (apiType 'codex'"));
    EXPECT_FALSE(config::member_can_run(team->problems, "dev"));
  }

  tree_.write("script.yaml", "members:\n  dev:\n    - emit: [{saying: \"Built it.\"}]\n");
  for (auto& provider : team->providers) {
    if (provider.id != "codex") continue;
    provider = config::provider_config{};
    provider.id = "codex";
    provider.kind = config::provider_kind::scripted;
    provider.script = tree_.root() / "script.yaml";
  }
  auto providers = engine::build_providers(*team);
  ASSERT_TRUE(providers) << providers.err().message;
  // The template's toolsets are Dominds' own names (ws_mod, os), mapped to Parley's tools.
  asio::io_context io;
  auto log = make_memory_store();
  auto eng =
      engine::engine::create(io.get_executor(), *log, *team, std::move(*providers), engine::build_builtin_tools(*team));
  ASSERT_TRUE(eng) << eng.err().message;
  std::string id;
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        engine::new_dialog spec;
        spec.first_message = "Build the thing.";
        id = (co_await (*eng)->create_root_dialog(std::move(spec))).value();
        co_await (*eng)->runs().wait_until_idle(id);
      },
      asio::detached);
  io.run();
  auto dialog = log->get_dialog(id);
  ASSERT_TRUE(dialog && *dialog);
  EXPECT_EQ((*dialog)->member_id, "dev");
  std::vector<std::string> said;
  for (const auto& msg : log->messages(id, 1).value())
    said.push_back(std::string(parley::events::to_wire(msg.role)) + ":" + msg.content);
  ASSERT_GE(said.size(), 2U);
  EXPECT_EQ(said.back(), "assistant:Built it.");

  // What dev's model was told: the file tools of ws_mod (its scratch pads too), by Dominds' names. The template names
  // no shell_specialists, so, as in Dominds, dev is given none of os's shell tools, and the CLI says so once.
  const auto* root = (*eng)->find(id);
  ASSERT_NE(root, nullptr);
  const auto names = told_tool_names(**eng, *root);
  for (const char* told : {"read_file", "overwrite_entire_file", "file_range_edit", "ripgrep_snippets", "pad_write"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), told), names.end()) << told;
  }
  for (const char* withheld : {"shell_cmd"}) {
    EXPECT_EQ(std::find(names.begin(), names.end(), withheld), names.end()) << withheld;
  }
  const auto notices = engine::shell_tool_notices(*team, engine::build_builtin_tools(*team));
  ASSERT_EQ(notices.size(), 1U);
  EXPECT_NE(notices[0].find(": members.dev.toolsets: shell tools withheld from 'dev' (shell_cmd"), std::string::npos)
      << notices[0];
}

// The same template with `shell_specialists: dev` added, as Dominds' manual tells a team that
// gives `os` to do: dev is told the shell tools of os.
TEST_F(DomindsPackage, TeamTemplateWithDevAsShellSpecialistToldTheShellTools) {
  const std::string manual = read_whole(kPackage / "dist/docs/team_mgmt-toolset.md");
  const std::string block = without_pasted_note(yaml_block_after(manual, "## Managing `.minds/team.yaml`"));
  ASSERT_EQ(block.find("shell_specialists"), std::string::npos) << block;
  tree_.write(".minds/team.yaml", block + "shell_specialists: dev\n");
  tree_.write(".minds/llm.yaml",
              "providers:\n  codex:\n    apiType: openai\n    models:\n      gpt-5.2: {context_length: 272000}\n");
  auto team = config::load_dominds_workspace(tree_.root());
  ASSERT_TRUE(team) << team.err().message;
  EXPECT_EQ(team->shell_specialists, std::vector<std::string>{"dev"});
  EXPECT_TRUE(engine::shell_tool_notices(*team, engine::build_builtin_tools(*team)).empty());
  auto providers = engine::build_providers(*team);
  ASSERT_TRUE(providers) << providers.err().message;
  asio::io_context io;
  auto log = make_memory_store();
  auto eng =
      engine::engine::create(io.get_executor(), *log, *team, std::move(*providers), engine::build_builtin_tools(*team));
  ASSERT_TRUE(eng) << eng.err().message;
  events::dialog_created created;
  created.member_id = "dev";
  created.kind = events::dialog_kind::root;
  std::vector<event> events{{"root", "root", 1, std::move(created), 0}};
  auto dialog = engine::dialog_runtime::replay(events);
  ASSERT_TRUE(dialog) << dialog.err().message;
  const auto names = told_tool_names(**eng, **dialog);
  for (const char* told : {"read_file", "overwrite_entire_file", "shell_cmd"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), told), names.end()) << told;
  }
}

// The access examples of Dominds' permissions manual (dist/tools/team_mgmt.js, shown by
// `man team_mgmt permissions`), checked on Parley's rules.
TEST_F(DomindsPackage, AccessRulesBehaveAsThePermissionsManualSays) {
  const std::string manual = read_whole(kPackage / "dist/tools/team_mgmt.js");
  // The manual's least-privilege example, as it ships.
  ASSERT_NE(manual.find(R"('    read_dirs: ["dominds/**"]',)"), std::string::npos);
  ASSERT_NE(manual.find(R"('    write_dirs: ["dominds/**"]',)"), std::string::npos);
  ASSERT_NE(manual.find("Example: `dominds/**` matches `dominds/README.md`, `dominds/main/server.ts`"),
            std::string::npos);
  tree_.write(".minds/team.yaml", R"(member_defaults:
  provider: deepseek
members:
  coder:
    read_dirs: ["dominds/**"]
    write_dirs: ["dominds/**"]
  reviewer:
    no_write_dirs: ["dominds/webapp/**"]
    write_file_ext_names: [".TS"]
    no_read_file_ext_names: [env]
)");
  auto team = config::load_dominds_workspace(tree_.root());
  ASSERT_TRUE(team) << team.err().message;
  const access::access_rules& coder = team->members[0].access;
  // "`dominds/**` matches `dominds/README.md`, `dominds/main/server.ts`, `dominds/webapp/src/...`"
  for (const char* path : {"dominds/README.md", "dominds/main/server.ts", "dominds/webapp/src/app.tsx"}) {
    EXPECT_TRUE(coder.check_read(path)) << path;
    EXPECT_TRUE(coder.check_write(path)) << path;
  }
  EXPECT_FALSE(coder.check_read("README.md"));
  EXPECT_FALSE(coder.check_write("other/dominds/x.ts"));
  // ".minds/** ... is hard-denied for all general file tools"; "*.tsk/ ... hard-denied".
  const access::access_rules& reviewer = team->members[1].access;
  for (const auto* rules : {&coder, &reviewer}) {
    EXPECT_FALSE(rules->check_read(".minds/team.yaml"));
    EXPECT_FALSE(rules->check_write(".minds/team/coder/persona.md"));
    EXPECT_FALSE(rules->check_read("dominds/plan.tsk/goals.md"));
    EXPECT_FALSE(rules->check_write("dominds/plan.tsk/progress.md"));
  }
  // "Deny-lists (`no_*`) override allow-lists"; "If a dimension has no allow-list, that dimension
  // defaults to allow"; "read_dirs and write_dirs are controlled independently".
  EXPECT_FALSE(reviewer.check_write("dominds/webapp/src/a.ts"));
  EXPECT_TRUE(reviewer.check_read("dominds/webapp/src/a.ts"));
  EXPECT_TRUE(reviewer.check_write("dominds/main/a.ts"));
  // "Extension names are exact suffix matches (case-insensitive; config accepts `ts` or `.ts`)."
  EXPECT_TRUE(reviewer.check_write("dominds/main/B.TS"));
  EXPECT_FALSE(reviewer.check_write("dominds/main/b.js"));
  EXPECT_FALSE(reviewer.check_read("config/prod.ENV"));
  // "If you try to whitelist `.minds/**` ... via read_dirs/write_dirs, the runtime ignores it and
  // reports an error-level Problem": Parley refuses the workspace instead, naming the entry.
  tree_.write(".minds/team.yaml",
              "member_defaults:\n  provider: deepseek\nmembers:\n  coder:\n"
              "    read_dirs: [\".minds/**\"]\n");
  auto refused = config::load_dominds_workspace(tree_.root());
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.err().message.find(":5:17: members.coder.read_dirs[0]: "), std::string::npos)
      << refused.err().message;
}

}  // namespace
}  // namespace parley

// Issue 46 items 1, 4 and 7: a Dominds workspace loads and reports Problems instead of refusing.
// The fixture tests/data/dominds/feat-dev-shape is written to the shape of the Dominds
// maintainers' own workspace (see its team.yaml); it is loaded with zero edits, each member runs a
// dialog on the scripted model, and `parley check --workspace` lists its problems and exits 0.
// What counts as a problem is asked of the tool registry and the provider catalogue, so a tool,
// toolset or provider that lands in Parley later stops being expected here by itself.
#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "parley/config/team.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/engine/dialog_tools.hpp"
#include "parley/engine/engine.hpp"
#include "parley/engine/team_problems.hpp"
#include "parley/store/store.hpp"
#include "unit/config/temp_tree.hpp"

namespace parley {
namespace {

namespace fs = std::filesystem;
namespace asio = boost::asio;

const fs::path kFeatDevShape = fs::path(PARLEY_SOURCE_DIR) / "tests/data/dominds/feat-dev-shape";

bool feat_dev_has_problem_naming(const config::team_config& team, const std::string& member, const std::string& word) {
  return std::any_of(team.problems.begin(), team.problems.end(), [&](const config::problem& p) {
    // The name the problem is about opens its reason ("toolset 'x' ...", "unknown toolset 'x' ...",
    // "tool 'x' ..."): a suggestion later in the text ("did you mean 'x'?") names another entry.
    const std::string& why = p.why;
    const auto named = why.find("'" + word + "'");
    return p.member == member && named != std::string::npos && why.rfind("did you mean", named) == std::string::npos;
  });
}

config::team_config feat_dev_loaded_and_settled() {
  auto team = config::load_dominds_workspace(kFeatDevShape);
  EXPECT_TRUE(team) << team.err().message;
  if (!team) return {};
  engine::settle_team_problems(*team, engine::build_builtin_tools(*team));
  return std::move(*team);
}

TEST(FeatDevShape, LoadsWithZeroEditsAndReportsWhatParleyLacksAsProblems) {
  const auto team = feat_dev_loaded_and_settled();
  ASSERT_EQ(team.member_ids(), (std::vector<std::string>{"browser_tester", "fullstack", "i18n", "ux", "cmdr"}));
  EXPECT_EQ(team.default_member, "ux");
  EXPECT_EQ(team.shell_specialists, std::vector<std::string>{"cmdr"});
  const auto registry = engine::build_builtin_tools(team);
  // Each toolset or tool Parley lacks is a problem of the member that asked for it, and is left out.
  const std::vector<std::pair<std::string, std::vector<std::string>>> asked{
      {"browser_tester", {"codex_style_tools", "playwright", "mcp_admin"}},
      {"fullstack", {"codex_style_tools"}},
      {"i18n", {"memory"}},
      {"ux", {"team-mgmt", "team_mgmt", "codex_style_tools"}}};
  for (const auto& [member_id, toolsets] : asked) {
    const auto* member = team.find_member(member_id);
    ASSERT_NE(member, nullptr);
    for (const auto& name : toolsets) {
      SCOPED_TRACE(member_id + " " + name);
      const bool known = registry.toolset(name) != nullptr;
      EXPECT_EQ(feat_dev_has_problem_naming(team, member_id, name), !known);
      EXPECT_EQ(std::count(member->toolsets.begin(), member->toolsets.end(), name), known ? 1 : 0);
    }
  }
  // do_mind and recall_taskdoc are Dominds' control tools, the engine's dialog tools here.
  for (const std::string name : {"ripgrep_snippets", "overwrite_entire_file", "do_mind", "recall_taskdoc"}) {
    const bool known = registry.find(name) != nullptr || engine::is_dialog_tool(name);
    EXPECT_EQ(feat_dev_has_problem_naming(team, "fullstack", name), !known) << name;
  }
  // Providers: one Parley cannot use blocks only the members that name it.
  for (const auto& member : team.members) {
    SCOPED_TRACE(member.id);
    const auto* provider = team.find_provider(member.provider);
    ASSERT_NE(provider, nullptr);
    const bool usable = provider->kind != config::provider_kind::none;
    EXPECT_EQ(config::member_can_run(team.problems, member.id), usable);
    EXPECT_EQ(feat_dev_has_problem_naming(team, member.id, member.provider), !usable);
  }
  EXPECT_FALSE(config::member_can_run(team.problems, "i18n"));  // minimaxi.com-coding-plan is no provider
  for (const auto& problem : team.problems) {
    EXPECT_EQ(problem.file, (fs::absolute(kFeatDevShape) / ".minds/team.yaml").lexically_normal().string())
        << problem.text();
    EXPECT_GT(problem.line, 0) << problem.text();
  }
}

// Item 4: Dominds' policy keys and defaults, and Parley's own where Dominds has none.
TEST(FeatDevShape, PolicyKeysComeFromTheWorkspace) {
  const auto team = feat_dev_loaded_and_settled();
  for (const auto& member : team.members) {
    EXPECT_EQ(member.diligence_push_max, 0) << member.id;  // member_defaults' diligence-push-max: 0
    EXPECT_EQ(member.max_tool_rounds, 1000) << member.id;  // no Dominds limit: Parley's backstop
    EXPECT_EQ(member.model_params.at("codex").at("reasoning_effort"), "high") << member.id;
  }
  const auto* fullstack = team.find_member("fullstack");
  ASSERT_NE(fullstack, nullptr);
  EXPECT_EQ(fullstack->model, "gpt-5.2");
  EXPECT_EQ(fullstack->gofor.size(), 2U);
}

// "run a dialog with each on the scripted model": every provider (codex and the unusable one
// alike; no network here) is put behind the scripted model in memory, the files staying as they
// are, and every member answers.
TEST(FeatDevShape, EveryMemberRunsADialogOnTheScriptedModel) {
  auto team = feat_dev_loaded_and_settled();
  config::testing::temp_tree tree;
  std::string script = "members:\n";
  for (const auto& id : team.member_ids()) script += "  " + id + ":\n    - emit: [{saying: \"" + id + " done.\"}]\n";
  tree.write("script.yaml", script);
  for (auto& provider : team.providers) {
    const std::string id = provider.id;
    provider = config::provider_config{};
    provider.id = id;
    provider.kind = config::provider_kind::scripted;
    provider.script = tree.root() / "script.yaml";
  }
  auto providers = engine::build_providers(team);
  ASSERT_TRUE(providers) << providers.err().message;
  asio::io_context io;
  auto log = make_memory_store();
  auto eng =
      engine::engine::create(io.get_executor(), *log, team, std::move(*providers), engine::build_builtin_tools(team));
  ASSERT_TRUE(eng) << eng.err().message;
  std::vector<std::string> ids;
  auto drive_all = [&]() -> asio::awaitable<void> {
    for (const auto& member : team.member_ids()) {
      engine::new_dialog spec;
      spec.member_id = member;
      spec.first_message = "Report in.";
      auto id = co_await (*eng)->create_root_dialog(std::move(spec));
      if (!id) co_return;
      ids.push_back(*id);
      co_await (*eng)->runs().wait_until_idle(*id);
    }
  };
  asio::co_spawn(io, drive_all, asio::detached);
  io.run();
  ASSERT_EQ(ids.size(), team.members.size());
  for (std::size_t i = 0; i < ids.size(); ++i) {
    auto messages = log->messages(ids[i], 1);
    ASSERT_TRUE(messages) << messages.err().message;
    ASSERT_FALSE(messages->empty());
    EXPECT_EQ(messages->back().content, team.members[i].id + " done.");
  }
}

// As written, a member whose provider Parley cannot use fails when driven, naming the problem;
// the team itself loaded and its engine was made.
TEST(FeatDevShape, AMemberWithAnUnusableProviderFailsWhenDrivenNamingTheProblem) {
  auto team = feat_dev_loaded_and_settled();
  auto providers = engine::build_providers(team);
  ASSERT_TRUE(providers) << providers.err().message;
  asio::io_context io;
  auto log = make_memory_store();
  auto eng =
      engine::engine::create(io.get_executor(), *log, team, std::move(*providers), engine::build_builtin_tools(team));
  ASSERT_TRUE(eng) << eng.err().message;
  std::string id;
  auto drive_i18n = [&]() -> asio::awaitable<void> {
    engine::new_dialog spec;
    spec.member_id = "i18n";
    spec.first_message = "Translate the banner.";
    auto made = co_await (*eng)->create_root_dialog(std::move(spec));
    if (!made) co_return;
    id = *made;
    co_await (*eng)->runs().wait_until_idle(id);
  };
  asio::co_spawn(io, drive_i18n, asio::detached);
  io.run();
  ASSERT_FALSE(id.empty());
  auto logged = log->read_events(id, 0);
  ASSERT_TRUE(logged) << logged.err().message;
  const auto failed =
      std::find_if(logged->begin(), logged->end(), [](const event& ev) { return ev.is<events::drive_failed>(); });
  ASSERT_NE(failed, logged->end());
  const std::string failure = failed->as<events::drive_failed>()->message;
  EXPECT_NE(failure.find("member 'i18n' cannot be driven: provider 'minimaxi.com-coding-plan'"), std::string::npos)
      << failure;
}

#ifdef PARLEY_CLI
// `parley check --workspace` loads the fixture, prints one line per problem and exits 0.
TEST(FeatDevShape, ParleyCheckListsTheProblemsAndExitsZero) {
  const std::string command = std::string(PARLEY_CLI) + " check --workspace " + kFeatDevShape.string() + " 2>&1";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  ASSERT_NE(pipe, nullptr);
  std::string output;
  std::array<char, 4096> chunk{};
  while (const std::size_t got = fread(chunk.data(), 1, chunk.size(), pipe.get())) output.append(chunk.data(), got);
  const int status = pclose(pipe.release());
  EXPECT_EQ(status, 0) << output;
  const auto team = feat_dev_loaded_and_settled();
  for (const auto& problem : team.problems) {
    EXPECT_NE(output.find("problem: " + problem.text() + "\n"), std::string::npos) << problem.text() << "\n" << output;
  }
  EXPECT_NE(output.find("5 member(s)"), std::string::npos) << output;
  EXPECT_NE(output.find("the team can run"), std::string::npos) << output;
}
#endif

}  // namespace
}  // namespace parley

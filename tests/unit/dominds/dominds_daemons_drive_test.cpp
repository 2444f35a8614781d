// A `.minds/` team's dialog on the scripted model starts a daemon with Dominds' shell_cmd and
// changes its shell environment with env_set; when the command that drives it ends
// (engine::stop_mcp, as `parley drive` calls it) the daemon is killed and the event loop ends, so
// `parley drive` does not hang on a daemon, and no process is left behind.
#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include <signal.h>

#include <chrono>
#include <fstream>

#include "parley/config/team.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/engine/engine.hpp"
#include "parley/engine/team_problems.hpp"
#include "parley/store/store.hpp"
#include "unit/config/temp_tree.hpp"

namespace parley::engine {
namespace {

constexpr std::string_view kDaemonScript = R"(members:
  dev:
    - when: {round: 1}
      emit:
        - tool_call: {name: env_set, arguments: {key: GREETING, value: "hello daemon"}}
        - tool_call: {name: shell_cmd, arguments: {command: "echo $GREETING; echo $$ > d.pid; exec sleep 600", timeoutSeconds: 1}}
    - emit: [{saying: "Started."}]
)";

TEST(DomindsDaemonsDrive, TheDaemonOfADriveEndsWithIt) {
  namespace asio = boost::asio;
  config::testing::temp_tree tree;
  tree.write(".minds/llm.yaml", "providers:\n  local:\n    apiType: openai-compatible\n    models: [m]\n");
  tree.write(".minds/team.yaml",
             "member_defaults:\n  provider: local\n  model: m\nshell_specialists: [dev]\n"
             "members:\n  dev:\n    toolsets: [os]\n");
  tree.write("script.yaml", std::string(kDaemonScript));
  auto team = config::load_dominds_workspace(tree.root());
  ASSERT_TRUE(team) << team.err().message;
  settle_team_problems(*team, build_builtin_tools(*team));
  for (auto& provider : team->providers) {
    provider = config::provider_config{};
    provider.id = "local";
    provider.kind = config::provider_kind::scripted;
    provider.script = tree.root() / "script.yaml";
  }
  asio::io_context io;
  auto log = make_memory_store();
  auto providers = build_providers(*team);
  ASSERT_TRUE(providers) << providers.err().message;
  auto tools = build_builtin_tools(*team);
  auto made = engine::create(io.get_executor(), *log, std::move(*team), std::move(*providers), std::move(tools));
  ASSERT_TRUE(made) << made.err().message;
  auto& eng = **made;
  std::string id;
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        new_dialog spec{"dev", "", "work.tsk"};
        spec.first_message = "Start the server.";
        id = (co_await eng.create_root_dialog(std::move(spec))).value();
        co_await eng.runs().wait_until_idle(id);
        eng.stop_mcp();  // what `parley drive` does as it ends
      },
      asio::detached);
  // The loop runs out of work only once the daemon is gone (its reader keeps it busy till then);
  // about 20 s at most, so a daemon left running fails the test instead of hanging it.
  for (int i = 0; i < 2000 && !io.stopped(); ++i) io.run_for(std::chrono::milliseconds(10));
  EXPECT_TRUE(io.stopped()) << "the daemon kept the drive's event loop busy";
  std::vector<std::string> results;
  for (const auto& msg : log->messages(id, 1).value()) {
    if (msg.role == parley::events::message_role::tool) results.push_back(msg.content);
  }
  ASSERT_EQ(results.size(), 2U) << ::testing::PrintToString(results);
  EXPECT_EQ(results[0], "ok: GREETING\nprev: (unset)\nnext: hello daemon");
  EXPECT_EQ(
      results[1].rfind("🟢 echo $GREETING; echo $$ > d.pid; exec sleep 600 is now running in the background", 0), 0U)
      << results[1];
  std::ifstream pid_file(tree.root() / "d.pid");
  int pid = 0;
  pid_file >> pid;
  ASSERT_GT(pid, 0);
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  std::getline(stat, line);
  const bool gone = !stat || line.find(") Z") != std::string::npos;  // or a zombie nobody reaped
  EXPECT_TRUE(gone) << line;
  if (!gone) ::kill(-pid, SIGKILL);
}

}  // namespace
}  // namespace parley::engine

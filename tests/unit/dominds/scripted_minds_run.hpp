// One root dialog of a `.minds/` team's member `dev`, driven to its end on the scripted model: every
// provider of the team answers from `script`. For the tests of Dominds' tools that a model calls.
#pragma once

#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "parley/config/team.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/engine/engine.hpp"
#include "parley/store/store.hpp"
#include "unit/config/temp_tree.hpp"

namespace parley::engine::testing {

struct scripted_minds_run {
  // Declared first, destroyed last: the engine keeps the context's executor.
  std::unique_ptr<boost::asio::io_context> io = std::make_unique<boost::asio::io_context>();
  std::unique_ptr<store> log = make_memory_store();
  std::unique_ptr<engine> eng;
  std::string id;

  // The tool results of the dialog's first course, in order.
  std::vector<std::string> tool_results() const {
    std::vector<std::string> out;
    if (id.empty()) return out;
    for (const auto& msg : log->messages(id, 1).value()) {
      if (msg.role == parley::events::message_role::tool) out.push_back(msg.content);
    }
    return out;
  }
};

// `team` was loaded from `tree`'s `.minds/`; its root dialog (Taskdoc work.tsk) gets "Plan the parser."
inline scripted_minds_run run_scripted_minds_dialog(config::testing::temp_tree& tree, config::team_config team,
                                                    std::string_view script) {
  namespace asio = boost::asio;
  scripted_minds_run run;
  tree.write("script.yaml", std::string(script));
  for (auto& provider : team.providers) {
    provider = config::provider_config{};
    provider.id = "local";
    provider.kind = config::provider_kind::scripted;
    provider.script = tree.root() / "script.yaml";
  }
  auto providers = build_providers(team);
  EXPECT_TRUE(providers) << providers.err().message;
  if (!providers) return run;
  auto tools = build_builtin_tools(team);
  auto made =
      engine::create(run.io->get_executor(), *run.log, std::move(team), std::move(*providers), std::move(tools));
  EXPECT_TRUE(made) << made.err().message;
  if (!made) return run;
  run.eng = std::move(*made);
  asio::co_spawn(
      *run.io,
      [&run]() -> asio::awaitable<void> {
        new_dialog spec{"dev", "", "work.tsk"};
        spec.first_message = "Plan the parser.";
        run.id = (co_await run.eng->create_root_dialog(std::move(spec))).value();
        co_await run.eng->runs().wait_until_idle(run.id);
      },
      asio::detached);
  run.io->run();
  return run;
}

}  // namespace parley::engine::testing

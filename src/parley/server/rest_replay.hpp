// rest_replay.cpp: POST /api/dialogs/{id}/replay (docs/fork.md "Replay").
#pragma once

#include <boost/asio/any_io_executor.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "parley/engine/engine.hpp"
#include "parley/engine/observer.hpp"
#include "parley/engine/replay_oracle.hpp"
#include "parley/server/rest_handlers.hpp"

namespace parley::server::rest {

handler_result post_replay(server_context& context, const rest_request& request, std::string dialog_id);

// A replay's engine in the server: the served team with the replay's change, its scratch workspace
// and its record. It lives while something drives the replay's tree.
struct replay_run {
  const store* log = nullptr;
  std::unique_ptr<engine::engine_observer> news;  // outlives the engine that tells it
  std::unique_ptr<engine::engine> eng;
  std::optional<engine::replay_oracle> oracle;
};

// The engine that drives the tree of `row` when that tree is a replay — the one driving it now, or
// a new one made from the replay's replay_started — so that a resume, an answer or a message runs
// the replay with its change and record; null when the tree is no replay (the served engine
// drives it).
boost::asio::awaitable<result<std::shared_ptr<replay_run>>> replay_run_for(server_context& context,
                                                                           const dialog_row& row);
// `parley serve`'s start-up recovery of the replays a stop cut short (drive_control::recover_all
// names their roots, claimed): each tree's owed drives scheduled on the replay's own engine, which
// is kept until its tree settles.
boost::asio::awaitable<void> recover_replays(server_context& context, std::vector<std::string> root_ids);
// Keeps `run` until the replay's tree settles, once it was given its input.
void settle_replay_later(const boost::asio::any_io_executor& executor, std::shared_ptr<replay_run> run,
                         std::string root_id);

}  // namespace parley::server::rest

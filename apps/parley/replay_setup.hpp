// What a one-shot verb needs to drive a replay (docs/fork.md "Replay"): the engine's hooks that
// run the replay's tree under its team (engine/replay_team.hpp) with its record of the origin
// (engine/replay_oracle.hpp). Used by `parley replay`, and by `parley resume` and `parley answer`,
// so that a replay that stopped goes on as a replay. For a dialog of no replay the hooks change
// nothing.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <boost/asio/awaitable.hpp>

#include "cli_args.hpp"
#include "cli_context.hpp"
#include "parley/engine/engine.hpp"
#include "parley/engine/replay_oracle.hpp"

namespace parley::cli {

// Called on the way to the engine: `before_create` may change the team (and fail, reported as the
// verb's error, before anything is driven); `after_create` installs what the engine is given.
struct engine_hooks {
  std::function<result<void>(engine_inputs&)> before_create;
  std::function<void(engine::engine&)> after_create;
};

// What a verb does once the engine is up: sets the dialog to follow and acts on it.
using engine_action = std::function<boost::asio::awaitable<result<void>>(engine::engine&, std::string& dialog_id)>;

// Sets up the team, store and engine (with `hooks`, if any), runs `action`, then drives until the
// dialog's whole hierarchy settles, streaming to the terminal. Ctrl-C stops the followed dialog's
// generation. (verb_drive.cpp)
int with_engine(const parsed_args& args, const engine_action& action, const engine_hooks* hooks = nullptr);

// The replay `dialog_id` belongs to, found when the engine's inputs are ready.
class replay_setup {
 public:
  replay_setup(std::filesystem::path data_dir, std::string dialog_id)
      : data_dir_(std::move(data_dir)), dialog_id_(std::move(dialog_id)) {}
  // The dialog to drive, when it is known only later (`parley replay` makes its fork first).
  void set_dialog(std::string dialog_id) { dialog_id_ = std::move(dialog_id); }
  result<void> prepare(engine_inputs& inputs);
  // The hooks; they keep references to this object, which must outlive the engine's run.
  engine_hooks hooks();
  // Whether the dialog turned out to be a replay's (after before_create ran).
  const std::optional<engine::replay_oracle>& oracle() const noexcept { return oracle_; }

 private:
  std::filesystem::path data_dir_;
  std::string dialog_id_;
  std::optional<engine::replay_oracle> oracle_;
};

// The scratch workspaces of replays live in DATA/replays/<fork id>/workspace.
std::filesystem::path replays_dir_of(const std::filesystem::path& data_dir);

}  // namespace parley::cli

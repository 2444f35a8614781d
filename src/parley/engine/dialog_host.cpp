#include "parley/engine/dialog_host.hpp"

#include <iterator>

namespace parley::engine {

namespace asio = boost::asio;

namespace {

// Keeps the dialogs of a commit loaded while it awaits the log (dialog_runtime::unused).
class commit_pin {
 public:
  commit_pin(dialog_runtime& dialog, std::vector<dialog_runtime*> others) : others_(std::move(others)) {
    others_.push_back(&dialog);
    for (auto* pinned : others_) ++pinned->commits_in_flight;
  }
  ~commit_pin() {
    for (auto* pinned : others_) --pinned->commits_in_flight;
  }
  commit_pin(const commit_pin&) = delete;
  commit_pin& operator=(const commit_pin&) = delete;

 private:
  std::vector<dialog_runtime*> others_;
};

}  // namespace

asio::awaitable<result<dialog_runtime*>> dialog_host::load_async(std::string dialog_id) {
  co_return co_await dialogs_.load_async(std::move(dialog_id), reads_);
}

asio::awaitable<result<void>> dialog_host::load_root(const dialog_runtime& dialog) {
  if (!dialog.is_sub()) co_return ok();
  auto root = co_await load_async(dialog.row().root_id);
  if (!root) co_return std::move(root).err();
  co_return ok();
}

result<void> dialog_host::stage(dialog_runtime& dialog, events::event_payload payload) {
  PARLEY_TRY(dialog.stage(std::move(payload)));
  for (auto* observer : observers_) observer->on_event(dialog.last_staged());
  return ok();
}

asio::awaitable<result<void>> dialog_host::commit(dialog_runtime& dialog) {
  const commit_pin pinned(dialog, {});
  auto committed = co_await writer_.commit(dialog.id(), dialog.take_staged());
  // Memory ran ahead of a log that refused the batch: the runtime must be rebuilt from the log.
  if (!committed) mark_poisoned(dialog, committed.err().message);
  co_return committed;
}

std::vector<event> dialog_host::batch_of(dialog_runtime& dialog, const round_effects& fx) {
  std::vector<event> batch = dialog.take_staged();
  for (auto* other : fx.touched) {
    if (other == &dialog) continue;
    auto staged = other->take_staged();
    batch.insert(batch.end(), std::make_move_iterator(staged.begin()), std::make_move_iterator(staged.end()));
  }
  return batch;
}

asio::awaitable<result<void>> dialog_host::commit_together(dialog_runtime& dialog, const round_effects& fx) {
  auto batch = batch_of(dialog, fx);
  const commit_pin pinned(dialog, fx.touched);
  auto committed = co_await writer_.commit(dialog.id(), std::move(batch));
  if (!committed) {
    for (auto* poisoned : fx.touched) mark_poisoned(*poisoned, committed.err().message);
    mark_poisoned(dialog, committed.err().message);
  }
  co_return committed;
}

void dialog_host::send_together(dialog_runtime& dialog, const round_effects& fx) { writer_.send(batch_of(dialog, fx)); }

void dialog_host::mark_poisoned(dialog_runtime& dialog, const std::string& problem) {
  dialog.poisoned = true;
  dialog.store_error = problem;
  // Not only drives: a refused input (its sender is told) leaves memory ahead of the log too, and
  // must be reloaded once the log takes writes, or views of the dialog would show what was refused.
  if (on_poisoned_) on_poisoned_(dialog);
}

}  // namespace parley::engine

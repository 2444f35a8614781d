// The dialogs an engine holds and the one way their events reach the log. Every collaborator of
// the engine works on dialogs through it: it loads a dialog (from memory, or from the log — off the
// loop with load_async), stages an event on it (observers hear of it at once, before it is
// durable), and commits what was staged through the log writer. A dialog whose commit the log
// refused is marked poisoned: memory ran ahead of the log, so it must be read again, and whoever
// retries stalled dialogs (the drive loop) is told.
//
// Owns the loaded dialogs and their trees (dialog_cache), the log writer, the observers and the
// place where reads of the store run (store_reads). Runs on the engine's executor.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/engine/dialog_cache.hpp"
#include "parley/engine/dialog_runtime.hpp"
#include "parley/engine/log_writer.hpp"
#include "parley/engine/observer.hpp"
#include "parley/engine/round_effects.hpp"
#include "parley/engine/store_reads.hpp"
#include "parley/store/store.hpp"

namespace parley::engine {

class dialog_host {
 public:
  // Keeps a reference to `log`, which outlives the host.
  dialog_host(const boost::asio::any_io_executor& executor, store& log)
      : log_(log), writer_(log, executor, observers_), dialogs_(executor, log) {}
  dialog_host(const dialog_host&) = delete;
  dialog_host& operator=(const dialog_host&) = delete;

  void add_observer(engine_observer* observer) { observers_.push_back(observer); }
  const std::vector<engine_observer*>& observers() const noexcept { return observers_; }
  // Where reads of the store run: the server's read thread (null, the default: on the engine's
  // own thread, as a one-shot CLI verb wants). Set before the first input; outlives it.
  void set_reads(store_reads* reads) noexcept { reads_ = reads; }
  store_reads* reads() const noexcept { return reads_; }
  store& log() const noexcept { return log_; }
  log_writer& writer() noexcept { return writer_; }
  dialog_cache& cache() noexcept { return dialogs_; }
  const dialog_cache& cache() const noexcept { return dialogs_; }

  // Loads one dialog from the log (once); later calls return the loaded runtime. A miss reads the
  // store right here: for start-up recovery and the CLI's one-shot verbs; a coroutine of a server
  // calls load_async.
  result<dialog_runtime*> load(std::string_view dialog_id) { return dialogs_.load(dialog_id); }
  // The same for a coroutine: a dialog not in memory is read on the read thread (set_reads).
  boost::asio::awaitable<result<dialog_runtime*>> load_async(std::string dialog_id);
  // Loads a subdialog's root (off the loop on a miss), for a check of the root after it; a root has
  // nothing to load.
  boost::asio::awaitable<result<void>> load_root(const dialog_runtime& dialog);
  const dialog_runtime* find(std::string_view dialog_id) const { return dialogs_.find(dialog_id); }
  dialog_runtime* find(std::string_view dialog_id) { return dialogs_.find(dialog_id); }

  // At most `limit` dialogs stay in memory (default 4096). Past it, the least recently used ones
  // that nothing holds, in trees with no drive under way, are dropped and loaded again from the
  // log when next needed, so a long-running server does not keep every dialog it ever ran.
  void set_limit(std::size_t limit) noexcept { dialogs_.set_limit(limit); }
  std::size_t limit() const noexcept { return dialogs_.limit(); }
  std::size_t size() const noexcept { return dialogs_.size(); }

  // Stages an event on the dialog and tells observers at once (before it is durable).
  result<void> stage(dialog_runtime& dialog, events::event_payload payload);
  // Makes what the dialog staged durable; a refusal poisons the dialog.
  boost::asio::awaitable<result<void>> commit(dialog_runtime& dialog);
  // The dialog's staged events and those of the round's other dialogs, durable in one batch (one
  // transaction); a refusal poisons them all.
  boost::asio::awaitable<result<void>> commit_together(dialog_runtime& dialog, const round_effects& fx);
  // The dialog's staged events and those of the round's other dialogs, sent in one batch in log
  // order without waiting (log_writer::send).
  void send_together(dialog_runtime& dialog, const round_effects& fx);
  // The dialog's staged events, sent without waiting.
  void send(dialog_runtime& dialog) { writer_.send(dialog.take_staged()); }
  void mark_poisoned(dialog_runtime& dialog, const std::string& problem);
  // Who hears of a dialog marked poisoned (the drive loop's retry of stalled dialogs).
  void on_poisoned(std::function<void(dialog_runtime&)> listener) { on_poisoned_ = std::move(listener); }

 private:
  std::vector<event> batch_of(dialog_runtime& dialog, const round_effects& fx);

  store& log_;
  std::vector<engine_observer*> observers_;
  log_writer writer_;
  dialog_cache dialogs_;          // the loaded dialogs and their trees
  store_reads* reads_ = nullptr;  // see set_reads
  std::function<void(dialog_runtime&)> on_poisoned_;
};

}  // namespace parley::engine

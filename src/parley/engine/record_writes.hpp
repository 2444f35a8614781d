// Events of seed 002's records (docs/records.md) that the engine's own work does not produce: a
// turn's response window passing (the timer's verdict), the records write API, what the records'
// analyst found about a message, and the session a message opens. Each is an event in the
// dialog's log like any other, appended under the dialog's lock, so the records stay a projection
// of the log.
//
// Owns the record windows that dialogs created from now on are given; works on the dialogs
// through the dialog host, and runs the checks that read the records on its read thread. Runs on
// the engine's executor.
#pragma once

#include <boost/asio/awaitable.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/engine/dialog_host.hpp"
#include "parley/engine/record_windows.hpp"

namespace parley::engine {

// The records events a message opens (post_user_message_in_new_session), staged before it in its
// commit: a session, after closing a turn that would otherwise span two sessions; empty: none.
// It runs on the engine's read thread (set_store_reads): it may read the store, and must touch
// nothing of the loop's but values its caller keeps alive across the await.
using session_opener = std::function<result<std::vector<events::event_payload>>()>;

class record_writes {
 public:
  explicit record_writes(dialog_host& dialogs) : dialogs_(dialogs) {}

  // Records that the open turn `turn_id` of a dialog outlived its response window (seed 002); the
  // records reducer closes it as unresponded if it is still open. Appended under the dialog's lock.
  boost::asio::awaitable<result<void>> expire_turn_window(std::string dialog_id, std::string turn_id);
  // A write of seed 002's records API (records_event::session_opened, ...) to a dialog's log.
  // Under the dialog's lock, once everything appended before is committed, `check` decides
  // against the records as they are; its error is returned and nothing is appended. It runs on the
  // read thread, so it reads the store and nothing of the loop's.
  boost::asio::awaitable<result<void>> append_record_write(std::string dialog_id, events::event_payload write,
                                                           std::function<result<void>()> check);
  // What the records' analyst or embedder found about a message (record_message_analyzed,
  // record_message_embedded; message_analyst.hpp), appended under the dialog's lock.
  boost::asio::awaitable<result<void>> append_message_analysis(std::string dialog_id, events::event_payload analysis);
  // Stages the session `open` decides on, once what was staged before is committed (the records
  // it reads are current); the caller holds the dialog's lock. Whether one was staged.
  boost::asio::awaitable<result<bool>> stage_opened_session(dialog_runtime& dialog, const session_opener& open);

  // Response window and session gap (ms) of the records of dialogs created from now on; 0 keeps
  // seed 002's defaults (3 h, 1 h). Recorded in each dialog_created, so a rebuild uses them.
  void set_windows(std::int64_t turn_window_ms, std::int64_t session_gap_ms) noexcept {
    windows_.turn_window_ms = turn_window_ms;
    windows_.session_gap_ms = session_gap_ms;
  }
  const record_windows& windows() const noexcept { return windows_; }

 private:
  dialog_host& dialogs_;
  record_windows windows_;
};

}  // namespace parley::engine

// The records events the engine's own work does not produce (record_writes.hpp).
#include "parley/engine/record_writes.hpp"

#include "parley/model/conversation_reducer.hpp"

namespace parley::engine {

namespace asio = boost::asio;

asio::awaitable<result<void>> record_writes::expire_turn_window(std::string dialog_id, std::string turn_id) {
  auto loaded = co_await dialogs_.load_async(dialog_id);
  if (!loaded) co_return std::move(loaded).err();
  auto& dialog = **loaded;
  auto guard = co_await dialog.lock().acquire();
  if (auto staged = dialogs_.stage(dialog, events::turn_window_expired{std::move(turn_id)}); !staged) {
    co_return std::move(staged).err();
  }
  co_return co_await dialogs_.commit(dialog);
}

asio::awaitable<result<void>> record_writes::append_record_write(std::string dialog_id, events::event_payload write,
                                                                 std::function<result<void>()> check) {
  if (!events::is_records_write(write)) {
    co_return make_error(errc::invalid_argument, "not a records write: " + std::string(events::type_of(write)));
  }
  auto loaded = co_await dialogs_.load_async(dialog_id);
  if (!loaded) co_return std::move(loaded).err();
  auto& dialog = **loaded;
  auto guard = co_await dialog.lock().acquire();
  // Events sent but not awaited (a generation's start, tool results) must be in the records the
  // check reads.
  if (auto flushed = co_await dialogs_.commit(dialog); !flushed) co_return std::move(flushed).err();
  // The check reads the records, which first catch the projections up: on the read thread.
  if (auto allowed = co_await read_off_loop(dialogs_.reads(), check); !allowed) co_return std::move(allowed).err();
  if (auto staged = dialogs_.stage(dialog, std::move(write)); !staged) co_return std::move(staged).err();
  co_return co_await dialogs_.commit(dialog);
}

asio::awaitable<result<void>> record_writes::append_message_analysis(std::string dialog_id,
                                                                     events::event_payload analysis) {
  if (!events::is_message_analysis(analysis)) {
    co_return make_error(errc::invalid_argument, "not a message analysis: " + std::string(events::type_of(analysis)));
  }
  auto loaded = co_await dialogs_.load_async(dialog_id);
  if (!loaded) co_return std::move(loaded).err();
  auto& dialog = **loaded;
  auto guard = co_await dialog.lock().acquire();
  if (auto staged = dialogs_.stage(dialog, std::move(analysis)); !staged) co_return std::move(staged).err();
  co_return co_await dialogs_.commit(dialog);
}

asio::awaitable<result<bool>> record_writes::stage_opened_session(dialog_runtime& dialog, const session_opener& open) {
  // What the dialog sent but did not await (a generation's end, tool results) must be in the
  // records that `open` reads, and only the session may stay staged if the message is refused.
  if (auto flushed = co_await dialogs_.commit(dialog); !flushed) co_return std::move(flushed).err();
  // `open` reads the records and nothing of the loop's (session_opener): on the read thread, so
  // the records' catch-up does not stall the loop. The dialog's lock is held meanwhile.
  auto run_open = [&open] { return open(); };
  auto opening = co_await read_off_loop(dialogs_.reads(), std::move(run_open));
  if (!opening) co_return std::move(opening).err();
  for (auto& payload : *opening) {
    if (auto staged = dialogs_.stage(dialog, std::move(payload)); !staged) co_return std::move(staged).err();
  }
  co_return !opening->empty();
}

}  // namespace parley::engine

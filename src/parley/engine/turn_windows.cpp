// Closing a turn whose response window passed (docs/records.md): the timer's verdict is an event
// in the dialog's log like any other, so the records stay a projection of the log.
#include "parley/engine/engine.hpp"
#include "parley/model/conversation_reducer.hpp"

namespace parley::engine {

namespace asio = boost::asio;

asio::awaitable<result<void>> engine::expire_turn_window(std::string dialog_id, std::string turn_id) {
  auto loaded = load(dialog_id);
  if (!loaded) co_return std::move(loaded).err();
  auto& dialog = **loaded;
  auto guard = co_await dialog.lock().acquire();
  boost::json::object payload{{"turnId", turn_id}};
  if (auto staged = stage(dialog, records_event::turn_window_expired, std::move(payload)); !staged) {
    co_return std::move(staged).err();
  }
  co_return co_await commit(dialog);
}

void engine::add_record_windows(boost::json::object& created_payload) const {
  if (turn_window_ms_ > 0) created_payload["turnWindowMs"] = turn_window_ms_;
  if (session_gap_ms_ > 0) created_payload["sessionGapMs"] = session_gap_ms_;
}

}  // namespace parley::engine

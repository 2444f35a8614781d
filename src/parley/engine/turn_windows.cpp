// Events of seed 002's records (docs/records.md) that the engine's own work does not produce: a
// turn's response window passing (the timer's verdict) and the records write API. Each is an event
// in the dialog's log like any other, so the records stay a projection of the log.
#include "parley/engine/engine.hpp"
#include "parley/model/conversation_reducer.hpp"

namespace parley::engine {

namespace asio = boost::asio;

asio::awaitable<result<void>> engine::expire_turn_window(std::string dialog_id, std::string turn_id) {
  auto loaded = co_await load_async(dialog_id);
  if (!loaded) co_return std::move(loaded).err();
  auto& dialog = **loaded;
  auto guard = co_await dialog.lock().acquire();
  if (auto staged = stage(dialog, events::turn_window_expired{std::move(turn_id)}); !staged) {
    co_return std::move(staged).err();
  }
  co_return co_await commit(dialog);
}

asio::awaitable<result<void>> engine::append_record_write(std::string dialog_id, events::event_payload write,
                                                          std::function<result<void>()> check) {
  if (!events::is_records_write(write)) {
    co_return make_error(errc::invalid_argument, "not a records write: " + std::string(events::type_of(write)));
  }
  auto loaded = co_await load_async(dialog_id);
  if (!loaded) co_return std::move(loaded).err();
  auto& dialog = **loaded;
  auto guard = co_await dialog.lock().acquire();
  // Events sent but not awaited (a generation's start, tool results) must be in the records the
  // check reads.
  if (auto flushed = co_await commit(dialog); !flushed) co_return std::move(flushed).err();
  // The check reads the records, which first catch the projections up: on the read thread.
  if (auto allowed = co_await read_off_loop(reads_, check); !allowed) co_return std::move(allowed).err();
  if (auto staged = stage(dialog, std::move(write)); !staged) co_return std::move(staged).err();
  co_return co_await commit(dialog);
}

asio::awaitable<result<void>> engine::append_message_analysis(std::string dialog_id, events::event_payload analysis) {
  if (!events::is_message_analysis(analysis)) {
    co_return make_error(errc::invalid_argument, "not a message analysis: " + std::string(events::type_of(analysis)));
  }
  auto loaded = co_await load_async(dialog_id);
  if (!loaded) co_return std::move(loaded).err();
  auto& dialog = **loaded;
  auto guard = co_await dialog.lock().acquire();
  if (auto staged = stage(dialog, std::move(analysis)); !staged) co_return std::move(staged).err();
  co_return co_await commit(dialog);
}

llm::provider* engine::provider_of(std::string_view member_id) const {
  const auto member = members_.find(member_id);
  return member == members_.end() ? nullptr : member->second.provider;
}

void engine::add_record_windows(events::dialog_created& created) const { record_windows_.add_to(created); }

}  // namespace parley::engine

#include "parley/server/turn_window_timers.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <chrono>
#include <cstdio>
#include <utility>
#include <vector>

#include "parley/model/conversation_reducer.hpp"

namespace parley::server {

namespace asio = boost::asio;

namespace {

// Events after which a dialog's open turn may be another one (or none).
bool may_move_turn(const event& ev) {
  return ev.is<events::user_message>() || ev.is<events::generation_finished>() || ev.is<events::tool_result>() ||
         ev.is<events::reply_received>() || ev.is<events::question_asked>() || ev.is<events::question_answered>() ||
         ev.is<events::turn_window_expired>() || events::is_records_write(ev.payload);
}

// How long changes gather before the windows they may have moved are re-read: a deadline is set
// this much later at most, and it is an absolute time, so a window still closes when it should.
constexpr std::chrono::milliseconds kRefreshDelay{20};

}  // namespace

turn_window_timers::turn_window_timers(asio::any_io_executor executor, engine::engine& eng, records_query& records,
                                       clock now, engine::store_reads* reads)
    : executor_(executor),
      engine_(eng),
      records_(records),
      now_(std::move(now)),
      reads_(reads),
      timer_(executor),
      refresh_timer_(executor) {}

result<void> turn_window_timers::start() {
  auto pending = records_.pending_turns();
  if (!pending) return std::move(pending).err();
  for (const auto& turn : *pending) schedule_.set(turn);
  engine_.add_observer(this);
  arm();
  return ok();
}

void turn_window_timers::stop() {
  stopped_ = true;
  timer_.cancel();
  refresh_timer_.cancel();
}

void turn_window_timers::on_durable(const event& ev) {
  if (stopped_ || !may_move_turn(ev)) return;
  changed_.insert(ev.dialog_id);
  if (!refresh_armed_) arm_refresh();
}

void turn_window_timers::arm_refresh() {
  refresh_armed_ = true;
  refresh_timer_.expires_after(kRefreshDelay);
  refresh_timer_.async_wait([this](boost::system::error_code ec) {
    if (ec || stopped_) {
      refresh_armed_ = false;
      return;
    }
    asio::co_spawn(executor_, refresh_changed(), asio::detached);
  });
}

asio::awaitable<void> turn_window_timers::refresh_changed() {
  // Reading the records waits for their projection to catch up: on the read thread. Dialogs that
  // change meanwhile gather for the next refresh, armed once this one is in.
  std::vector<std::string> dialogs(changed_.begin(), changed_.end());
  changed_.clear();
  using windows = std::vector<std::pair<std::string, result<std::optional<pending_turn>>>>;
  auto read = [&records = records_, &dialogs] {
    windows out;
    for (const auto& dialog_id : dialogs) out.emplace_back(dialog_id, records.pending_turn_of(dialog_id));
    return out;
  };
  auto read_windows = co_await engine::read_off_loop(reads_, std::move(read));
  refresh_armed_ = false;
  if (stopped_) co_return;
  for (auto& [dialog_id, pending] : read_windows) {
    if (!pending) {
      std::fprintf(stderr, "parley: turn windows: %s\n", pending.err().message.c_str());
      continue;
    }
    if (*pending) {
      schedule_.set(**pending);
    } else {
      schedule_.erase(dialog_id);
    }
  }
  if (!changed_.empty()) arm_refresh();
  arm();
}

void turn_window_timers::arm() {
  const auto next = schedule_.next_deadline();
  if (stopped_ || !next || *next == armed_for_) return;
  armed_for_ = *next;
  const std::int64_t wait_ms = std::max<std::int64_t>(0, *next - now_());
  timer_.expires_after(std::chrono::milliseconds(wait_ms));
  timer_.async_wait([this](boost::system::error_code ec) {
    if (ec || stopped_) return;  // re-armed for another deadline, or stopped
    armed_for_ = -1;
    asio::co_spawn(executor_, expire_due(), asio::detached);
  });
}

asio::awaitable<void> turn_window_timers::expire_due() {
  const auto due = schedule_.take_due(now_());
  for (const pending_turn& turn : due) {
    auto expired = co_await engine_.records().expire_turn_window(turn.dialog_id, turn.turn_id);
    if (!expired) {
      std::fprintf(stderr, "parley: closing the response window of dialog %s: %s\n", turn.dialog_id.c_str(),
                   expired.err().message.c_str());
    }
  }
  arm();
}

}  // namespace parley::server

// The response windows of open turns (seed 002) as timers: when a window passes, the engine logs
// `turn_window_expired` and the records close the turn. Windows are read from the records, so
// they survive restarts: at start every window that passed while the server was down fires at
// once (closed_at is still started_at + window, which the reducer computes).
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_set>

#include "parley/core/result.hpp"
#include "parley/engine/engine.hpp"
#include "parley/engine/observer.hpp"
#include "parley/engine/store_reads.hpp"
#include "parley/store/records_query.hpp"
#include "parley/store/turn_window_schedule.hpp"

namespace parley::server {

class turn_window_timers final : public engine::engine_observer {
 public:
  using clock = std::function<std::int64_t()>;  // UTC ms; the log's clock (now_ms) in production

  // The windows are re-read on `reads`, the store's read thread (null: on the loop).
  turn_window_timers(boost::asio::any_io_executor executor, engine::engine& eng, records_query& records, clock now,
                     engine::store_reads* reads = nullptr);
  // Loads every open window and arms the timer. Call once, after recovery and before the loop
  // serves: this one read is made right here.
  result<void> start();
  // Cancels the timer (shutdown); nothing fires afterwards.
  void stop();

  // A durable event may open or close its dialog's turn: that dialog's window is re-read soon,
  // with every other dialog's that changed meanwhile. Reading the records catches their
  // projection up with the log (a transaction of its own), so reading once per event would undo
  // the batching that keeps the projections cheap; a window is never shorter than a second.
  void on_durable(const event& ev) override;

  std::size_t open_windows() const noexcept { return schedule_.size(); }

 private:
  void arm();
  void arm_refresh();
  boost::asio::awaitable<void> refresh_changed();
  boost::asio::awaitable<void> expire_due();

  boost::asio::any_io_executor executor_;
  engine::engine& engine_;
  records_query& records_;
  clock now_;
  engine::store_reads* reads_;
  turn_window_schedule schedule_;
  boost::asio::steady_timer timer_;
  std::int64_t armed_for_ = -1;  // the deadline the timer waits for, -1 when idle
  boost::asio::steady_timer refresh_timer_;
  std::unordered_set<std::string> changed_;  // dialogs whose window is to be re-read
  bool refresh_armed_ = false;               // from the refresh's timer until its read is in
  bool stopped_ = false;
};

}  // namespace parley::server

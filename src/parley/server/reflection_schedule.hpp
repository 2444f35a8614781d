// Self-reflection on a schedule (seed 002: reflection opened by a schedule): every `every` the
// members with `self_reflection: true` each start a reflection toward `goal`, recorded with
// trigger_source `schedule`, each in a new session of the member's one reflection dialogue for
// that goal (engine::start_reflection). A member still busy with its previous reflection skips a
// tick. Runs on the server's executor; stop() ends it.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <string>

#include "parley/engine/engine.hpp"

namespace parley::server {

class reflection_schedule {
 public:
  reflection_schedule(boost::asio::any_io_executor executor, engine::engine& eng, std::chrono::milliseconds every,
                      std::string goal);
  reflection_schedule(const reflection_schedule&) = delete;
  reflection_schedule& operator=(const reflection_schedule&) = delete;

  void start();
  void stop();

 private:
  void arm();
  void reflect_now();
  boost::asio::awaitable<void> reflect(std::string member_id);

  boost::asio::any_io_executor executor_;
  engine::engine& engine_;
  std::chrono::milliseconds every_;
  std::string goal_;
  boost::asio::steady_timer timer_;
  bool stopped_ = false;
};

}  // namespace parley::server

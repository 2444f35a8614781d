#include "parley/server/reflection_schedule.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>

#include <cstdio>

namespace parley::server {

namespace asio = boost::asio;

reflection_schedule::reflection_schedule(asio::any_io_executor executor, engine::engine& eng,
                                         std::chrono::milliseconds every, std::string goal)
    : executor_(executor), engine_(eng), every_(every), goal_(std::move(goal)), timer_(executor) {}

void reflection_schedule::start() { arm(); }

void reflection_schedule::stop() {
  stopped_ = true;
  timer_.cancel();
}

void reflection_schedule::arm() {
  if (stopped_) return;
  timer_.expires_after(every_);
  timer_.async_wait([this](boost::system::error_code ec) {
    if (ec || stopped_) return;
    reflect_now();
    arm();
  });
}

void reflection_schedule::reflect_now() {
  for (const auto& member : engine_.team().members) {
    if (!member.self_reflection) continue;
    asio::co_spawn(executor_, reflect(member.id), asio::detached);
  }
}

asio::awaitable<void> reflection_schedule::reflect(std::string member_id) {
  std::string trigger = "schedule";
  std::string goal = goal_;
  auto started = co_await engine_.start_reflection(member_id, std::move(trigger), std::move(goal));
  // A member still reflecting on the goal (a conflict) skips this tick; the engine says so.
  if (!started && started.err().code != errc::conflict) {
    std::fprintf(stderr, "parley: scheduled reflection of @%s: %s\n", member_id.c_str(), started.err().message.c_str());
  }
}

}  // namespace parley::server

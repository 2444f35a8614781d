// The process the crash test kills: drives one long scripted dialog on a SQLite store and
// prints "ACK <dialog> <seq>" for every event the moment it is durable.
// usage: parley_crash_child TEAM_FILE DATA_DIR
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include <cstdio>

#include "parley/engine/assembly.hpp"
#include "parley/engine/engine.hpp"

namespace {

class ack_printer final : public parley::engine::engine_observer {
 public:
  void on_durable(const parley::event& ev) override {
    std::printf("ACK %s %lld\n", ev.dialog_id.c_str(), static_cast<long long>(ev.seq));
    std::fflush(stdout);
  }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: parley_crash_child TEAM_FILE DATA_DIR\n");
    return 2;
  }
  auto team = parley::config::load_team_file(argv[1]);
  auto log = parley::open_sqlite_store(argv[2]);
  if (!team || !log) {
    std::fprintf(stderr, "crash child: %s\n", (!team ? team.err() : log.err()).message.c_str());
    return 2;
  }
  auto providers = parley::engine::build_providers(*team);
  if (!providers) return 2;
  boost::asio::io_context io;
  auto eng = parley::engine::engine::create(io.get_executor(), **log, *team, std::move(*providers),
                                            parley::engine::build_builtin_tools());
  if (!eng) return 2;
  ack_printer printer;
  (*eng)->add_observer(&printer);
  int status = 1;
  boost::asio::co_spawn(
      io,
      [&]() -> boost::asio::awaitable<void> {
        parley::engine::new_dialog spec{"worker", "", ""};
        auto id = co_await (*eng)->create_root_dialog(std::move(spec));
        if (!id) co_return;
        if (!co_await (*eng)->post_user_message(*id, "count to the end")) co_return;
        co_await (*eng)->wait_until_idle(*id);
        status = (*eng)->find(*id)->row().last_error.empty() ? 0 : 1;
      },
      boost::asio::detached);
  io.run();
  return status;
}

// The process the crash test kills: drives scripted dialogs on a SQLite store and prints
// "ACK <dialog> <seq>" for every event the moment it is durable.
// usage: parley_crash_child TEAM_FILE DATA_DIR          one long dialog of member `worker`
//        parley_crash_child TEAM_FILE DATA_DIR --tree   a `lead` root that tellasks subdialogs; on a
//            store that already has it (a restart), recovers from the log and drives it to the end;
//            then stops the team's MCP servers, if it has any (tests/crash/mcp_crash_test.cpp)
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include <cstdio>
#include <string>

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

// The tree mode: start the root, or continue it after a kill, until the hierarchy settles.
boost::asio::awaitable<int> drive_tree(parley::engine::engine& eng, parley::store& log) {
  parley::dialog_filter roots;
  roots.roots_only = true;
  auto rows = log.list_dialogs(roots);
  if (!rows) co_return 1;
  std::string root_id;
  if (rows->empty()) {
    parley::engine::new_dialog spec{"lead", "", ""};
    auto id = co_await eng.create_root_dialog(std::move(spec));
    if (!id) co_return 1;
    root_id = *id;
  } else {
    root_id = rows->front().id;
    if (!eng.runs().recover_all()) co_return 1;
  }
  auto loaded = eng.dialogs().load(root_id);
  if (!loaded) co_return 1;
  // Killed before the question was durable: ask it now.
  if ((*loaded)->messages().empty()) {
    auto posted = co_await eng.post_user_message(root_id, "delegate");
    if (!posted) co_return 1;
  }
  co_await eng.runs().wait_until_settled(root_id);
  eng.stop_mcp();  // a team with MCP servers: their processes would keep the loop running
  const auto& messages = (*loaded)->messages();
  const bool done = !messages.empty() && messages.back().role == parley::events::message_role::assistant &&
                    messages.back().content.find("all done") != std::string::npos;
  std::printf("FINAL %s\n", done ? messages.back().content.c_str() : "(not done)");
  co_return done ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const bool tree = argc == 4 && std::string(argv[3]) == "--tree";
  if (argc != 3 && !tree) {
    std::fprintf(stderr, "usage: parley_crash_child TEAM_FILE DATA_DIR [--tree]\n");
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
  if (tree) {
    boost::asio::co_spawn(
        io, [&]() -> boost::asio::awaitable<void> { status = co_await drive_tree(**eng, **log); },
        boost::asio::detached);
    io.run();
    return status;
  }
  boost::asio::co_spawn(
      io,
      [&]() -> boost::asio::awaitable<void> {
        parley::engine::new_dialog spec{"worker", "", ""};
        auto id = co_await (*eng)->create_root_dialog(std::move(spec));
        if (!id) co_return;
        if (!co_await (*eng)->post_user_message(*id, "count to the end")) co_return;
        co_await (*eng)->runs().wait_until_idle(*id);
        status = (*eng)->find(*id)->row().last_error.empty() ? 0 : 1;
      },
      boost::asio::detached);
  io.run();
  return status;
}

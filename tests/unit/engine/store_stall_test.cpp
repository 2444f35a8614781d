// A drive the log refused (a full disk) is not a silent stall: once the log takes writes again
// the engine records the failure and drives the dialog again, by itself.
#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>

#include "engine_test_support.hpp"
#include "parley/core/json.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/engine/engine.hpp"

namespace parley::engine {
namespace {

namespace asio = boost::asio;
using testing::temp_team;

// A memory store that, while `refusing` is set, refuses every append but those that bring a user's
// message (so a dialog can be created and then fail in its drive), as a disk that filled up
// right after the message was taken would.
class refusing_store final : public testing::forwarding_store {
 public:
  std::atomic<bool> refusing{false};

  void append(std::vector<event> batch, append_callback on_durable) override {
    const bool brings_input =
        std::any_of(batch.begin(), batch.end(), [](const event& ev) { return ev.is<events::user_message>(); });
    if (refusing && !brings_input) {
      if (on_durable) on_durable(make_error(errc::io_error, "database or disk is full (injected)"));
      return;
    }
    forwarding_store::append(std::move(batch), std::move(on_durable));
  }
};

// Polls `done` every 10 ms, at most 30 s: the retry waits a second of real time.
asio::awaitable<bool> eventually(const std::function<bool()>& done) {
  asio::steady_timer timer(co_await asio::this_coro::executor);
  for (int i = 0; i < 3000; ++i) {
    if (done()) co_return true;
    timer.expires_after(std::chrono::milliseconds(10));
    co_await timer.async_wait(asio::use_awaitable);
  }
  co_return done();
}

// A lead that answers "hello back", on a store that can be made to refuse its drive's writes.
class store_stalls_fixture : public ::testing::Test {
 protected:
  void SetUp() override {
    auto made = engine::create(io.get_executor(), log, files.load(), build_providers(files.load()).value(),
                               build_builtin_tools());
    ASSERT_TRUE(made.has_value()) << made.err().message;
    eng = std::move(*made);
  }

  // Creates a dialog whose first message is taken and whose drive the log refuses.
  asio::awaitable<std::string> create_refused_dialog() {
    log.refusing = true;
    new_dialog spec{"lead", "", ""};
    spec.first_message = "hi";
    co_return (co_await eng->create_root_dialog(std::move(spec))).value();
  }

  temp_team files{testing::kOneMemberTeam, "members:\n  lead:\n    - emit: [{saying: \"hello back\"}]\n"};
  refusing_store log;
  asio::io_context io;
  std::unique_ptr<engine> eng;
};
using StoreStalls = store_stalls_fixture;

TEST_F(StoreStalls, ADriveTheLogRefusedIsRecordedAndDrivenAgainOnceItTakesWrites) {
  engine& e = *eng;
  e.drives().set_store_retry(true);
  std::string id;
  bool stalled_seen = false;
  bool answered = false;
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        id = co_await create_refused_dialog();
        stalled_seen = co_await eventually([&] { return e.drives().stalled_dialogs() == 1; });
        log.refusing = false;
        answered = co_await eventually([&] {
          const auto* dialog = e.find(id);
          return e.drives().stalled_dialogs() == 0 && dialog != nullptr && !dialog->messages().empty() &&
                 dialog->messages().back().content == "hello back";
        });
      },
      asio::detached);
  io.run();
  EXPECT_TRUE(stalled_seen);
  ASSERT_TRUE(answered);
  const auto events = log.read_events(id, 0).value();
  std::vector<std::string> types;
  types.reserve(events.size());
  for (const auto& ev : events) types.emplace_back(ev.type());
  const auto failed = std::find(types.begin(), types.end(), event_type::drive_failed);
  ASSERT_NE(failed, types.end());
  const auto& failure = events[static_cast<std::size_t>(failed - types.begin())];
  ASSERT_TRUE(failure.is<events::drive_failed>());
  EXPECT_NE(failure.as<events::drive_failed>()->message.find("database or disk is full (injected)"), std::string::npos);
  EXPECT_EQ(*(failed + 1), event_type::drive_resumed);
  EXPECT_EQ(types.back(), event_type::generation_finished);
  EXPECT_EQ(log.get_dialog(id).value()->last_error, "");
}

TEST_F(StoreStalls, WithoutRetriesAStalledDriveIsLeftForTheNextStart) {
  std::string id;
  asio::co_spawn(
      io, [&]() -> asio::awaitable<void> { id = co_await create_refused_dialog(); }, asio::detached);
  io.run();  // returns: nothing waits for the disk
  EXPECT_EQ(eng->drives().stalled_dialogs(), 0U);
  EXPECT_TRUE(log.get_dialog(id).value()->needs_drive);
}

}  // namespace
}  // namespace parley::engine

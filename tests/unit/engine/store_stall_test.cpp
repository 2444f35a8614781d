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

// A memory store that refuses every append while `refusing` is set, as a full disk would.
class refusing_store final : public store {
 public:
  std::atomic<bool> refusing{false};

  void append(std::vector<event> batch, append_callback on_durable) override {
    if (refusing) {
      if (on_durable) on_durable(make_error(errc::io_error, "database or disk is full (injected)"));
      return;
    }
    inner_->append(std::move(batch), std::move(on_durable));
  }
  void flush() override { inner_->flush(); }
  result<std::vector<event>> read_events(std::string_view id, std::int64_t after) override {
    return inner_->read_events(id, after);
  }
  result<std::vector<event>> read_all_events() override { return inner_->read_all_events(); }
  result<std::vector<dialog_row>> list_dialogs(const dialog_filter& filter) override {
    return inner_->list_dialogs(filter);
  }
  result<std::optional<dialog_row>> get_dialog(std::string_view id) override { return inner_->get_dialog(id); }
  result<std::vector<message_row>> messages(std::string_view id, std::int64_t course) override {
    return inner_->messages(id, course);
  }
  result<std::optional<input_record>> find_input(std::string_view msg_id) override {
    return inner_->find_input(msg_id);
  }
  result<void> rebuild_projections() override { return inner_->rebuild_projections(); }
  store_stats stats() const override { return inner_->stats(); }

 private:
  std::unique_ptr<store> inner_ = make_memory_store();
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

TEST(StoreStalls, ADriveTheLogRefusedIsRecordedAndDrivenAgainOnceItTakesWrites) {
  temp_team files(testing::kOneMemberTeam, "members:\n  lead:\n    - emit: [{saying: \"hello back\"}]\n");
  refusing_store log;
  asio::io_context io;
  auto eng = engine::create(io.get_executor(), log, files.load(), build_providers(files.load()).value(),
                            build_builtin_tools());
  ASSERT_TRUE(eng.has_value());
  engine& e = **eng;
  e.set_store_retry(true);
  std::string id;
  bool stalled_seen = false;
  bool answered = false;
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        new_dialog spec{"lead", "", ""};
        spec.first_message = "hi";
        id = (co_await e.create_root_dialog(std::move(spec))).value();
        log.refusing = true;  // the message is durable; the drive that follows is refused
        stalled_seen = co_await eventually([&] { return e.stalled_dialogs() == 1; });
        log.refusing = false;
        answered = co_await eventually([&] {
          const auto* dialog = e.find(id);
          return e.stalled_dialogs() == 0 && dialog != nullptr && !dialog->messages().empty() &&
                 dialog->messages().back().content == "hello back";
        });
      },
      asio::detached);
  io.run();
  EXPECT_TRUE(stalled_seen);
  ASSERT_TRUE(answered);
  const auto events = log.read_events(id, 0).value();
  std::vector<std::string> types;
  for (const auto& ev : events) types.push_back(ev.type);
  const auto failed = std::find(types.begin(), types.end(), event_type::drive_failed);
  ASSERT_NE(failed, types.end());
  const auto& failure = events[static_cast<std::size_t>(failed - types.begin())];
  EXPECT_NE(json_string_or(failure.payload, "message").find("database or disk is full (injected)"),
            std::string::npos);
  EXPECT_EQ(*(failed + 1), event_type::drive_resumed);
  EXPECT_EQ(types.back(), event_type::generation_finished);
  EXPECT_EQ(log.get_dialog(id).value()->last_error, "");
}

TEST(StoreStalls, WithoutRetriesAStalledDriveIsLeftForTheNextStart) {
  temp_team files(testing::kOneMemberTeam, "members:\n  lead:\n    - emit: [{saying: \"hello back\"}]\n");
  refusing_store log;
  asio::io_context io;
  auto eng = engine::create(io.get_executor(), log, files.load(), build_providers(files.load()).value(),
                            build_builtin_tools());
  ASSERT_TRUE(eng.has_value());
  std::string id;
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        new_dialog spec{"lead", "", ""};
        spec.first_message = "hi";
        id = (co_await (*eng)->create_root_dialog(std::move(spec))).value();
        log.refusing = true;
      },
      asio::detached);
  io.run();  // returns: nothing waits for the disk
  EXPECT_EQ((*eng)->stalled_dialogs(), 0U);
  EXPECT_TRUE(log.get_dialog(id).value()->needs_drive);
}

}  // namespace
}  // namespace parley::engine

// The engine's own reads of the store run on the read thread it is given (dialog_host::set_reads):
// a dialog coming back into memory and a msgId's retry check wait for the store — the SQLite
// store's catch-up, here a gate the test holds shut — while the loop goes on serving. And with the
// check awaited, two inputs with the same msgId at once still make one dialog (input_claims.hpp).
#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <atomic>
#include <chrono>
#include <future>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "engine_test_support.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/engine/engine.hpp"
#include "parley/engine/store_reads.hpp"

namespace parley::engine {
namespace {

namespace asio = boost::asio;
using namespace std::chrono_literals;
using testing::forwarding_store;
using testing::kOneMemberTeam;
using testing::temp_team;

// Reads of the log (a dialog's events, a msgId) wait at a gate while it is shut, and note the
// thread they ran on. A read that waits longer than the test allows gives up and says so, so a read
// made on the loop fails the test instead of hanging it.
class gated_store final : public forwarding_store {
 public:
  void shut() { shut_ = true; }
  void open() { opened_.set_value(); }

  result<std::vector<event>> read_events(std::string_view id, std::int64_t after) override {
    wait_at_gate();
    return forwarding_store::read_events(id, after);
  }
  result<std::optional<input_record>> find_input(std::string_view msg_id) override {
    wait_at_gate();
    return forwarding_store::find_input(msg_id);
  }

  std::vector<std::thread::id> gated_reads_on() const {
    const std::lock_guard lock(mutex_);
    return gated_reads_on_;
  }
  bool timed_out() const { return timed_out_; }

 private:
  void wait_at_gate() {
    if (!shut_) return;
    {
      const std::lock_guard lock(mutex_);
      gated_reads_on_.push_back(std::this_thread::get_id());
    }
    if (opens_.wait_for(5s) != std::future_status::ready) timed_out_ = true;
  }

  std::atomic<bool> shut_{false};
  std::atomic<bool> timed_out_{false};
  std::promise<void> opened_;
  std::shared_future<void> opens_ = opened_.get_future().share();
  mutable std::mutex mutex_;
  std::vector<std::thread::id> gated_reads_on_;
};

struct engine_store_reads : ::testing::Test {
  result<std::unique_ptr<engine>> make_engine(store& log) {
    auto team = files.load();
    auto providers = build_providers(team);
    if (!providers) return std::move(providers).err();
    return engine::create(io.get_executor(), log, team, std::move(*providers), build_builtin_tools());
  }

  temp_team files{kOneMemberTeam, "members: {lead: [{emit: [{saying: ok}]}]}\n"};
  asio::io_context io;
};
using EngineStoreReads = engine_store_reads;

TEST_F(EngineStoreReads, ADialogReadBackAndItsMsgIdCheckWaitOnTheReadThreadWhileTheLoopServes) {
  gated_store log;
  std::string id;
  {  // An earlier process made the dialog.
    auto first = make_engine(log);
    ASSERT_TRUE(first.has_value()) << first.err().message;
    asio::co_spawn(
        io,
        [&]() -> asio::awaitable<void> {
          new_dialog spec{"lead", "", ""};
          spec.first_message = "task";
          id = (co_await (*first)->create_root_dialog(std::move(spec))).value();
          co_await (*first)->runs().wait_until_idle(id);
        },
        asio::detached);
    io.run();
    io.restart();
  }
  auto eng = make_engine(log);
  ASSERT_TRUE(eng.has_value()) << eng.err().message;
  store_reads reads;
  (*eng)->dialogs().set_reads(&reads);
  log.shut();

  std::vector<std::string> order;
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        // Not in memory: its events are read, then its msgId is looked up — each behind the gate.
        auto posted = co_await (*eng)->post_user_message(id, "again", "m-2", "ann");
        EXPECT_TRUE(posted.has_value()) << posted.err().message;
        order.push_back("posted");
        co_await (*eng)->runs().wait_until_idle(id);
      },
      asio::detached);
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        // Runs only if the loop is free while the post waits for its read.
        asio::steady_timer tick(io, 20ms);
        co_await tick.async_wait(asio::use_awaitable);
        order.push_back("the loop ran while the read waited");
        log.open();
      },
      asio::detached);
  const auto loop_thread = std::this_thread::get_id();
  io.run();

  EXPECT_FALSE(log.timed_out()) << "a read waited on the loop for a gate only the loop opens";
  EXPECT_EQ(order, (std::vector<std::string>{"the loop ran while the read waited", "posted"}));
  const auto gated = log.gated_reads_on();
  ASSERT_EQ(gated.size(), 2U) << "the dialog's events and the msgId";
  for (const auto& thread : gated) EXPECT_NE(thread, loop_thread);
  ASSERT_NE((*eng)->find(id), nullptr);
  EXPECT_EQ((*eng)->find(id)->messages().size(), 4U);  // task, ok, again, ok
}

TEST_F(EngineStoreReads, TwoCreatesWithOneMsgIdAtOnceMakeOneDialog) {
  auto log = make_memory_store();
  auto eng = make_engine(*log);
  ASSERT_TRUE(eng.has_value()) << eng.err().message;
  store_reads reads;  // the checks are awaited, so the two creates interleave
  (*eng)->dialogs().set_reads(&reads);
  std::vector<std::string> made;
  for (int i = 0; i < 2; ++i) {
    asio::co_spawn(
        io,
        [&]() -> asio::awaitable<void> {
          new_dialog spec{"lead", "", ""};
          spec.first_message = "the same task";
          spec.first_message_id = "m-1";
          spec.first_message_from = "ann";
          auto id = co_await (*eng)->create_root_dialog(std::move(spec));
          EXPECT_TRUE(id.has_value()) << id.err().message;
          if (id) made.push_back(*id);
        },
        asio::detached);
  }
  io.run();
  ASSERT_EQ(made.size(), 2U);
  EXPECT_EQ(made[0], made[1]);
  auto roots = log->list_dialogs({});
  ASSERT_TRUE(roots.has_value());
  EXPECT_EQ(roots->size(), 1U);
}

}  // namespace
}  // namespace parley::engine

// The engine's bridge to the store: a commit of nothing is a barrier for earlier sends, costs no
// trip to the store when none is on its way, and reports a refused send of its dialog.
#include "parley/engine/log_writer.hpp"
#include "support/typed_events.hpp"

#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include <filesystem>
#include <random>

#include "parley/store/store.hpp"

namespace parley::engine {
namespace {

namespace asio = boost::asio;

event created_event(const std::string& id) {
  return test::typed_event(id, id, 1, event_type::dialog_created,
                           boost::json::object{{"memberId", "lead"}, {"kind", "root"}, {"depth", 0}},
                           1'700'000'000'000);
}

struct durable_events : engine_observer {
  std::vector<std::string> seen;
  void on_durable(const event& ev) override { seen.push_back(ev.dialog_id); }
};

class LogWriterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device device;
    dir_ = std::filesystem::temp_directory_path() / ("parley-log-writer-" + std::to_string(device()));
    auto opened = open_sqlite_store(dir_.string());
    ASSERT_TRUE(opened) << opened.err().message;
    log_ = std::move(*opened);
  }
  void TearDown() override {
    log_.reset();
    std::filesystem::remove_all(dir_);
  }

  // Runs `body` on the io_context to its end.
  template <typename Body>
  void run(Body body) {
    asio::co_spawn(io_, body(), asio::detached);
    io_.run();
    io_.restart();
  }

  std::filesystem::path dir_;
  std::unique_ptr<store> log_;
  asio::io_context io_;
};

TEST_F(LogWriterTest, AnEmptyCommitAfterASendReturnsOnlyOnceTheSendIsDurableAndObserved) {
  durable_events observer;
  std::vector<engine_observer*> observers{&observer};
  log_writer writer(*log_, io_.get_executor(), observers);
  bool durable_at_return = false;
  std::vector<std::string> observed_at_return;
  run([&]() -> asio::awaitable<void> {
    std::vector<event> batch;
    batch.push_back(created_event("d1"));
    writer.send(std::move(batch));
    std::vector<event> nothing;
    auto committed = co_await writer.commit("d1", std::move(nothing));
    EXPECT_TRUE(committed);
    durable_at_return = log_->get_dialog("d1").value().has_value();
    observed_at_return = observer.seen;
  });
  EXPECT_TRUE(durable_at_return);
  EXPECT_EQ(observed_at_return, (std::vector<std::string>{"d1"}));
}

TEST_F(LogWriterTest, AnEmptyCommitWithNothingInFlightMakesNoTransaction) {
  std::vector<engine_observer*> observers;
  log_writer writer(*log_, io_.get_executor(), observers);
  std::int64_t before = 0;
  std::int64_t after = 0;
  run([&]() -> asio::awaitable<void> {
    std::vector<event> batch;
    batch.push_back(created_event("d1"));
    auto first = co_await writer.commit("d1", std::move(batch));
    EXPECT_TRUE(first);
    before = log_->stats().transactions;
    for (int i = 0; i < 3; ++i) {
      std::vector<event> nothing;
      auto committed = co_await writer.commit("d1", std::move(nothing));
      EXPECT_TRUE(committed);
    }
    after = log_->stats().transactions;
  });
  EXPECT_GT(before, 0);
  EXPECT_EQ(after, before);
}

TEST_F(LogWriterTest, ARefusedSendFailsTheNextCommitOfItsDialogOnce) {
  std::vector<engine_observer*> observers;
  log_writer writer(*log_, io_.get_executor(), observers);
  std::vector<result<void>> outcomes;
  run([&]() -> asio::awaitable<void> {
    std::vector<event> ghost;
    ghost.push_back(test::typed_event("ghost", "ghost", 2, event_type::status_changed,
                                      boost::json::object{{"status", "completed"}}, 1'700'000'000'000));
    writer.send(std::move(ghost));  // no such dialog: the store refuses it
    std::vector<event> other;
    other.push_back(created_event("other"));
    outcomes.push_back(co_await writer.commit("other", std::move(other)));
    outcomes.push_back(co_await writer.commit("ghost", {}));
    outcomes.push_back(co_await writer.commit("ghost", {}));
  });
  ASSERT_EQ(outcomes.size(), 3U);
  EXPECT_TRUE(outcomes[0]);  // another dialog's commit is not failed by it
  ASSERT_FALSE(outcomes[1]);
  EXPECT_EQ(outcomes[1].err().code, errc::not_found);
  EXPECT_NE(outcomes[1].err().message.find("ghost"), std::string::npos) << outcomes[1].err().message;
  EXPECT_TRUE(outcomes[2]);  // reported once
}

}  // namespace
}  // namespace parley::engine

// The SQLite store under injected faults: the Nth write, the Nth sync, the Nth allocation failing,
// and a full disk. Whatever fails, every input the engine acknowledged is in the log exactly once
// after a restart, every refused one was reported to its sender (and is at most once in the log:
// a commit whose sync failed may still have reached the disk), `parley check` finds nothing wrong,
// and the engine drives what stalled by itself once the fault clears.
#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "fault_vfs.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/engine/engine.hpp"
#include "parley/engine/integrity.hpp"
#include "unit/engine/engine_test_support.hpp"

namespace parley::engine {
namespace {

namespace asio = boost::asio;
using parley::testing::clear_faults;
using parley::testing::injected_faults;

constexpr int kRoots = 3;
constexpr int kMessagesPerRoot = 4;

// Polls `done` every 10 ms, at most 60 s: the engine's retry of a stalled drive waits a second.
asio::awaitable<bool> eventually(const std::function<bool()>& done) {
  asio::steady_timer timer(co_await asio::this_coro::executor);
  for (int i = 0; i < 6000; ++i) {
    if (done()) co_return true;
    timer.expires_after(std::chrono::milliseconds(10));
    co_await timer.async_wait(asio::use_awaitable);
  }
  co_return done();
}

struct sent_message {
  std::string dialog_id;
  std::string text;
  bool acknowledged = false;
};

class store_faults_fixture : public ::testing::Test {
 protected:
  void SetUp() override {
    clear_faults();
    std::random_device device;
    data_dir_ = std::filesystem::temp_directory_path() / ("parley-faults-" + std::to_string(device()));
    std::filesystem::create_directories(data_dir_);
  }
  void TearDown() override {
    clear_faults();
    std::filesystem::remove_all(data_dir_);
  }

  // Creates the roots with no fault, arms `arm`, sends every message, then clears the faults
  // (`clear_after_sending`: a full disk stays full until then) and waits until every root has
  // answered its last acknowledged message with nothing stalled.
  void run_under(const std::function<void()>& arm, bool clear_after_sending) {
    auto opened = open_sqlite_store(data_dir_.string());
    ASSERT_TRUE(opened) << opened.err().message;
    auto log = std::move(*opened);
    asio::io_context io;
    auto made = engine::create(io.get_executor(), *log, files_.load(), build_providers(files_.load()).value(),
                               build_builtin_tools());
    ASSERT_TRUE(made) << made.err().message;
    auto eng = std::move(*made);
    eng->drives().set_store_retry(true);
    bool recovered = false;
    // A member coroutine, not a capturing lambda: the lambda object would be gone before it runs.
    asio::co_spawn(io, send_and_recover(*eng, arm, clear_after_sending, recovered), asio::detached);
    io.run();
    EXPECT_TRUE(recovered) << "the engine did not drive every stalled dialog once the fault cleared";
    eng.reset();
    log->flush();
  }

  asio::awaitable<void> send_and_recover(engine& eng, std::function<void()> arm, bool clear_after_sending,
                                         bool& recovered) {
    for (int r = 0; r < kRoots; ++r) {
      new_dialog spec{"lead", "root " + std::to_string(r), ""};
      auto created = co_await eng.create_root_dialog(std::move(spec));
      EXPECT_TRUE(created) << created.err().message;
      if (!created) co_return;
      roots_.push_back(*created);
    }
    arm();
    for (int i = 0; i < kMessagesPerRoot; ++i) {
      for (const auto& root : roots_) {
        sent_message sent{root, "message " + std::to_string(sent_.size())};
        auto posted = co_await eng.post_user_message(root, sent.text);
        sent.acknowledged = static_cast<bool>(posted);
        sent_.push_back(std::move(sent));
      }
    }
    if (clear_after_sending) clear_faults();
    recovered = co_await eventually([&] {
      if (eng.drives().stalled_dialogs() != 0) return false;
      for (const auto& root : roots_with_acknowledged_input()) {
        const auto* dialog = eng.find(root);
        if (dialog == nullptr || dialog->messages().empty()) return false;
        if (dialog->messages().back().content != "hello back") return false;
      }
      return true;
    });
    if (!recovered) {
      for (const auto& root : roots_) {
        const auto* dialog = eng.find(root);
        if (dialog == nullptr) {
          ADD_FAILURE() << root << ": not loaded";
          continue;
        }
        ADD_FAILURE() << root << ": stalled " << eng.drives().stalled_dialogs() << ", last message '"
                      << (dialog->messages().empty() ? std::string() : dialog->messages().back().content)
                      << "', needsDrive " << dialog->row().needs_drive << ", lastError '" << dialog->row().last_error
                      << "', poisoned " << dialog->poisoned;
      }
    }
    for (const auto& root : roots_) co_await eng.runs().wait_until_settled(root);
  }

  // Reopens the store as a restart would and checks what it holds.
  void expect_log_holds_every_acknowledged_input() {
    clear_faults();
    auto reopened = open_sqlite_store(data_dir_.string());
    ASSERT_TRUE(reopened) << reopened.err().message;
    auto& log = **reopened;
    int acknowledged = 0;
    for (const auto& sent : sent_) {
      auto messages = log.messages(sent.dialog_id, 0);
      ASSERT_TRUE(messages) << messages.err().message;
      const auto copies = std::count_if(messages->begin(), messages->end(), [&](const message_row& m) {
        return m.role == parley::events::message_role::user && m.content == sent.text;
      });
      if (sent.acknowledged) {
        ++acknowledged;
        EXPECT_EQ(copies, 1) << sent.text << " was acknowledged";
      } else {
        EXPECT_LE(copies, 1) << sent.text << " was refused";
      }
    }
    for (const auto& root : roots_with_acknowledged_input()) {
      auto messages = log.messages(root, 0);
      ASSERT_TRUE(messages);
      ASSERT_FALSE(messages->empty());
      EXPECT_EQ(messages->back().content, "hello back") << "root " << root << " was left unanswered";
    }
    auto report = check_integrity(log);
    ASSERT_TRUE(report) << report.err().message;
    EXPECT_TRUE(report->problems.empty()) << report->problems.front();
  }

  std::vector<std::string> roots_with_acknowledged_input() const {
    std::vector<std::string> out;
    for (const auto& root : roots_) {
      if (std::any_of(sent_.begin(), sent_.end(),
                      [&](const sent_message& s) { return s.dialog_id == root && s.acknowledged; })) {
        out.push_back(root);
      }
    }
    return out;
  }

  // One-shot faults fire exactly once; a lasting one (a full disk) holds until the messages are
  // sent and must refuse at least one of them.
  enum class fault_kind { once, lasting };

  // Runs the workload on a fresh store once per `n`, with `arm(n)` injecting the fault.
  void for_each_fault(const std::string& what, std::initializer_list<std::int64_t> ns, void (*arm)(std::int64_t),
                      fault_kind kind = fault_kind::once) {
    for (const std::int64_t n : ns) {
      SCOPED_TRACE(what + " " + std::to_string(n));
      const auto before = injected_faults();
      run_under([arm, n] { arm(n); }, kind == fault_kind::lasting);
      if (kind == fault_kind::once) {
        EXPECT_EQ(injected_faults(), before + 1);
      } else {
        EXPECT_GT(injected_faults(), before);
        EXPECT_GT(refused(), 0) << "the fault took every message";
      }
      expect_log_holds_every_acknowledged_input();
      TearDown();
      roots_.clear();
      sent_.clear();
      SetUp();
    }
  }

  int refused() const {
    return static_cast<int>(std::count_if(sent_.begin(), sent_.end(), [](const auto& s) { return !s.acknowledged; }));
  }

  testing::temp_team files_{testing::kOneMemberTeam, "members:\n  lead:\n    - emit: [{saying: \"hello back\"}]\n"};
  std::filesystem::path data_dir_;
  std::vector<std::string> roots_;
  std::vector<sent_message> sent_;
};
using StoreFaults = store_faults_fixture;

// One failure at each of the first writes of the workload: the message, the drive's commits, the
// projections' catch-up, checkpoints.
TEST_F(StoreFaults, TheNthWriteFailing) {
  for_each_fault("write", {1, 2, 3, 5, 8, 13, 21}, parley::testing::fail_write_after);
}

TEST_F(StoreFaults, TheNthSyncFailing) { for_each_fault("sync", {1, 2, 3, 5, 8}, parley::testing::fail_sync_after); }

TEST_F(StoreFaults, TheNthAllocationFailing) {
  for_each_fault("allocation", {1, 10, 100, 1000}, parley::testing::fail_allocation_after);
}

// The disk fills up at the Nth write: every message sent after that is refused and said so (those
// taken before it may have drives that stall); once there is room again the engine records the
// drives that failed and answers every acknowledged input by itself.
TEST_F(StoreFaults, ADiskThatFillsUp) {
  for_each_fault("full from write", {1, 3, 8}, parley::testing::fill_disk_after, fault_kind::lasting);
}

}  // namespace
}  // namespace parley::engine

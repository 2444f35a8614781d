// The SQLite store's projections trail its log (store/sqlite/projector.hpp): what a reader sees,
// what a crash leaves, and what catches them up.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "sqlite_raw.hpp"
#include "store_scenarios.hpp"
#include "support/child_process.hpp"

namespace parley {
namespace {

using test::dialog_script;
using test::open_or_fail;
using test::temp_dir;

// Projections that never catch up on their own within a test: only reads, flushes and the next
// open bring them up to the log.
sqlite_options lagging() {
  sqlite_options options;
  options.projection_lag = std::chrono::hours(1);
  options.projection_batch_events = 1'000'000;
  return options;
}

// A store whose log holds one realistic dialog, "d1" (10 events).
std::unique_ptr<store> open_with_a_dialog(const temp_dir& dir, const sqlite_options& options) {
  auto s = open_or_fail(dir, options);
  dialog_script d("d1", "d1");
  if (s != nullptr) EXPECT_TRUE(test::append_sync(*s, test::realistic_dialog(d)));
  return s;
}

std::int64_t watermark(const temp_dir& dir) {
  return std::stoll(test::query(dir.db_file(), "SELECT event_id FROM projected_through").at(0).at(0));
}

std::int64_t newest_event(const temp_dir& dir) {
  return std::stoll(test::query(dir.db_file(), "SELECT max(id) FROM events").at(0).at(0));
}

TEST(ProjectionLag, AnAcknowledgedEventIsInTheLogAndEveryReadOfAProjectionSeesIt) {
  temp_dir dir;
  auto s = open_or_fail(dir, lagging());
  ASSERT_NE(s, nullptr);
  dialog_script d("d1", "d1");
  ASSERT_TRUE(test::append_sync(*s, test::realistic_dialog(d)));
  // Durable in the log; the projection tables have not been written.
  EXPECT_EQ(newest_event(dir), 10);
  EXPECT_EQ(watermark(dir), 0);
  EXPECT_EQ(s->stats().projection_transactions, 0);

  auto row = s->get_dialog("d1");
  ASSERT_TRUE(row && *row);
  EXPECT_EQ((*row)->last_seq, 10);
  EXPECT_EQ(s->messages("d1", 0)->size(), 5U);
  EXPECT_EQ(watermark(dir), 10);
  EXPECT_EQ(s->stats().projection_transactions, 1);

  // Caught up: another read writes nothing.
  auto dialogue = s->records()->dialogue("d1");
  ASSERT_TRUE(dialogue && *dialogue);
  records_filter by_dialogue;
  by_dialogue.dialogue_id = (*dialogue)->id;
  const std::int64_t recorded = s->records()->messages(by_dialogue)->total;
  EXPECT_GT(recorded, 0);
  EXPECT_EQ(s->stats().projection_transactions, 1);

  ASSERT_TRUE(test::append_sync(*s, {d.user("one more")}));
  EXPECT_EQ(s->records()->messages(by_dialogue)->total, recorded + 1);
  EXPECT_EQ(s->stats().projection_transactions, 2);
  EXPECT_EQ(s->list_dialogs({})->size(), 1U);
  EXPECT_EQ(s->stats().projection_transactions, 2);
}

TEST(ProjectionLag, AppendsValidateAgainstEventsTheProjectionsHaveNotSeen) {
  temp_dir dir;
  auto s = open_or_fail(dir, lagging());
  ASSERT_NE(s, nullptr);
  dialog_script d("d1", "d1");
  ASSERT_TRUE(test::append_sync(*s, {d.created("alice"), d.user("one")}));
  ASSERT_TRUE(test::append_sync(*s, {d.user("two")}));
  auto gap = d.user("four");
  gap.seq += 1;
  auto refused = test::append_sync(*s, {gap});
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.err().code, errc::conflict);
  EXPECT_EQ(s->get_dialog("d1")->value().last_seq, 3);
  EXPECT_EQ(s->get_dialog("d1")->value().message_count, 2);
}

TEST(ProjectionLag, ANewProcessProjectsWhatTheLogHoldsPastTheWatermarkAfterACrash) {
  temp_dir dir;
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto opened = open_sqlite_store(dir.str(), lagging());
    if (!opened) test::give_up();
    dialog_script d("d1", "d1");
    if (!test::append_sync(**opened, test::realistic_dialog(d))) test::give_up();
    for (auto& batch : test::varied_history(5, 2, 60)) {
      if (!test::append_sync(**opened, std::move(batch))) test::give_up();
    }
    test::die_killed();  // with every event acknowledged and none projected: no flush, no close
  }
  const int status = test::reaped_status(child);
  ASSERT_TRUE(test::died_by_sigkill(status)) << "child status " << status;
  ASSERT_EQ(watermark(dir), 0);
  ASSERT_GT(newest_event(dir), 60);

  auto s = open_or_fail(dir, lagging());
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(watermark(dir), newest_event(dir));
  const auto projected = test::dump_projections(dir.db_file());
  EXPECT_EQ(s->get_dialog("d1")->value().last_seq, 10);
  ASSERT_TRUE(s->rebuild_projections());
  EXPECT_EQ(test::dump_projections(dir.db_file()), projected);
}

TEST(ProjectionLag, ACleanCloseLeavesTheProjectionsCaughtUp) {
  temp_dir dir;
  {
    auto s = open_with_a_dialog(dir, lagging());
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(watermark(dir), 0);
  }
  EXPECT_EQ(watermark(dir), newest_event(dir));
}

TEST(ProjectionLag, TheProjectionsCatchUpOnTheirOwnOnceTheOldestEventHasWaitedTheLag) {
  temp_dir dir;
  sqlite_options options;
  options.projection_lag = std::chrono::milliseconds(20);
  auto s = open_with_a_dialog(dir, options);
  ASSERT_NE(s, nullptr);
  // No read and no further append: only the writer's own timer can project.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (s->stats().projection_transactions == 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_EQ(s->stats().projection_transactions, 1);
  EXPECT_EQ(watermark(dir), 10);
}

TEST(ProjectionLag, ABatchOfProjectionBatchEventsIsProjectedWithoutWaitingForTheLag) {
  temp_dir dir;
  sqlite_options options = lagging();
  options.projection_batch_events = 10;  // the dialog's 10 events
  auto s = open_with_a_dialog(dir, options);
  ASSERT_NE(s, nullptr);
  // The projection runs right after the commit whose callbacks just ran; a barrier waits for it.
  ASSERT_TRUE(test::append_sync(*s, {}));
  EXPECT_EQ(s->stats().projection_transactions, 1);
  EXPECT_EQ(watermark(dir), 10);
}

TEST(ProjectionLag, ProjectionsThatCannotCatchUpStopTheLogTakingMoreAndSayWhy) {
  temp_dir dir;
  sqlite_options options = lagging();
  options.projection_batch_events = 4;  // so at most 64 events may wait
  auto s = open_or_fail(dir, options);
  ASSERT_NE(s, nullptr);
  dialog_script d("d1", "d1");
  ASSERT_TRUE(test::append_sync(*s, {d.created("alice")}));
  ASSERT_TRUE(s->get_dialog("d1"));  // projected
  // Broken while closed (an open store stops writing when another process changes its file):
  // every user message opens a turn, and no turn row may be written now.
  s.reset();
  test::exec(dir.db_file(),
             "CREATE TRIGGER no_turns BEFORE INSERT ON turn BEGIN SELECT RAISE(ABORT, 'no turn may be written'); END");
  s = open_or_fail(dir, options);
  ASSERT_NE(s, nullptr);

  int acknowledged = 0;
  result<void> refused = ok();
  for (int i = 0; i < 200 && refused; ++i) {
    refused = test::append_sync(*s, {d.user("message " + std::to_string(i))});
    if (refused) ++acknowledged;
  }
  ASSERT_FALSE(refused) << "the log kept taking events while its projections failed";
  EXPECT_NE(refused.err().message.find("projections are"), std::string::npos) << refused.err().message;
  EXPECT_NE(refused.err().message.find("turn"), std::string::npos) << refused.err().message;
  EXPECT_GE(acknowledged, 60);
  EXPECT_LE(acknowledged, 68);
  // Nothing acknowledged is lost, and the log still reads; the projections say what is wrong.
  EXPECT_EQ(s->read_events("d1")->size(), static_cast<std::size_t>(acknowledged + 1));
  auto row = s->get_dialog("d1");
  ASSERT_FALSE(row);
  EXPECT_NE(row.err().message.find("turn"), std::string::npos) << row.err().message;
}

}  // namespace
}  // namespace parley

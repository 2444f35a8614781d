// Behaviour only the SQLite store has: the file's contents, the group-commit writer, reopening,
// shutdown with a non-empty queue, and rebuilding the projection tables.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <thread>
#include <utility>

#include "parley/core/time.hpp"
#include "parley/store/sqlite/compact_log.hpp"
#include "sqlite_raw.hpp"
#include "store_scenarios.hpp"

namespace parley {
namespace {

using test::dialog_script;
using test::open_or_fail;
using test::temp_dir;

// The log keeps integer milliseconds; the view shows them as ISO-8601 text for the sqlite3 shell.
TEST(SqliteStore, StoresPayloadAsJsonTextAndTimestampAsIso8601) {
  temp_dir dir;
  auto s = open_or_fail(dir);
  ASSERT_NE(s, nullptr);
  dialog_script d("d1", "d1", 1700000000123);
  const std::vector<event> batch = test::realistic_dialog(d);
  ASSERT_TRUE(test::append_sync(*s, batch));

  const auto rows = test::query(dir.db_file(), "SELECT seq, type, payload, ts, ts_ms FROM events_readable ORDER BY id");
  ASSERT_EQ(rows.size(), batch.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i][0], std::to_string(batch[i].seq));
    EXPECT_EQ(rows[i][1], batch[i].type());
    EXPECT_EQ(test::json::parse(rows[i][2]), test::json::value(test::wire_of(batch[i])));
    EXPECT_EQ(rows[i][3], format_iso8601_ms(batch[i].ts_ms));
    EXPECT_EQ(rows[i][4], std::to_string(batch[i].ts_ms));
  }
  EXPECT_EQ(rows[0][3], "2023-11-14T22:13:20.123Z");
}

// Start-up and the Q4H list read only the dialogs they need, however many the store holds.
TEST(SqliteStore, RecoveryAndOpenQuestionListingsUseTheirPartialIndexes) {
  temp_dir dir;
  { auto log = open_or_fail(dir); }
  const auto plan = [&](const std::string& where) {
    std::string text;
    for (const auto& row : test::query(dir.db_file(),
                                       "EXPLAIN QUERY PLAN SELECT id FROM dialogs WHERE status = "
                                       "'running' AND " +
                                           where + " ORDER BY created_at_ms, id")) {
      text += row.back() + "\n";
    }
    return text;
  };
  EXPECT_NE(plan("(generating != 0 OR needs_drive != 0)").find("dialogs_needing_recovery"), std::string::npos);
  EXPECT_NE(plan("open_questions > 0").find("dialogs_with_open_questions"), std::string::npos);
}

// A retry after a restart is found by an index on the log, not by ids kept in memory.
TEST(SqliteStore, MsgIdsOfMessagesAndAnswersAreFoundAfterAReopenThroughTheirIndex) {
  temp_dir dir;
  {
    auto log = open_or_fail(dir);
    ASSERT_NE(log, nullptr);
    dialog_script d("d1", "d1");
    ASSERT_TRUE(test::append_sync(*log, {d.created("alice"), d.user("hello")}));
    ASSERT_TRUE(test::append_sync(
        *log,
        {d.next(event_type::question_answered,
                {{"course", 1}, {"questionId", "q1"}, {"callId", "c1"}, {"content", "Friday"}, {"msgId", "a-1"}})}));
  }
  auto log = open_or_fail(dir);
  ASSERT_NE(log, nullptr);
  auto message = log->find_input("m2");
  ASSERT_TRUE(message && message->has_value());
  EXPECT_EQ((*message)->content, "hello");
  auto answer = log->find_input("a-1");
  ASSERT_TRUE(answer && answer->has_value());
  EXPECT_EQ((*answer)->kind, input_kind::answer);
  EXPECT_EQ((*answer)->question_id, "q1");

  std::string plan;
  for (const auto& row :
       test::query(dir.db_file(), "EXPLAIN QUERY PLAN SELECT l.id FROM event_log AS l WHERE l.type_code IN (" +
                                      std::to_string(sqlite::kUserMessageCode) + ", " +
                                      std::to_string(sqlite::kQuestionAnsweredCode) +
                                      ") AND (CASE WHEN json_valid(l.payload) THEN "
                                      "json_extract(l.payload, '$.msgId') END) = 'a-1'")) {
    plan += row.back() + "\n";
  }
  EXPECT_NE(plan.find("USING INDEX events_by_input_msg_id"), std::string::npos) << plan;
}

// Messages sent to flows too (schema version 10), by their own index, which leaves the appends of
// user messages and answers as they were.
TEST(SqliteStore, MsgIdsOfMessagesSentToFlowsAreFoundAfterAReopenThroughTheirIndex) {
  temp_dir dir;
  {
    auto log = open_or_fail(dir);
    ASSERT_NE(log, nullptr);
    dialog_script f("f1", "f1");
    const boost::json::object thread{{"id", "f1"}, {"messages", boost::json::array{}}};
    ASSERT_TRUE(test::append_sync(
        *log, {f.created("article_writer"),
               f.next(event_type::flow_thread_saved,
                      {{"thread", thread}, {"input", {{"msgId", "fm-1"}, {"from", "ann"}, {"content", "Write"}}}})}));
  }
  auto log = open_or_fail(dir);
  ASSERT_NE(log, nullptr);
  auto found = log->find_input("fm-1");
  ASSERT_TRUE(found && found->has_value());
  EXPECT_EQ((*found)->dialog_id, "f1");
  EXPECT_EQ((*found)->from, "ann");
  EXPECT_EQ((*found)->content, "Write");

  std::string plan;
  for (const auto& row :
       test::query(dir.db_file(), "EXPLAIN QUERY PLAN SELECT l.id FROM event_log AS l WHERE l.type_code IN (" +
                                      std::to_string(sqlite::kFlowThreadSavedCode) + ", " +
                                      std::to_string(sqlite::kFlowThreadAppendedCode) +
                                      ") AND (CASE WHEN json_valid(l.payload) THEN "
                                      "json_extract(l.payload, '$.input.msgId') END) = 'fm-1'")) {
    plan += row.back() + "\n";
  }
  EXPECT_NE(plan.find("USING INDEX events_by_flow_input_msg_id"), std::string::npos) << plan;
}

TEST(SqliteStore, ReadableTimestampsMatchIso8601ToTheMillisecond) {
  temp_dir dir;
  auto s = open_or_fail(dir);
  ASSERT_NE(s, nullptr);
  // Epoch, sub-second edges, a leap day, and dates far from now: the view computes them with
  // floating-point seconds, which must still land on the exact millisecond.
  const std::vector<std::int64_t> times{0, 1, 999, 951782400000, 1700000000001, 1700000000999, 4102444799999};
  dialog_script d("d1", "d1");
  std::vector<event> batch{d.created("alice")};
  for (std::size_t i = 1; i < times.size(); ++i) batch.push_back(d.user("t"));
  for (std::size_t i = 0; i < times.size(); ++i) batch[i].ts_ms = times[i];
  ASSERT_TRUE(test::append_sync(*s, batch));

  const auto rows = test::query(dir.db_file(), "SELECT ts FROM events_readable ORDER BY id");
  ASSERT_EQ(rows.size(), times.size());
  for (std::size_t i = 0; i < times.size(); ++i) EXPECT_EQ(rows[i][0], format_iso8601_ms(times[i])) << times[i];
}

TEST(SqliteStore, BadBatchFailsAloneWhileOtherQueuedBatchesCommitInTheSameTransaction) {
  temp_dir dir;
  auto s = open_or_fail(dir);
  ASSERT_NE(s, nullptr);
  dialog_script good("good", "good");
  dialog_script bad("bad", "bad");
  ASSERT_TRUE(test::append_sync(*s, {bad.created("bob")}));

  test::writer_gate gate;
  gate.close(*s, "gate");
  const std::int64_t transactions_before = s->stats().transactions;
  std::vector<result<void>> outcomes(3);
  s->append({good.created("alice")}, [&](result<void> r) { outcomes[0] = std::move(r); });
  bad.skip_seq();
  s->append({bad.user("after a gap")}, [&](result<void> r) { outcomes[1] = std::move(r); });
  s->append({good.user("hello")}, [&](result<void> r) { outcomes[2] = std::move(r); });
  gate.release();
  s->flush();

  EXPECT_TRUE(outcomes[0]);
  ASSERT_FALSE(outcomes[1]);
  EXPECT_EQ(outcomes[1].err().code, errc::conflict);
  EXPECT_TRUE(outcomes[2]);
  EXPECT_EQ(s->stats().transactions - transactions_before, 1);
  EXPECT_EQ(s->read_events("good")->size(), 2U);
  EXPECT_EQ(s->read_events("bad")->size(), 1U);
  EXPECT_EQ(s->get_dialog("bad")->value().last_seq, 1);
  EXPECT_EQ(s->get_dialog("good")->value().message_count, 1);
  // The group was applied again without the bad batch: nothing of the first attempt is left twice.
  EXPECT_EQ(test::query(dir.db_file(), "SELECT count(*) FROM events WHERE dialog_id = 'good'"),
            (test::table_dump{{"2"}}));
  EXPECT_EQ(test::query(dir.db_file(),
                        "SELECT count(*) FROM message AS m JOIN events AS e ON e.id = m.event_id "
                        "WHERE e.dialog_id = 'good'"),
            (test::table_dump{{"1"}}));
  EXPECT_EQ(
      test::query(dir.db_file(), "SELECT count(*) FROM message_fts WHERE message_fts MATCH 'hel AND ell AND llo'"),
      (test::table_dump{{"1"}}));
}

TEST(SqliteStore, AppendsQueuedWhileTheWriterIsBusyCommitAsOneTransaction) {
  temp_dir dir;
  auto s = open_or_fail(dir);
  ASSERT_NE(s, nullptr);
  constexpr int kThreads = 8;
  constexpr int kPerThread = 100;
  test::writer_gate gate;
  gate.close(*s, "gate");
  const store_stats before = s->stats();

  std::vector<std::vector<std::int64_t>> seen(kThreads);  // seqs in callback order, per thread
  std::vector<std::thread> threads;
  threads.reserve(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      dialog_script d("t" + std::to_string(t), "t" + std::to_string(t));
      auto& mine = seen[static_cast<std::size_t>(t)];
      std::vector<event> batch{d.created("alice")};
      for (int i = 0; i <= kPerThread; ++i) {
        const std::int64_t seq = batch.back().seq;
        s->append(std::move(batch), [&mine, seq](const result<void>& r) {
          if (r) mine.push_back(seq);
        });
        batch = {d.user("hi")};
      }
    });
  }
  for (auto& thread : threads) thread.join();
  gate.release();
  s->flush();

  const store_stats after = s->stats();
  const std::int64_t appends = std::int64_t{kThreads} * (kPerThread + 1);
  EXPECT_EQ(after.events - before.events, appends);
  EXPECT_EQ(after.transactions - before.transactions, 1);
  EXPECT_LT(after.transactions, appends);
  for (const auto& mine : seen) {
    ASSERT_EQ(mine.size(), static_cast<std::size_t>(kPerThread + 1));
    for (std::size_t i = 0; i < mine.size(); ++i) EXPECT_EQ(mine[i], static_cast<std::int64_t>(i + 1));
  }
}

TEST(SqliteStore, ConcurrentAppendersShareTransactions) {
  temp_dir dir;
  auto s = open_or_fail(dir);
  ASSERT_NE(s, nullptr);
  constexpr int kThreads = 8;
  constexpr int kPerThread = 200;
  std::vector<std::thread> threads;
  threads.reserve(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      dialog_script d("t" + std::to_string(t), "t" + std::to_string(t));
      s->append({d.created("alice")}, nullptr);
      for (int i = 0; i < kPerThread; ++i) s->append({d.user("hi")}, nullptr);
    });
  }
  for (auto& thread : threads) thread.join();
  s->flush();
  const std::int64_t appends = std::int64_t{kThreads} * (kPerThread + 1);
  EXPECT_EQ(s->stats().events, appends);
  EXPECT_LT(s->stats().transactions, appends);
}

TEST(SqliteStore, MaxBatchEventsSplitsGroupsButNeverABatch) {
  temp_dir dir;
  auto s = open_or_fail(dir, {.durable = true, .max_batch_events = 2});
  ASSERT_NE(s, nullptr);
  test::writer_gate gate;
  gate.close(*s, "gate");
  const std::int64_t before = s->stats().transactions;
  dialog_script d("d1", "d1");
  std::atomic<int> succeeded{0};
  auto count = [&](const result<void>& r) {
    if (r) ++succeeded;
  };
  s->append({d.created("alice"), d.user("1"), d.user("2")}, count);  // over the budget: alone
  s->append({d.user("3")}, count);                                   // these two fit together
  s->append({d.user("4")}, count);
  s->append({d.user("5"), d.user("6")}, count);  // would overflow the previous group
  gate.release();
  s->flush();
  EXPECT_EQ(succeeded.load(), 4);
  EXPECT_EQ(s->stats().transactions - before, 3);
  EXPECT_EQ(s->read_events("d1")->size(), 7U);
}

std::unique_ptr<store> open_deferring(const temp_dir& dir, std::chrono::milliseconds window) {
  sqlite_options options;
  options.deferred_commit_window = window;
  return open_or_fail(dir, options);
}

TEST(SqliteStore, ADeferredBatchSharesTheCommitOfTheNextBatchSomeoneWaitsOn) {
  temp_dir dir;
  auto s = open_deferring(dir, std::chrono::hours(1));
  ASSERT_NE(s, nullptr);
  dialog_script a("a", "a");
  dialog_script b("b", "b");
  std::vector<std::string> order;
  std::mutex order_mutex;
  s->append_deferred({a.created("alice"), a.user("not waited on")}, [&](const result<void>& r) {
    std::lock_guard lock(order_mutex);
    order.push_back(r ? "deferred" : "deferred failed");
  });
  const std::int64_t before = s->stats().transactions;
  ASSERT_TRUE(test::append_sync(*s, {b.created("bob")}));
  std::lock_guard lock(order_mutex);
  EXPECT_EQ(order, std::vector<std::string>{"deferred"});
  EXPECT_EQ(s->stats().transactions - before, 1);
  EXPECT_EQ(s->read_events("a")->size(), 2U);
}

TEST(SqliteStore, ADeferredBatchCommitsOnItsOwnOnceItsWindowPasses) {
  temp_dir dir;
  auto s = open_deferring(dir, std::chrono::milliseconds(10));
  ASSERT_NE(s, nullptr);
  dialog_script a("a", "a");
  EXPECT_TRUE(test::append_deferred_and_wait(*s, {a.created("alice")}));
  EXPECT_EQ(s->stats().transactions, 1);
}

// Right after a commit the writer sleeps at most one window at a time, and a deferred batch queued
// then does not wake it: the writer's next look must still commit that batch on its own.
TEST(SqliteStore, ADeferredBatchQueuedRightAfterACommitStillCommitsOnItsOwn) {
  temp_dir dir;
  auto s = open_deferring(dir, std::chrono::milliseconds(20));
  ASSERT_NE(s, nullptr);
  dialog_script a("a", "a");
  dialog_script b("b", "b");
  ASSERT_TRUE(test::append_sync(*s, {b.created("bob")}));
  const std::int64_t before = s->stats().transactions;
  std::this_thread::sleep_for(std::chrono::milliseconds(5));  // the writer is asleep again, for at most 20 ms
  EXPECT_TRUE(test::append_deferred_and_wait(*s, {a.created("alice")}));
  EXPECT_EQ(s->stats().transactions - before, 1);
  EXPECT_EQ(s->read_events("a")->size(), 1U);
}

TEST(SqliteStore, AReadWaitsForADeferredBatchAppendedBeforeIt) {
  temp_dir dir;
  auto s = open_deferring(dir, std::chrono::hours(1));
  ASSERT_NE(s, nullptr);
  dialog_script a("a", "a");
  s->append_deferred({a.created("alice"), a.user("hello")}, nullptr);
  EXPECT_EQ(s->read_events("a")->size(), 2U);
  auto row = s->get_dialog("a");
  ASSERT_TRUE(row && *row);
  EXPECT_EQ((*row)->message_count, 1);
}

TEST(SqliteStore, CallbackRunsAfterItsBatchIsCommittedAndReadable) {
  temp_dir dir;
  auto s = open_or_fail(dir);
  ASSERT_NE(s, nullptr);
  dialog_script d("d1", "d1");
  std::vector<std::int64_t> seen_last_seq;
  s->append({d.created("alice")}, nullptr);
  for (int i = 0; i < 20; ++i) {
    s->append({d.user("hi")}, [&](const result<void>& r) {
      ASSERT_TRUE(r);
      seen_last_seq.push_back(s->get_dialog("d1")->value().last_seq);
    });
  }
  s->flush();
  ASSERT_EQ(seen_last_seq.size(), 20U);
  // Each callback sees at least its own batch; later batches may share its transaction.
  for (std::size_t i = 0; i < seen_last_seq.size(); ++i) {
    EXPECT_GE(seen_last_seq[i], static_cast<std::int64_t>(i + 2));
  }
}

TEST(SqliteStore, FlushWaitsForEveryEarlierAppendAndItsCallback) {
  temp_dir dir;
  auto s = open_or_fail(dir);
  ASSERT_NE(s, nullptr);
  dialog_script d("d1", "d1");
  std::atomic<int> called{0};
  s->append({d.created("alice")}, [&](const result<void>&) { ++called; });
  for (int i = 0; i < 99; ++i) s->append({d.user("hi")}, [&](const result<void>&) { ++called; });
  s->flush();
  EXPECT_EQ(called.load(), 100);
  EXPECT_EQ(s->read_events("d1")->size(), 100U);
}

TEST(SqliteStore, ReopenedStoreFindsEveryEventAndProjectionAndContinuesTheLog) {
  temp_dir dir;
  std::vector<event> events_before;
  std::vector<dialog_row> dialogs_before;
  std::vector<message_row> messages_before;
  {
    auto s = open_or_fail(dir);
    ASSERT_NE(s, nullptr);
    for (auto& batch : test::varied_history(5, 2, 100)) s->append(std::move(batch), nullptr);
    s->flush();
    events_before = *s->read_all_events();
    dialogs_before = *s->list_dialogs({});
    messages_before = *s->messages("root-0", 0);
  }
  auto s = open_or_fail(dir);
  ASSERT_NE(s, nullptr);
  const auto events_after = *s->read_all_events();
  ASSERT_EQ(events_after.size(), events_before.size());
  for (std::size_t i = 0; i < events_after.size(); ++i) {
    EXPECT_EQ(events_after[i].dialog_id, events_before[i].dialog_id);
    EXPECT_EQ(events_after[i].seq, events_before[i].seq);
    EXPECT_EQ(events_after[i].payload, events_before[i].payload);
  }
  EXPECT_EQ(*s->list_dialogs({}), dialogs_before);
  EXPECT_EQ(*s->messages("root-0", 0), messages_before);

  // The writer starts with an empty row cache, so this loads root-0's row from the table.
  const dialog_row row = s->get_dialog("root-0")->value();
  auto appended = test::append_sync(*s, {test::make_event("root-0", "root-0", row.last_seq + 1,
                                                          event_type::status_changed, {{"status", "archived"}}, 1)});
  ASSERT_TRUE(appended) << appended.err().message;
  EXPECT_EQ(s->get_dialog("root-0")->value().status, events::dialog_status::archived);
}

// Messages are stored as references to their events and decoded on read, so every course's
// transcript must come back identical from a fresh connection and from rebuilt projections.
TEST(SqliteStore, MessagesOfEveryCourseReadBackIdenticallyAfterReopenAndRebuild) {
  temp_dir dir;
  using transcripts = std::map<std::pair<std::string, std::int64_t>, std::vector<message_row>>;
  auto read_all = [](store& s) {
    transcripts out;
    const auto dialogs = s.list_dialogs({});
    EXPECT_TRUE(dialogs);
    if (!dialogs) return out;
    for (const dialog_row& row : *dialogs) {
      for (std::int64_t course = 0; course <= row.course; ++course) {
        auto messages = s.messages(row.id, course);
        EXPECT_TRUE(messages) << messages.err().message;
        if (messages) out[{row.id, course}] = std::move(*messages);
      }
    }
    return out;
  };
  transcripts before;
  std::vector<dialog_row> dialogs_before;
  {
    auto s = open_or_fail(dir);
    ASSERT_NE(s, nullptr);
    dialog_script d("realistic", "realistic");
    s->append(test::realistic_dialog(d), nullptr);
    for (auto& batch : test::varied_history(11, 3, 300)) s->append(std::move(batch), nullptr);
    s->flush();
    before = read_all(*s);
    dialogs_before = *s->list_dialogs({});
  }
  ASSERT_GT(before.size(), 20U);
  auto s = open_or_fail(dir);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(read_all(*s), before);
  EXPECT_EQ(*s->list_dialogs({}), dialogs_before);
  ASSERT_TRUE(s->rebuild_projections());
  EXPECT_EQ(read_all(*s), before);
  EXPECT_EQ(*s->list_dialogs({}), dialogs_before);
}

TEST(SqliteStore, MessageThatRefersToANonMessageEventIsReportedCorrupt) {
  temp_dir dir;
  auto s = open_or_fail(dir);
  ASSERT_NE(s, nullptr);
  dialog_script d("d1", "d1");
  ASSERT_TRUE(test::append_sync(*s, {d.created("alice"), d.user("hello")}));
  s->flush();  // the projections are written, then damaged behind the store's back
  test::exec(dir.db_file(), "UPDATE messages SET event_id = (SELECT id FROM events WHERE seq = 1)");
  auto messages = s->messages("d1", 0);
  ASSERT_FALSE(messages);
  EXPECT_EQ(messages.err().code, errc::corrupt);
}

// A row's kind, status and call kind are read into the log's enums at the store's edge: a stored
// string that is none of them is an error naming the dialog and the column, never a default.
TEST(SqliteStore, AnUnknownStatusKindOrCallKindInARowIsAnErrorNamingTheDialogAndTheColumn) {
  temp_dir dir;
  auto s = open_or_fail(dir);
  ASSERT_NE(s, nullptr);
  dialog_script d("d1", "d1");
  ASSERT_TRUE(test::append_sync(*s, {d.created("alice"), d.user("hello")}));
  s->flush();
  for (const auto& [column, stored] : {std::pair{"status", "paused"}, {"kind", "branch"}, {"call_kind", "tellAll"}}) {
    SCOPED_TRACE(column);
    test::exec(dir.db_file(), "UPDATE dialogs SET kind = 'root', status = 'running', call_kind = '' WHERE id = 'd1'");
    const std::string damage = std::string("UPDATE dialogs SET ") + column + " = '" + stored + "' WHERE id = 'd1'";
    test::exec(dir.db_file(), damage.c_str());
    auto row = s->get_dialog("d1");
    ASSERT_FALSE(row);
    EXPECT_EQ(row.err().code, errc::corrupt);
    EXPECT_NE(row.err().message.find("dialog d1"), std::string::npos) << row.err().message;
    EXPECT_NE(row.err().message.find(std::string("dialogs.") + column + " is '" + stored + "'"), std::string::npos)
        << row.err().message;
    EXPECT_FALSE(s->list_dialogs({}));
  }
}

// Most commits write only a row's progress columns; a status change must still reach the row and
// the status index, also for a row the writer loaded from the table rather than created.
TEST(SqliteStore, StatusChangesOfLoadedRowsReachTheStatusIndex) {
  temp_dir dir;
  dialog_script d("d1", "d1");
  {
    auto s = open_or_fail(dir);
    ASSERT_NE(s, nullptr);
    ASSERT_TRUE(test::append_sync(*s, {d.created("alice"), d.user("hello")}));
  }
  auto s = open_or_fail(dir);
  ASSERT_NE(s, nullptr);
  ASSERT_TRUE(test::append_sync(*s, {d.user("again")}));
  ASSERT_TRUE(test::append_sync(*s, {d.status("completed"), d.user("late")}));
  EXPECT_TRUE(s->list_dialogs({.status = events::dialog_status::running})->empty());
  const auto completed = *s->list_dialogs({.status = events::dialog_status::completed});
  ASSERT_EQ(completed.size(), 1U);
  EXPECT_EQ(completed[0].last_seq, 5);
  EXPECT_EQ(completed[0].message_count, 3);
  EXPECT_EQ(test::query(dir.db_file(), "PRAGMA integrity_check"), (test::table_dump{{"ok"}}));
}

TEST(SqliteStore, ClosingTheStoreCommitsQueuedBatchesAndCallsEachCallbackOnce) {
  temp_dir dir;
  constexpr int kAppends = 300;
  std::vector<std::atomic<int>> calls(kAppends);
  {
    test::writer_gate gate;  // declared first: the writer may still be leaving its callback at `}`
    auto s = open_or_fail(dir);
    ASSERT_NE(s, nullptr);
    gate.close(*s, "gate");
    dialog_script d("d1", "d1");
    s->append({d.created("alice")}, [&](const result<void>& r) { calls[0] += r ? 1 : 100; });
    for (int i = 1; i < kAppends; ++i) {
      s->append({d.user("hi")}, [&, i](const result<void>& r) { calls[static_cast<std::size_t>(i)] += r ? 1 : 100; });
    }
    gate.release();
  }  // destroyed with the queue still full
  for (int i = 0; i < kAppends; ++i) EXPECT_EQ(calls[static_cast<std::size_t>(i)].load(), 1) << i;
  auto s = open_or_fail(dir);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->read_events("d1")->size(), static_cast<std::size_t>(kAppends));
}

TEST(SqliteStore, RebuildReproducesEveryProjectionTableExactly) {
  temp_dir dir;
  auto s = open_or_fail(dir);
  ASSERT_NE(s, nullptr);
  dialog_script d("realistic", "realistic");
  s->append(test::realistic_dialog(d), nullptr);
  for (auto& batch : test::varied_history(3, 4, 400)) s->append(std::move(batch), nullptr);
  s->flush();
  const auto before = test::dump_projections(dir.db_file());
  ASSERT_GT(before[0].size(), 10U);
  ASSERT_GT(before[1].size(), 100U);
  ASSERT_GT(before[2].size(), 12U);

  ASSERT_TRUE(s->rebuild_projections());
  EXPECT_EQ(test::dump_projections(dir.db_file()), before);
}

TEST(SqliteStore, RebuildRestoresTamperedProjectionsAndAppendsContinue) {
  temp_dir dir;
  auto s = open_or_fail(dir);
  ASSERT_NE(s, nullptr);
  for (auto& batch : test::varied_history(9, 2, 150)) s->append(std::move(batch), nullptr);
  s->flush();
  const auto before = test::dump_projections(dir.db_file());

  // Tampered with while no store has it open: an open store stops writing when another process
  // changes its file (WriterAlone in one_writer_test.cpp).
  s.reset();
  test::exec(dir.db_file(),
             "UPDATE dialogs SET title = 'tampered', last_seq = 999; DELETE FROM messages WHERE event_id % 2 = 0;");
  ASSERT_NE(test::dump_projections(dir.db_file()), before);
  s = open_or_fail(dir);
  ASSERT_NE(s, nullptr);
  ASSERT_TRUE(s->rebuild_projections());
  EXPECT_EQ(test::dump_projections(dir.db_file()), before);

  const dialog_row row = s->get_dialog("root-1")->value();
  auto appended = test::append_sync(
      *s, {test::make_event("root-1", "root-1", row.last_seq + 1, event_type::user_message, {{"content", "x"}}, 1)});
  ASSERT_TRUE(appended) << appended.err().message;
  EXPECT_EQ(s->get_dialog("root-1")->value().last_seq, row.last_seq + 1);
}

TEST(SqliteStore, CourseRowsRecordCreationAndEachNewCourse) {
  temp_dir dir;
  auto s = open_or_fail(dir);
  ASSERT_NE(s, nullptr);
  dialog_script d("d1", "d1", 1000);
  ASSERT_TRUE(test::append_sync(*s, test::realistic_dialog(d)));
  s->flush();  // read from the file: the projections are first brought up to the log
  const test::table_dump expected{{"d1", "1", "1000"}, {"d1", "2", "1008"}};
  EXPECT_EQ(test::query(dir.db_file(), "SELECT dialog_id, course, started_at_ms FROM courses ORDER BY course"),
            expected);
}

// `courses` is a view of the log (schema version 21): a course number started again keeps its
// latest start, as the table's INSERT OR REPLACE did, and the rows are there before any projection.
TEST(SqliteStore, CoursesReadFromTheLogKeepTheLatestStartOfACourse) {
  temp_dir dir;
  auto s = open_or_fail(dir);
  ASSERT_NE(s, nullptr);
  dialog_script d("d1", "d1", 5000);
  dialog_script other("d2", "d2", 9000);
  ASSERT_TRUE(test::append_sync(
      *s, {d.created("lead"), d.next(event_type::course_started, {{"course", 2}, {"prompt", "a"}}),
           d.next(event_type::course_started, {{"course", 2}, {"prompt", "again"}}), other.created("lead")}));
  const test::table_dump expected{{"d1", "1", "5000"}, {"d1", "2", "5002"}, {"d2", "1", "9000"}};
  EXPECT_EQ(
      test::query(dir.db_file(), "SELECT dialog_id, course, started_at_ms FROM courses ORDER BY dialog_id, course"),
      expected);
  EXPECT_EQ(test::query(dir.db_file(), "SELECT type FROM sqlite_master WHERE name = 'courses'"),
            (test::table_dump{{"view"}}));
}

}  // namespace
}  // namespace parley

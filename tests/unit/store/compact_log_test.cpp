// Schema version 17: the log keyed by integers (store/sqlite/compact_log.hpp). `events` is a view
// with the old table's columns over `event_log`, `dialog_keys` and `event_types`; a store written
// by version 15 reads the same after the migration, and its projections equal a rebuild.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "parley/store/sqlite/schema.hpp"
#include "parley/store/sqlite/sqlite_handle.hpp"
#include "sqlite_raw.hpp"
#include "store_scenarios.hpp"
#include "store_test_support.hpp"

namespace parley {
namespace {

using test::dialog_script;
using test::kEveryColumn;
using test::kReadable;
using test::open_or_fail;
using test::temp_dir;

std::string json_quoted(const std::string& text) {
  std::string out = "'";
  for (const char c : text) {
    out += c;
    if (c == '\'') out += '\'';
  }
  return out + "'";
}

// `rows` (kEveryColumn's) as an INSERT into the version-15 table, ids kept.
std::string insert_rows(const test::table_dump& rows) {
  std::string sql = "INSERT INTO events (id, dialog_id, root_id, seq, type, payload, ts_ms) VALUES ";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    if (i > 0) sql += ",";
    sql += "(" + r[0] + "," + json_quoted(r[1]) + "," + json_quoted(r[2]) + "," + r[3] + "," + json_quoted(r[4]) + "," +
           json_quoted(r[5]) + "," + r[6] + ")";
  }
  return sql;
}

TEST(CompactLog, EachEventKeepsIntegersAndEachDialogIdAndTypeNameIsStoredOnce) {
  temp_dir dir;
  auto s = open_or_fail(dir);
  ASSERT_NE(s, nullptr);
  dialog_script root("root-1", "root-1");
  dialog_script sub("sub-1", "root-1");
  ASSERT_TRUE(test::append_sync(*s, {root.created("lead"), root.user("hello"), sub.created("worker", "root-1")}));
  ASSERT_TRUE(test::append_sync(*s, {sub.user("work"), root.status("completed")}));

  EXPECT_EQ(test::query(dir.db_file(), "SELECT type FROM sqlite_master WHERE name = 'events'"),
            (test::table_dump{{"view"}}));
  // Each dialog's root and time base once (schema version 24): a row's root is NULL, its dialog's.
  EXPECT_EQ(test::query(dir.db_file(), "SELECT key, id, root_key, typeof(base_ms) FROM dialog_keys ORDER BY key"),
            (test::table_dump{{"1", "root-1", "1", "integer"}, {"2", "sub-1", "1", "integer"}}));
  EXPECT_EQ(test::query(dir.db_file(),
                        "SELECT dialog_key, typeof(root_key), seq, type_code, typeof(dialog_key), typeof(type_code) "
                        "FROM event_log ORDER BY id"),
            (test::table_dump{{"1", "null", "1", "1", "integer", "integer"},
                              {"1", "null", "2", "2", "integer", "integer"},
                              {"2", "null", "1", "1", "integer", "integer"},
                              {"2", "null", "2", "2", "integer", "integer"},
                              {"1", "null", "3", "10", "integer", "integer"}}));
  EXPECT_EQ(test::query(dir.db_file(), "SELECT dialog_id, root_id, seq, type FROM events ORDER BY id"),
            (test::table_dump{{"root-1", "root-1", "1", "dialog_created"},
                              {"root-1", "root-1", "2", "user_message"},
                              {"sub-1", "root-1", "1", "dialog_created"},
                              {"sub-1", "root-1", "2", "user_message"},
                              {"root-1", "root-1", "3", "status_changed"}}));
  auto read = s->read_events("sub-1");
  ASSERT_TRUE(read) << read.err().message;
  ASSERT_EQ(read->size(), 2U);
  EXPECT_EQ(read->back().root_id, "root-1");
  EXPECT_EQ(read->back().type(), "user_message");
}

// The view joins the maps, so an event whose key lost its row (only damage does that) would vanish
// from every read: `parley check` (damaged_events) names it instead.
TEST(CompactLog, AnEventWhoseDialogKeyLostItsRowIsNamedByTheCheckNotLeftOutSilently) {
  temp_dir dir;
  {
    auto s = open_or_fail(dir);
    ASSERT_NE(s, nullptr);
    dialog_script root("root-1", "root-1");
    dialog_script sub("sub-1", "root-1");
    ASSERT_TRUE(test::append_sync(*s, {root.created("lead"), sub.created("worker", "root-1"), sub.user("work")}));
  }
  test::exec(dir.db_file(), "DELETE FROM dialog_keys WHERE id = 'sub-1'");
  auto s = open_or_fail(dir);
  ASSERT_NE(s, nullptr);
  auto damaged = s->damaged_events();
  ASSERT_TRUE(damaged) << damaged.err().message;
  ASSERT_EQ(damaged->size(), 2U);
  EXPECT_EQ(damaged->front().event_id, 2);
  EXPECT_EQ(damaged->front().seq, 1);
  EXPECT_NE(damaged->front().problem.find("no row for its dialog key 2"), std::string::npos)
      << damaged->front().problem;
  EXPECT_EQ(damaged->back().event_id, 3);
}

// A batch that fails after making a dialog's key takes the key with it: the writer must not keep
// using it, or the next creation of that dialog would name a row that is not there.
TEST(CompactLog, AKeyMadeByABatchThatFailedIsMadeAgainByTheNextBatch) {
  temp_dir dir;
  auto s = open_or_fail(dir);
  ASSERT_NE(s, nullptr);
  dialog_script first("d-1", "d-1");
  event created = first.created("lead");
  first.skip_seq();
  EXPECT_FALSE(test::append_sync(*s, {created, first.user("out of order")}));
  EXPECT_EQ(test::query(dir.db_file(), "SELECT count(*) FROM dialog_keys"), (test::table_dump{{"0"}}));

  dialog_script again("d-1", "d-1");
  ASSERT_TRUE(test::append_sync(*s, {again.created("lead"), again.user("in order")}));
  auto read = s->read_events("d-1");
  ASSERT_TRUE(read) << read.err().message;
  ASSERT_EQ(read->size(), 2U);
  EXPECT_EQ(test::query(dir.db_file(), "SELECT d.id FROM event_log AS l JOIN dialog_keys AS d ON d.key = l.dialog_key"),
            (test::table_dump{{"d-1"}, {"d-1"}}));
}

// A log written by version 15 (the rows a store of this version writes, put into the old table
// with their ids) migrates in one step: every event reads the same through `events` and
// `events_readable`, the projections made from it equal those of the store that wrote it, and a
// rebuild gives the same rows again.
TEST(CompactLog, AVersionFifteenStoreReadsTheSameAfterTheMigrationAndItsProjectionsEqualARebuild) {
  temp_dir written;
  {
    auto s = open_or_fail(written);
    ASSERT_NE(s, nullptr);
    for (auto& batch : test::varied_history(17, 4, 40)) ASSERT_TRUE(test::append_sync(*s, std::move(batch)));
  }
  const auto rows = test::query(written.db_file(), kEveryColumn);
  ASSERT_GE(rows.size(), 100U);
  const auto projections = test::dump_projections(written.db_file());

  temp_dir old;
  {
    auto db = sqlite::connection::open_read_write(old.db_file());
    ASSERT_TRUE(db) << db.err().message;
    ASSERT_TRUE(sqlite::migrate(*db, 15));
    const std::string insert = insert_rows(rows);
    auto inserted = db->exec(insert.c_str());
    ASSERT_TRUE(inserted) << inserted.err().message;
  }
  const auto readable_before = test::query(old.db_file(), kReadable);
  ASSERT_EQ(test::query(old.db_file(), kEveryColumn), rows);

  auto s = open_or_fail(old);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(test::query(old.db_file(), "SELECT version FROM schema_version"),
            (test::table_dump{{std::to_string(sqlite::latest_schema_version())}}));
  EXPECT_EQ(test::query(old.db_file(), kEveryColumn), rows);
  EXPECT_EQ(test::query(old.db_file(), kReadable), readable_before);
  EXPECT_EQ(test::dump_projections(old.db_file()), projections);
  auto all = s->read_all_events();
  ASSERT_TRUE(all) << all.err().message;
  EXPECT_EQ(all->size(), rows.size());
  EXPECT_EQ(all->front().dialog_id, rows.front()[1]);

  ASSERT_TRUE(s->rebuild_projections());
  EXPECT_EQ(test::dump_projections(old.db_file()), projections);
  // And the migrated log takes new events.
  dialog_script late("late-1", "late-1");
  EXPECT_TRUE(test::append_sync(*s, {late.created("lead"), late.user("after the migration")}));
}

// Types this binary does not know and payloads no JSON function can read keep their names and
// bytes; an id that is only ever a root id gets a key too.
TEST(CompactLog, TheMigrationKeepsUnknownTypesUnreadablePayloadsAndRootsWithoutEvents) {
  temp_dir dir;
  auto db = sqlite::connection::open_read_write(dir.db_file());
  ASSERT_TRUE(db) << db.err().message;
  ASSERT_TRUE(sqlite::migrate(*db, 15));
  ASSERT_TRUE(
      db->exec("INSERT INTO events (dialog_id, root_id, seq, type, payload, ts_ms) VALUES "
               "('a', 'a', 1, 'dialog_created', '{\"memberId\":\"lead\",\"kind\":\"root\",\"depth\":0}', 1000),"
               "('a', 'a', 2, 'a_type_from_the_future', '{\"x\":1}', 1001),"
               "('b', 'elsewhere', 1, 'user_message', 'not json', 1002),"
               "('a', 'a', 3, 'a_type_from_the_future', '{}', 1003)"));
  const auto before = test::query(dir.db_file(), kEveryColumn);
  const auto readable_before = test::query(dir.db_file(), kReadable);
  auto migrated = sqlite::migrate(*db, sqlite::latest_schema_version());
  ASSERT_TRUE(migrated) << migrated.err().message;
  EXPECT_EQ(test::query(dir.db_file(), kEveryColumn), before);
  EXPECT_EQ(test::query(dir.db_file(), kReadable), readable_before);
  EXPECT_EQ(test::query(dir.db_file(), "SELECT code FROM event_types WHERE name = 'a_type_from_the_future'"),
            (test::table_dump{{"39"}}));
  EXPECT_EQ(test::query(dir.db_file(), "SELECT key, id FROM dialog_keys ORDER BY key"),
            (test::table_dump{{"1", "a"}, {"2", "elsewhere"}, {"3", "b"}}));
}

// An event whose root is not its dialog's keeps its own, and times before the dialog's first event
// (a clock set back) read back as written (schema version 24, log_bases.hpp).
TEST(CompactLog, AnEventWithAnotherRootAndAnEarlierTimeReadsBackAsWritten) {
  temp_dir dir;
  auto s = open_or_fail(dir);
  ASSERT_NE(s, nullptr);
  dialog_script root("root-1", "root-1", 50'000);
  dialog_script other("root-2", "root-2", 60'000);
  dialog_script odd("sub-1", "root-1", 70'000);
  ASSERT_TRUE(test::append_sync(*s, {root.created("lead"), other.created("lead"), odd.created("worker", "root-1")}));
  event moved = test::make_event("sub-1", "root-2", 2, event_type::user_message,
                                 {{"course", 1}, {"content", "x"}, {"msgId", "m-2"}, {"origin", "user"}}, 12);
  ASSERT_TRUE(test::append_sync(*s, {moved}));
  EXPECT_EQ(test::query(dir.db_file(),
                        "SELECT l.seq, l.root_key, l.ts_delta FROM event_log AS l JOIN dialog_keys AS d "
                        "ON d.key = l.dialog_key WHERE d.id = 'sub-1' ORDER BY l.seq"),
            (test::table_dump{{"1", "", "0"}, {"2", "2", "-69988"}}));
  EXPECT_EQ(test::query(dir.db_file(), "SELECT root_id, ts_ms FROM events WHERE dialog_id = 'sub-1' ORDER BY seq"),
            (test::table_dump{{"root-1", "70000"}, {"root-2", "12"}}));
  auto read = s->read_events("sub-1");
  ASSERT_TRUE(read) << read.err().message;
  ASSERT_EQ(read->size(), 2U);
  EXPECT_EQ((*read)[1].root_id, "root-2");
  EXPECT_EQ((*read)[1].ts_ms, 12);
}

}  // namespace
}  // namespace parley

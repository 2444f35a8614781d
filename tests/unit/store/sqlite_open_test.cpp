// Opening a SQLite store: creating what is missing, and refusing — without writing a byte — a
// directory it cannot use or a database file it must not trust.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <limits>
#include <random>

#include "parley/store/sqlite/schema.hpp"
#include "parley/store/sqlite/wal_size.hpp"
#include "sqlite_raw.hpp"
#include "store_test_support.hpp"
#include "support/child_process.hpp"

namespace parley {
namespace {

using test::temp_dir;

std::string random_bytes(std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::string out(n, '\0');
  for (char& c : out) c = static_cast<char>(gen() & 0xff);
  return out;
}

// A closed store with some history, so the file holds more than its schema.
void make_populated_store(const temp_dir& dir) {
  auto s = open_sqlite_store(dir.str());
  ASSERT_TRUE(s) << s.err().message;
  test::dialog_script d("d1", "d1");
  std::vector<event> batch{d.created("alice")};
  for (int i = 0; i < 200; ++i) batch.push_back(d.user(std::string(200, 'x')));
  ASSERT_TRUE(test::append_sync(**s, std::move(batch)));
}

TEST(SqliteOpen, CreatesAMissingNestedDirectoryAndTheDatabaseFile) {
  temp_dir dir;
  const std::string nested = (dir.path() / "a" / "b").string();
  auto s = open_sqlite_store(nested);
  ASSERT_TRUE(s) << s.err().message;
  EXPECT_TRUE(test::fs::is_regular_file(test::fs::path(nested) / "parley.db"));
}

TEST(SqliteOpen, UsesWriteAheadLogging) {
  temp_dir dir;
  auto s = open_sqlite_store(dir.str());
  ASSERT_TRUE(s) << s.err().message;
  EXPECT_EQ(test::query(dir.db_file(), "PRAGMA journal_mode"), (test::table_dump{{"wal"}}));
}

TEST(SqliteOpen, SchemaVersionRowIsPresent) {
  temp_dir dir;
  auto s = open_sqlite_store(dir.str());
  ASSERT_TRUE(s) << s.err().message;
  EXPECT_EQ(test::query(dir.db_file(), "SELECT version FROM schema_version"),
            (test::table_dump{{std::to_string(sqlite::latest_schema_version())}}));
}

// The WAL is given its size up front (commits then sync no file-size change); a reader must still
// see exactly the frames written, never the reserved zeros.
TEST(SqliteOpen, ADurableStoreReservesItsWalAndReadersSeeOnlyWrittenFrames) {
  temp_dir dir;
  auto s = open_sqlite_store(dir.str());
  ASSERT_TRUE(s) << s.err().message;
  test::dialog_script d("d1", "d1");
  std::vector<event> batch{d.created("alice")};
  for (int i = 0; i < 50; ++i) batch.push_back(d.user("message " + std::to_string(i)));
  ASSERT_TRUE(test::append_sync(**s, std::move(batch)));
  struct stat wal {};
  ASSERT_EQ(::stat((dir.db_file() + "-wal").c_str(), &wal), 0);
  // An empty store reserves the smallest WAL (wal_size.hpp), not the 64 MiB of a big one.
  EXPECT_GE(static_cast<std::int64_t>(wal.st_blocks) * 512, std::int64_t{4} << 20);
  EXPECT_LT(static_cast<std::int64_t>(wal.st_blocks) * 512, std::int64_t{8} << 20);
  EXPECT_EQ(test::query(dir.db_file(), "SELECT count(*), max(seq) FROM events"), (test::table_dump{{"51", "51"}}));
}

TEST(SqliteOpen, TheWalGrowsWithTheDatabaseFromFourToSixtyFourMiB) {
  EXPECT_EQ(sqlite::wal_pages_for(0), 1024);
  EXPECT_EQ(sqlite::wal_pages_for(4096), 1024);  // a 16 MiB database
  EXPECT_EQ(sqlite::wal_pages_for(40'000), 10'000);
  EXPECT_EQ(sqlite::wal_pages_for(65'536), 16'384);  // 256 MiB and more: the largest WAL
  EXPECT_EQ(sqlite::wal_pages_for(10'000'000), 16'384);
  EXPECT_EQ(sqlite::wal_bytes_for(16'384, 4096), 32 + 16'384 * (24 + 4096));
}

// What a writer killed early leaves: the database, its WAL full of committed frames, and a WAL
// index (-shm) it had created but not yet written. Reopening finds every committed event.
TEST(SqliteOpen, ReopensAfterAWriterDiedLeavingItsWalAndAnUnwrittenIndex) {
  temp_dir live;
  temp_dir crashed;
  auto s = open_sqlite_store(live.str());
  ASSERT_TRUE(s) << s.err().message;
  test::dialog_script d("d1", "d1");
  std::vector<event> batch{d.created("alice")};
  for (int i = 0; i < 20; ++i) batch.push_back(d.user("message " + std::to_string(i)));
  ASSERT_TRUE(test::append_sync(**s, std::move(batch)));
  // Copied while the store is open: nothing was checkpointed, the events are in the WAL only.
  test::fs::copy_file(live.db_file(), crashed.db_file());
  test::fs::copy_file(live.db_file() + "-wal", crashed.db_file() + "-wal");
  std::ofstream(crashed.db_file() + "-shm", std::ios::binary) << std::string(32 * 1024, '\0');
  s->reset();

  auto reopened = open_sqlite_store(crashed.str());
  ASSERT_TRUE(reopened) << reopened.err().message;
  auto events = (*reopened)->read_events("d1");
  ASSERT_TRUE(events) << events.err().message;
  EXPECT_EQ(events->size(), 21U);
}

// A store killed during its very first open, while SQLite was switching the new file to WAL (a
// rollback-journal transaction), leaves a hot journal. Only a read-write connection may roll it
// back; the open must do that rather than refuse the store (SQLite's "readonly database").
TEST(SqliteOpen, ReopensAfterAWriterDiedInARollbackJournalTransaction) {
  temp_dir dir;
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    sqlite3* db = nullptr;
    if (sqlite3_open(dir.db_file().c_str(), &db) != SQLITE_OK) test::give_up();
    // A one-page cache makes the transaction spill into the file, so the journal is hot.
    const char* sql =
        "PRAGMA journal_mode = DELETE; CREATE TABLE seed (x); INSERT INTO seed VALUES (1); PRAGMA cache_size = 1; "
        "BEGIN; WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000) "
        "INSERT INTO seed SELECT randomblob(200) FROM n;";
    if (sqlite3_exec(db, sql, nullptr, nullptr, nullptr) != SQLITE_OK) test::give_up();
    test::die_killed();  // inside the transaction: no commit, no rollback, no close
  }
  const int status = test::reaped_status(child);
  ASSERT_TRUE(test::died_by_sigkill(status)) << "child status " << status;
  ASSERT_TRUE(test::fs::exists(dir.db_file() + "-journal"));

  // Rolled back to its one committed row, the file is a database but not a Parley store.
  auto reopened = open_sqlite_store(dir.str());
  ASSERT_FALSE(reopened);
  EXPECT_NE(reopened.err().message.find("not a parley store"), std::string::npos) << reopened.err().message;
  EXPECT_EQ(test::query(dir.db_file(), "SELECT count(*) FROM seed"), (test::table_dump{{"1"}}));
}

TEST(SqliteOpen, ReopeningKeepsOneSchemaVersionRow) {
  temp_dir dir;
  ASSERT_TRUE(open_sqlite_store(dir.str()));
  ASSERT_TRUE(open_sqlite_store(dir.str()));
  EXPECT_EQ(test::query(dir.db_file(), "SELECT count(*) FROM schema_version"), (test::table_dump{{"1"}}));
}

TEST(SqliteOpen, RefusesAFileOfRandomBytesAndLeavesItByteIdentical) {
  temp_dir dir;
  const std::string garbage = random_bytes(16384, 42);
  test::write_bytes(dir.db_file(), garbage);
  auto s = open_sqlite_store(dir.str());
  ASSERT_FALSE(s);
  EXPECT_EQ(s.err().code, errc::corrupt);
  EXPECT_NE(s.err().message.find(dir.db_file()), std::string::npos) << s.err().message;
  EXPECT_EQ(test::file_bytes(dir.db_file()), garbage);
}

TEST(SqliteOpen, RefusesADatabaseWithAnOverwrittenPageAndLeavesItByteIdentical) {
  temp_dir dir;
  make_populated_store(dir);
  const std::string healthy = test::file_bytes(dir.db_file());
  ASSERT_GT(healthy.size(), 8192U);
  // The page size is a big-endian u16 at offset 16 of the header. Page 2 is the root of the first
  // table created (schema_version), which is never freed, so quick_check must walk it.
  const auto page_size = static_cast<std::size_t>((static_cast<unsigned char>(healthy[16]) << 8) |
                                                  static_cast<unsigned char>(healthy[17]));
  ASSERT_GE(page_size, 512U);
  test::write_bytes(dir.db_file(), random_bytes(page_size, 7), static_cast<std::streamoff>(page_size));
  const std::string damaged = test::file_bytes(dir.db_file());
  ASSERT_NE(damaged, healthy);

  auto s = open_sqlite_store(dir.str());
  ASSERT_FALSE(s);
  EXPECT_EQ(s.err().code, errc::corrupt);
  EXPECT_NE(s.err().message.find(dir.db_file()), std::string::npos) << s.err().message;
  EXPECT_EQ(test::file_bytes(dir.db_file()), damaged);
}

// Start-up must not grow with history: past full_check_max_bytes the open checks the header and
// the schema, not every page, and `parley check` (no limit) still finds the damage.
TEST(SqliteOpen, ALargeStoreIsCheckedByItsSchemaWhenOpenedAndWholeWhenAskedTo) {
  temp_dir dir;
  make_populated_store(dir);
  const std::string healthy = test::file_bytes(dir.db_file());
  const auto page_size = static_cast<std::size_t>((static_cast<unsigned char>(healthy[16]) << 8) |
                                                  static_cast<unsigned char>(healthy[17]));
  ASSERT_EQ(healthy.size() % page_size, 0U);
  // The last page holds the newest rows of some table or index: damage there is found only by a
  // walk of the whole file.
  test::write_bytes(dir.db_file(), random_bytes(page_size, 9), static_cast<std::streamoff>(healthy.size() - page_size));
  const std::string damaged = test::file_bytes(dir.db_file());

  sqlite_options whole_file;
  whole_file.full_check_max_bytes = std::numeric_limits<std::int64_t>::max();
  auto checked = open_sqlite_store(dir.str(), whole_file);
  ASSERT_FALSE(checked);
  EXPECT_EQ(checked.err().code, errc::corrupt);
  EXPECT_EQ(test::file_bytes(dir.db_file()), damaged);

  sqlite_options schema_only;
  schema_only.full_check_max_bytes = static_cast<std::int64_t>(damaged.size()) - 1;
  auto opened = open_sqlite_store(dir.str(), schema_only);
  EXPECT_TRUE(opened) << opened.err().message;
}

TEST(SqliteOpen, RefusesADirectoryBelowARegularFileEvenForRoot) {
  // Permission bits do not stop root, but no one can create a directory inside a regular file.
  temp_dir dir;
  const std::string file = (dir.path() / "plain-file").string();
  test::write_bytes(file, "not a directory");
  const std::string below = file + "/sub";
  auto s = open_sqlite_store(below);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.err().code, errc::io_error);
  EXPECT_NE(s.err().message.find(below), std::string::npos) << s.err().message;
  EXPECT_EQ(test::file_bytes(file), "not a directory");
}

TEST(SqliteOpen, RefusesAStorePathThatIsARegularFile) {
  temp_dir dir;
  const std::string file = (dir.path() / "plain-file").string();
  test::write_bytes(file, "x");
  auto s = open_sqlite_store(file);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.err().code, errc::io_error);
  EXPECT_NE(s.err().message.find(file), std::string::npos) << s.err().message;
}

TEST(SqliteOpen, RefusesADatabaseOfANewerSchemaAndLeavesItByteIdentical) {
  temp_dir dir;
  make_populated_store(dir);
  test::exec(dir.db_file(), "UPDATE schema_version SET version = 999");
  const std::string before = test::file_bytes(dir.db_file());
  auto s = open_sqlite_store(dir.str());
  ASSERT_FALSE(s);
  EXPECT_EQ(s.err().code, errc::conflict);
  EXPECT_NE(s.err().message.find("999"), std::string::npos) << s.err().message;
  EXPECT_EQ(test::file_bytes(dir.db_file()), before);
}

TEST(SqliteOpen, RefusesAForeignSqliteDatabaseAndLeavesItByteIdentical) {
  temp_dir dir;
  test::exec(dir.db_file(), "CREATE TABLE other_app (x INTEGER); INSERT INTO other_app VALUES (1);");
  const std::string before = test::file_bytes(dir.db_file());
  auto s = open_sqlite_store(dir.str());
  ASSERT_FALSE(s);
  EXPECT_EQ(s.err().code, errc::conflict);
  EXPECT_EQ(test::file_bytes(dir.db_file()), before);
}

TEST(SqliteOpen, MigratesAVersionOneDatabaseKeepingItsDialogs) {
  temp_dir dir;
  {
    auto db = sqlite::connection::open_read_write(dir.db_file());
    ASSERT_TRUE(db) << db.err().message;
    ASSERT_TRUE(sqlite::migrate(*db, 1));
    ASSERT_TRUE(db->exec(
        "INSERT INTO events (dialog_id, root_id, seq, type, payload, ts_ms) VALUES "
        "('d1', 'd1', 1, 'dialog_created', '{\"memberId\":\"alice\",\"kind\":\"root\"}', 1000);"
        "INSERT INTO dialogs VALUES ('d1', 'd1', '', 'alice', 'root', 'running', '', '', '', 1, 0, 1, 0, 0, 0, 0, "
        "0, 0, 1000, 1000, 0, 0);"));
  }
  auto s = open_sqlite_store(dir.str());
  ASSERT_TRUE(s) << s.err().message;
  EXPECT_EQ(test::query(dir.db_file(), "SELECT version FROM schema_version"),
            (test::table_dump{{std::to_string(sqlite::latest_schema_version())}}));
  auto row = (*s)->get_dialog("d1");
  ASSERT_TRUE(row) << row.err().message;
  ASSERT_TRUE(row->has_value());
  EXPECT_EQ((*row)->member_id, "alice");
  EXPECT_EQ((*row)->session_slug, "");
  EXPECT_FALSE((*row)->dead);
}

// Version 8 indexes the titles of the roots a store already has, so `q` finds them at once.
TEST(SqliteOpen, MigratingToVersionEightIndexesTheTitlesOfExistingRoots) {
  temp_dir dir;
  {
    auto db = sqlite::connection::open_read_write(dir.db_file());
    ASSERT_TRUE(db) << db.err().message;
    ASSERT_TRUE(sqlite::migrate(*db, 1));
    ASSERT_TRUE(db->exec(
        "INSERT INTO events (dialog_id, root_id, seq, type, payload, ts_ms) VALUES "
        "('r1', 'r1', 1, 'dialog_created', '{\"memberId\":\"alice\",\"kind\":\"root\",\"title\":\"Budget "
        "Review\"}', 1000),"
        "('s1', 'r1', 1, 'dialog_created', '{\"memberId\":\"bob\",\"kind\":\"sub\",\"parentId\":\"r1\","
        "\"title\":\"budget detail\"}', 1001);"
        "INSERT INTO dialogs VALUES ('r1', 'r1', '', 'alice', 'root', 'running', '', 'Budget Review', '', 1, 0, 1, 0, "
        "0, 0, 0, 0, 0, 1000, 1000, 0, 0);"
        "INSERT INTO dialogs VALUES ('s1', 'r1', 'r1', 'bob', 'sub', 'running', '', 'budget detail', '', 1, 1, 1, 0, "
        "0, 0, 0, 0, 0, 1001, 1001, 0, 0);"));
    ASSERT_TRUE(sqlite::migrate(*db, 7));
  }
  auto s = open_sqlite_store(dir.str());
  ASSERT_TRUE(s) << s.err().message;
  EXPECT_EQ(test::query(dir.db_file(), "SELECT dialog_id FROM root_title_fts"), (test::table_dump{{"r1"}}));
  auto page = (*s)->list_roots({.text = "budget"});
  ASSERT_TRUE(page) << page.err().message;
  ASSERT_EQ(page->rows.size(), 1U);
  EXPECT_EQ(page->rows.front().id, "r1");
}

// Version 9 indexes answers' msgIds beside user messages': a store written before it finds both,
// so a retry sent across the upgrade is still recognised.
TEST(SqliteOpen, MigratingToVersionNineFindsTheMsgIdsOfEarlierMessagesAndAnswers) {
  temp_dir dir;
  {
    auto db = sqlite::connection::open_read_write(dir.db_file());
    ASSERT_TRUE(db) << db.err().message;
    ASSERT_TRUE(sqlite::migrate(*db, 1));
    ASSERT_TRUE(db->exec(
        "INSERT INTO events (dialog_id, root_id, seq, type, payload, ts_ms) VALUES "
        "('d1', 'd1', 1, 'dialog_created', '{\"memberId\":\"alice\",\"kind\":\"root\"}', 1000),"
        "('d1', 'd1', 2, 'user_message', '{\"course\":1,\"content\":\"hi\",\"msgId\":\"m-1\",\"origin\":"
        "\"user\"}', 1001),"
        "('d1', 'd1', 3, 'question_asked', '{\"course\":1,\"genseq\":1,\"callId\":\"c1\",\"questionId\":"
        "\"q1\",\"mentionList\":\"Day?\",\"tellaskContent\":\"Day?\",\"askedAt\":\"x\"}', 1002),"
        "('d1', 'd1', 4, 'question_answered', '{\"course\":1,\"questionId\":\"q1\",\"callId\":\"c1\","
        "\"content\":\"Friday\",\"msgId\":\"a-1\"}', 1003);"
        "INSERT INTO dialogs VALUES ('d1', 'd1', '', 'alice', 'root', 'running', '', '', '', 1, 0, 4, 0, 1, 0, 0, "
        "0, 0, 1000, 1003, 0, 0);"));
    ASSERT_TRUE(sqlite::migrate(*db, 8));
  }
  auto s = open_sqlite_store(dir.str());
  ASSERT_TRUE(s) << s.err().message;
  EXPECT_EQ(test::query(dir.db_file(), "SELECT name FROM sqlite_master WHERE name LIKE 'events_by_%msg_id'"),
            (test::table_dump{{"events_by_input_msg_id"}, {"events_by_flow_input_msg_id"}}));
  auto message = (*s)->find_input("m-1");
  ASSERT_TRUE(message && message->has_value());
  EXPECT_EQ((*message)->seq, 2);
  auto answer = (*s)->find_input("a-1");
  ASSERT_TRUE(answer && answer->has_value());
  EXPECT_EQ((*answer)->kind, input_kind::answer);
  EXPECT_EQ((*answer)->content, "Friday");
}

}  // namespace
}  // namespace parley

// The WAL-batching VFS: commits reach the log in one write, other connections see every commit as
// soon as it returns, a writer reads back what it spilled, and a process that dies mid-transaction
// leaves exactly its committed transactions.
#include "parley/store/sqlite/wal_batching_vfs.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "sqlite_raw.hpp"
#include "store_test_support.hpp"
#include "support/child_process.hpp"

namespace parley {
namespace {

using test::temp_dir;

sqlite::connection durable_writer(const std::string& file) {
  auto db = sqlite::connection::open_durable_writer(file);
  EXPECT_TRUE(db) << db.err().message;
  if (!db) return {};
  auto wal = db->exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; CREATE TABLE IF NOT EXISTS t (x)");
  EXPECT_TRUE(wal) << wal.err().message;
  return std::move(*db);
}

std::string scalar(sqlite::connection& db, const char* sql) {
  auto stmt = db.prepare(sql, false);
  EXPECT_TRUE(stmt) << stmt.err().message;
  if (!stmt) return {};
  auto row = stmt->step();
  EXPECT_TRUE(row && *row);
  return stmt->text_at(0);
}

TEST(WalBatchingVfs, IsRegisteredUnderItsName) {
  ASSERT_NE(sqlite::wal_batching_vfs_name(), nullptr);
  EXPECT_NE(sqlite3_vfs_find(sqlite::wal_batching_vfs_name()), nullptr);
  EXPECT_NE(sqlite3_vfs_find(nullptr), sqlite3_vfs_find(sqlite::wal_batching_vfs_name()));  // not the default
}

TEST(WalBatchingVfs, ACommitOfManyPagesReachesTheLogInOneWrite) {
  temp_dir dir;
  auto writer = durable_writer(dir.db_file());
  ASSERT_TRUE(writer.valid());
  for (int commit = 0; commit < 5; ++commit) {
    const std::uint64_t before = sqlite::wal_batching_vfs_writes();
    // About 20 pages: 40 frame writes by SQLite.
    ASSERT_TRUE(
        writer.exec("INSERT INTO t SELECT randomblob(3000) FROM (SELECT 1 UNION ALL SELECT 2 UNION ALL "
                    "SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5) a, (SELECT 1 UNION ALL SELECT 2 "
                    "UNION ALL SELECT 3 UNION ALL SELECT 4) b"));
    EXPECT_EQ(sqlite::wal_batching_vfs_writes() - before, 1U) << "commit " << commit;
  }
}

TEST(WalBatchingVfs, AnotherConnectionSeesEachCommitAsSoonAsItReturns) {
  temp_dir dir;
  auto writer = durable_writer(dir.db_file());
  ASSERT_TRUE(writer.valid());
  auto reader = sqlite::connection::open_read_only(dir.db_file());
  ASSERT_TRUE(reader) << reader.err().message;
  for (int i = 1; i <= 50; ++i) {
    ASSERT_TRUE(writer.exec("INSERT INTO t VALUES (randomblob(500))"));
    EXPECT_EQ(scalar(*reader, "SELECT count(*) FROM t"), std::to_string(i));
  }
}

// A transaction larger than the page cache writes uncommitted frames to the log and reads them
// back; one larger than the VFS's 1 MiB threshold and its 120 KiB writes passes them on in parts.
TEST(WalBatchingVfs, ATransactionLargerThanItsCacheReadsBackWhatItSpilled) {
  temp_dir dir;
  auto writer = durable_writer(dir.db_file());
  ASSERT_TRUE(writer.valid());
  ASSERT_TRUE(
      writer.exec("PRAGMA cache_size = 10; BEGIN; "
                  "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000) "
                  "INSERT INTO t SELECT printf('%01000d', i) FROM n"));
  EXPECT_EQ(scalar(writer, "SELECT sum(CAST(x AS INTEGER)) FROM t WHERE length(x) = 1000"), "4501500");
  ASSERT_TRUE(writer.exec("COMMIT"));
  EXPECT_EQ(scalar(writer, "PRAGMA integrity_check"), "ok");
  writer = {};
  EXPECT_EQ(test::query(dir.db_file(), "SELECT count(*), sum(CAST(x AS INTEGER)) FROM t"),
            (test::table_dump{{"3000", "4501500"}}));
}

TEST(WalBatchingVfs, AProcessKilledInsideATransactionLeavesExactlyItsCommits) {
  temp_dir dir;
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto db = sqlite::connection::open_durable_writer(dir.db_file());
    if (!db || !db->exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; CREATE TABLE t (x)")) {
      test::give_up();
    }
    for (int i = 0; i < 20; ++i) {
      if (!db->exec("INSERT INTO t VALUES (randomblob(2000))")) test::give_up();
    }
    if (!db->exec("BEGIN; INSERT INTO t SELECT randomblob(2000) FROM t")) test::give_up();
    test::die_killed();  // no commit, no rollback, no close: frames of the open transaction may be anywhere
  }
  const int status = test::reaped_status(child);
  ASSERT_TRUE(test::died_by_sigkill(status)) << "child status " << status;
  EXPECT_EQ(test::query(dir.db_file(), "SELECT count(*) FROM t"), (test::table_dump{{"20"}}));
  EXPECT_EQ(test::query(dir.db_file(), "PRAGMA integrity_check"), (test::table_dump{{"ok"}}));
}

// SQLite takes process-wide settings only before it initializes, and looking up or registering a
// VFS initializes it. So the check runs in a fresh process (this test binary again, limited to this
// test) whose first SQLite call is the VFS registration; it reports the bytes SQLite counted.
TEST(WalBatchingVfs, RegisteringItFirstStillTurnsAllocationStatisticsOff) {
  if (const char* report = std::getenv("PARLEY_TEST_SQLITE_MEMORY_REPORT")) {
    ASSERT_NE(sqlite::wal_batching_vfs_name(), nullptr);
    temp_dir dir;
    auto db = durable_writer(dir.db_file());
    sqlite3_int64 used = -1;
    sqlite3_int64 peak = -1;
    ASSERT_EQ(sqlite3_status64(SQLITE_STATUS_MEMORY_USED, &used, &peak, 0), SQLITE_OK);
    std::ofstream(report) << used;
    return;
  }
  temp_dir dir;
  const std::string report = (dir.path() / "memory-used").string();
  test::spawn_options options;
  options.set_env = {{"PARLEY_TEST_SQLITE_MEMORY_REPORT", report}};
  const pid_t child =
      test::spawn_program({test::fs::read_symlink("/proc/self/exe").string(),
                           "--gtest_filter=WalBatchingVfs.RegisteringItFirstStillTurnsAllocationStatisticsOff"},
                          options);
  ASSERT_GT(child, 0);
  const int status = test::reaped_status(child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "child status " << status;
  std::string used;
  std::ifstream(report) >> used;
  EXPECT_EQ(used, "0") << "SQLite counted its allocations (a global mutex on every malloc and free)";
}

}  // namespace
}  // namespace parley

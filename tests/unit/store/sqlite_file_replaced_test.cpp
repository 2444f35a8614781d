// A database file replaced, deleted or truncated under an open store: the next append fails with
// an error naming the file, every later one too, the store reports it as its health problem, and
// what was committed before can still be read.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <fstream>

#include "store_test_support.hpp"

namespace parley {
namespace {

using test::temp_dir;

class SqliteFileReplaced : public ::testing::Test {
 protected:
  void SetUp() override {
    auto opened = open_sqlite_store(dir_.str());
    ASSERT_TRUE(opened) << opened.err().message;
    store_ = std::move(*opened);
    ASSERT_TRUE(test::append_sync(*store_, {dialog_.created("alice"), dialog_.user("before")}));
    EXPECT_EQ(store_->health_problem(), "");
  }

  // The next append's error, after checking it is the same for the one after and in health_problem.
  std::string refusal() {
    auto first = test::append_sync(*store_, {dialog_.user("after")});
    if (first) {
      ADD_FAILURE() << "the append after the file changed succeeded";
      return {};
    }
    EXPECT_EQ(first.err().code, errc::unavailable);  // a 503 over REST (docs/server.md)
    auto second = test::append_sync(*store_, {dialog_.user("later")});
    EXPECT_FALSE(second);
    if (!second) EXPECT_EQ(second.err().message, first.err().message);
    EXPECT_EQ(store_->health_problem(), first.err().message);
    return first.err().message;
  }

  temp_dir dir_;
  test::dialog_script dialog_{"d1", "d1"};
  std::unique_ptr<store> store_;
};

TEST_F(SqliteFileReplaced, AFileRenamedOverTheDatabaseIsDetected) {
  // What write_file does: a new file renamed over the old path.
  const auto replacement = dir_.path() / "parley.db.tmp";
  std::ofstream(replacement) << "x";
  std::filesystem::rename(replacement, dir_.db_file());
  const std::string message = refusal();
  EXPECT_EQ(
      message.rfind("the store's database " + dir_.db_file() +
                        " was replaced by another file while the store had it open; nothing more is written to it",
                    0),
      0U)
      << message;
  // The committed events live on in the file SQLite has open, and the error says where.
  EXPECT_NE(message.find("every event committed so far can be copied from /proc/"), std::string::npos) << message;
  const auto copy = message.substr(message.find("/proc/"), message.find(" until") - message.find("/proc/"));
  const auto saved = dir_.path() / "saved.db";
  std::filesystem::copy_file(copy, saved);
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open_v2(saved.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  sqlite3_stmt* count = nullptr;
  // `event_log`: the `events` view needs parley_payload, which a bare sqlite3 connection lacks.
  ASSERT_EQ(sqlite3_prepare_v2(db, "SELECT count(*) FROM event_log", -1, &count, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(count), SQLITE_ROW);
  EXPECT_EQ(sqlite3_column_int64(count, 0), 2);
  sqlite3_finalize(count);
  sqlite3_close(db);
  // Reads still answer from the open file.
  auto events = store_->read_events("d1");
  ASSERT_TRUE(events) << events.err().message;
  EXPECT_EQ(events->size(), 2U);
}

TEST_F(SqliteFileReplaced, ADeletedDatabaseIsDetected) {
  std::filesystem::remove(dir_.db_file());
  const std::string message = refusal();
  EXPECT_NE(message.find(dir_.db_file() + " was deleted while the store had it open"), std::string::npos) << message;
}

TEST_F(SqliteFileReplaced, ATruncatedDatabaseIsDetected) {
  std::filesystem::resize_file(dir_.db_file(), 0);
  const std::string message = refusal();
  EXPECT_NE(message.find(dir_.db_file() + " was truncated to 0 bytes"), std::string::npos) << message;
}

}  // namespace
}  // namespace parley

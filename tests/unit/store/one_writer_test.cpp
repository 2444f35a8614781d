// One writer per store (issue 36): the data directory's lock (data_dir_lock.hpp) and the store
// opened read-only beside a writer (open_sqlite_store_read_only).
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <thread>

#include "parley/store/data_dir_lock.hpp"
#include "store_test_support.hpp"

namespace parley {
namespace {

using test::temp_dir;

std::string file_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(DataDirLock, ASecondWriterIsRefusedNamingTheHolder) {
  temp_dir dir;
  auto first = data_dir_lock::acquire(dir.path(), "serve");
  ASSERT_TRUE(first) << first.err().message;
  ASSERT_TRUE(first->announce_url("http://127.0.0.1:7878/"));
  auto second = data_dir_lock::acquire(dir.path(), "run");
  ASSERT_FALSE(second);
  EXPECT_EQ(second.err().code, errc::conflict);
  EXPECT_NE(
      second.err().message.find("pid " + std::to_string(::getpid()) + " (parley serve at http://127.0.0.1:7878/)"),
      std::string::npos)
      << second.err().message;
  // Looking does not take it.
  auto holder = data_dir_lock::holder(dir.path());
  ASSERT_TRUE(holder);
  ASSERT_TRUE(holder->has_value());
  EXPECT_EQ((*holder)->pid, ::getpid());
  EXPECT_EQ((*holder)->command, "serve");
  EXPECT_EQ((*holder)->url, "http://127.0.0.1:7878/");
}

TEST(DataDirLock, ReleasedAtCloseAndEmptiedSoNoHolderIsNamed) {
  temp_dir dir;
  {
    auto lock = data_dir_lock::acquire(dir.path(), "run");
    ASSERT_TRUE(lock);
  }
  EXPECT_EQ(file_text(dir.path() / data_dir_lock::kFileName), "");
  auto holder = data_dir_lock::holder(dir.path());
  ASSERT_TRUE(holder);
  EXPECT_FALSE(holder->has_value());
  auto again = data_dir_lock::acquire(dir.path(), "run");
  ASSERT_TRUE(again) << again.err().message;
  EXPECT_FALSE(again->took_over().has_value());
}

TEST(DataDirLock, AHolderKilledLeavesALockTheNextProcessTakesOverAndSays) {
  temp_dir dir;
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // The child's only way out is SIGKILL while it holds the lock; an _exit below means it could
    // not get there, and the parent's WIFSIGNALED assertion fails the test.
    auto lock = data_dir_lock::acquire(dir.path(), "serve");
    if (!lock) ::_exit(3);
    ::kill(::getpid(), SIGKILL);  // dies holding it: nothing empties the file
    ::_exit(4);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_NE(file_text(dir.path() / data_dir_lock::kFileName).find("pid=" + std::to_string(child)), std::string::npos);
  auto holder = data_dir_lock::holder(dir.path());
  ASSERT_TRUE(holder);
  EXPECT_FALSE(holder->has_value());  // the kernel dropped the lock with the process
  auto lock = data_dir_lock::acquire(dir.path(), "serve");
  ASSERT_TRUE(lock) << lock.err().message;
  ASSERT_TRUE(lock->took_over().has_value());
  EXPECT_EQ(lock->took_over()->pid, child);
  EXPECT_EQ(lock->took_over()->command, "serve");
}

TEST(DataDirLock, ALockFileWithGarbageNamesNoHolderAndIsTakenOver) {
  temp_dir dir;
  std::ofstream(dir.path() / data_dir_lock::kFileName) << "pid=12x\ncommand=\x1b[31m\nurl=javascript:alert(1)\n";
  auto lock = data_dir_lock::acquire(dir.path(), "run");
  ASSERT_TRUE(lock) << lock.err().message;
  EXPECT_FALSE(lock->took_over().has_value());
  EXPECT_EQ(file_text(dir.path() / data_dir_lock::kFileName), "pid=" + std::to_string(::getpid()) + "\ncommand=run\n");
}

TEST(DataDirLock, ALockFileThisUserCannotWriteIsRefusedNamingItsOwner) {
  if (::geteuid() == 0) {
    // root writes any file: what another user's lock looks like to root is a lock it can take,
    // so the refusal is checked on a read-only file system's answer instead (EROFS is not
    // reachable without mounting); here, a lock path that is a folder stands in for it.
    temp_dir dir;
    std::filesystem::create_directory(dir.path() / data_dir_lock::kFileName);
    auto lock = data_dir_lock::acquire(dir.path(), "run");
    ASSERT_FALSE(lock);
    EXPECT_EQ(lock.err().code, errc::io_error);
    EXPECT_NE(lock.err().message.find("cannot open the lock " + (dir.path() / data_dir_lock::kFileName).string()),
              std::string::npos)
        << lock.err().message;
    return;
  }
  temp_dir dir;
  const auto path = dir.path() / data_dir_lock::kFileName;
  std::ofstream(path) << "";
  ::chmod(path.c_str(), 0444);
  auto lock = data_dir_lock::acquire(dir.path(), "run");
  ASSERT_FALSE(lock);
  EXPECT_EQ(lock.err().code, errc::io_error);
  EXPECT_NE(lock.err().message.find("it belongs to user"), std::string::npos) << lock.err().message;
}

TEST(OneWriter, ASecondWritingOpenOfTheStoreIsRefused) {
  temp_dir dir;
  auto writer = open_sqlite_store(dir.str());
  ASSERT_TRUE(writer) << writer.err().message;
  auto second = open_sqlite_store(dir.str());
  ASSERT_FALSE(second);
  EXPECT_EQ(second.err().code, errc::conflict);
  EXPECT_NE(second.err().message.find("one process writes a store at a time"), std::string::npos)
      << second.err().message;
}

class ReadOnlyStore : public ::testing::Test {
 protected:
  void SetUp() override {
    auto opened = open_sqlite_store(dir_.str());
    ASSERT_TRUE(opened) << opened.err().message;
    writer_ = std::move(*opened);
    ASSERT_TRUE(test::append_sync(*writer_, {dialog_.created("alice"), dialog_.user("hello")}));
    writer_->flush();
  }

  temp_dir dir_;
  test::dialog_script dialog_{"d1", "d1"};
  std::unique_ptr<store> writer_;
};

TEST_F(ReadOnlyStore, ReadsBesideAWriterAndWritesNothing) {
  auto reader = open_sqlite_store_read_only(dir_.str());
  ASSERT_TRUE(reader) << reader.err().message;
  auto row = (*reader)->get_dialog("d1");
  ASSERT_TRUE(row);
  ASSERT_TRUE(row->has_value());
  auto events = (*reader)->read_events("d1");
  ASSERT_TRUE(events);
  EXPECT_EQ(events->size(), 2U);
  // It refuses to write, naming why, and the writer goes on.
  test::dialog_script other{"d2", "d2"};
  auto refused = test::append_sync(**reader, {other.created("bob")});
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.err().code, errc::conflict);
  EXPECT_NE(refused.err().message.find("read-only"), std::string::npos);
  EXPECT_FALSE((*reader)->rebuild_projections());
  reader->reset();
  // Nothing the reader did looks like another writer to the one that writes.
  ASSERT_TRUE(test::append_sync(*writer_, {dialog_.user("again")}));
  EXPECT_EQ(writer_->health_problem(), "");
}

TEST_F(ReadOnlyStore, SeesOneSnapshotTakenAtOpen) {
  auto reader = open_sqlite_store_read_only(dir_.str());
  ASSERT_TRUE(reader) << reader.err().message;
  // Written after the reader opened: not in its snapshot, neither the events nor the row.
  ASSERT_TRUE(test::append_sync(*writer_, {dialog_.user("later")}));
  writer_->flush();
  auto events = (*reader)->read_events("d1");
  ASSERT_TRUE(events);
  EXPECT_EQ(events->size(), 2U);
  auto all = (*reader)->read_all_events();
  ASSERT_TRUE(all);
  EXPECT_EQ(all->size(), 2U);
  // A reader opened now sees it.
  auto later = open_sqlite_store_read_only(dir_.str());
  ASSERT_TRUE(later);
  auto now = (*later)->read_events("d1");
  ASSERT_TRUE(now);
  EXPECT_EQ(now->size(), 3U);
  // Read as far as the projections reach (`parley check`): all of it, once they caught up.
  auto as_projected = open_sqlite_store_read_only(dir_.str(), {}, /*log_as_projected=*/true);
  ASSERT_TRUE(as_projected) << as_projected.err().message;
  auto projected = (*as_projected)->read_all_events();
  ASSERT_TRUE(projected);
  EXPECT_EQ(projected->size(), 3U);
}

// The writer's projections trail its log (sqlite_options::projection_lag); a read-only process
// opened meanwhile waits for them to reach the log as it was, so it sees what the writer has
// already acknowledged — `parley show` of the dialog a running server has just created.
TEST(ReadOnlyStoreOpen, WaitsForTheWritersProjectionsToReachTheLogItSaw) {
  temp_dir dir;
  sqlite_options lagging;
  lagging.projection_lag = std::chrono::hours(1);  // projected only when the writer itself reads
  auto opened = open_sqlite_store(dir.str(), lagging);
  ASSERT_TRUE(opened) << opened.err().message;
  auto& writer = **opened;
  test::dialog_script first{"d1", "d1"};
  test::dialog_script second{"d2", "d2"};
  ASSERT_TRUE(test::append_sync(writer, {first.created("alice")}));
  ASSERT_TRUE(writer.get_dialog("d1"));                             // projected
  ASSERT_TRUE(test::append_sync(writer, {second.created("bob")}));  // durable, not yet projected

  std::optional<result<std::unique_ptr<store>>> reader;
  std::thread opening([&] { reader.emplace(open_sqlite_store_read_only(dir.str())); });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // the reader is waiting by now
  ASSERT_TRUE(writer.list_dialogs({}));                        // the writer reads: it projects first
  opening.join();
  ASSERT_TRUE(reader && *reader) << (*reader).err().message;
  auto row = (**reader)->get_dialog("d2");
  ASSERT_TRUE(row) << row.err().message;
  EXPECT_TRUE(row->has_value()) << "the dialog the writer acknowledged before the reader opened";
}

TEST(ReadOnlyStoreOpen, RefusesAMissingStoreAndNeverMakesOne) {
  temp_dir dir;
  auto reader = open_sqlite_store_read_only(dir.str());
  ASSERT_FALSE(reader);
  EXPECT_EQ(reader.err().code, errc::not_found);
  EXPECT_FALSE(std::filesystem::exists(dir.db_file()));
}

TEST(WriterAlone, AnotherProcessCommittingStopsTheWriterWithA503sError) {
  temp_dir dir;
  test::dialog_script dialog{"d1", "d1"};
  auto opened = open_sqlite_store(dir.str());
  ASSERT_TRUE(opened) << opened.err().message;
  auto& writer = **opened;
  ASSERT_TRUE(test::append_sync(writer, {dialog.created("alice")}));
  // A connection of its own, as a tool run by hand would have: it commits behind the writer's back.
  sqlite3* other = nullptr;
  ASSERT_EQ(sqlite3_open(dir.db_file().c_str(), &other), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(other, "CREATE TABLE intruder (x)", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(other);
  auto refused = test::append_sync(writer, {dialog.user("after")});
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.err().code, errc::unavailable);
  EXPECT_NE(refused.err().message.find("was changed by another process"), std::string::npos) << refused.err().message;
  EXPECT_EQ(writer.health_problem(), refused.err().message);
}

}  // namespace
}  // namespace parley

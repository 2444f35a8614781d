// `parley backup` to a disk that is full: the backup fails with an error that names the
// destination and says the store is untouched, leaves no file at the destination, and the live
// store reads and takes appends as before. Then, with room again, the same backup succeeds.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "fault_vfs.hpp"
#include "parley/store/store.hpp"
#include "parley/store/store_backup.hpp"
#include "unit/store/store_test_support.hpp"

namespace parley {
namespace {

using parley::testing::clear_faults;
using parley::testing::fill_disk_after;
using parley::testing::injected_faults;

class backup_faults : public ::testing::Test {
 protected:
  void SetUp() override {
    clear_faults();
    std::random_device device;
    root_ = std::filesystem::temp_directory_path() / ("parley-backup-" + std::to_string(device()));
    std::filesystem::create_directories(root_ / "data");
  }
  void TearDown() override {
    clear_faults();
    std::error_code ec;
    std::filesystem::remove_all(root_, ec);
  }
  std::filesystem::path root_;
};
using BackupFaults = backup_faults;

TEST_F(BackupFaults, AFullDestinationFailsClearlyLeavesNothingThereAndTheStoreWorksOn) {
  const auto data = (root_ / "data").string();
  auto opened = open_sqlite_store(data);
  ASSERT_TRUE(opened) << opened.err().message;
  auto& log = **opened;
  test::dialog_script a("a", "a", 100);
  ASSERT_TRUE(test::append_sync(log, {a.created("m"), a.user("first")}));
  log.flush();

  const auto dest = root_ / "backup";
  const auto faults_before = injected_faults();
  fill_disk_after(1);  // from the next write on
  auto failed = backup_sqlite_store(data, dest.string());
  clear_faults();
  ASSERT_FALSE(failed);
  EXPECT_GT(injected_faults(), faults_before);
  EXPECT_NE(failed.err().message.find("backup to " + dest.string() + ": "), std::string::npos) << failed.err().message;
  EXPECT_NE(failed.err().message.find("full"), std::string::npos) << failed.err().message;
  EXPECT_NE(failed.err().message.find("the store itself is untouched"), std::string::npos) << failed.err().message;
  EXPECT_FALSE(std::filesystem::exists(dest / "parley.db"));
  EXPECT_FALSE(std::filesystem::exists(dest / "parley.db.partial"));

  // The live store reads what it had and takes more.
  ASSERT_TRUE(test::append_sync(log, {a.user("second")}));
  auto row = log.get_dialog("a");
  ASSERT_TRUE(row && row->has_value());
  EXPECT_EQ((*row)->message_count, 2);

  auto copied = backup_sqlite_store(data, dest.string());
  ASSERT_TRUE(copied) << copied.err().message;
  auto copy = open_sqlite_store(dest.string());
  ASSERT_TRUE(copy) << copy.err().message;
  auto copied_row = (*copy)->get_dialog("a");
  ASSERT_TRUE(copied_row && copied_row->has_value());
  EXPECT_EQ((*copied_row)->message_count, 2);
  EXPECT_EQ((*copy)->read_events("a")->size(), 3U);
}

}  // namespace
}  // namespace parley

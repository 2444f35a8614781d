// The retention policy as `parley vacuum` applies it: idle roots past the cutoff are archived by
// an event in the log; recent, recently active, still-working and already archived roots are
// left alone; a dry run writes nothing; with no policy nothing happens.
#include <gtest/gtest.h>

#include "parley/engine/retention.hpp"
#include "unit/store/store_test_support.hpp"

namespace parley::engine {
namespace {

constexpr std::int64_t kDay = std::int64_t{24} * 3600 * 1000;
constexpr std::int64_t kNow = 1'800'000'000'000;

class retention : public ::testing::Test {
 protected:
  void append_ok(std::vector<event> batch) {
    auto appended = test::append_sync(*log_, std::move(batch));
    ASSERT_TRUE(appended) << appended.err().message;
  }
  std::string status_of(const std::string& id) { return std::string(events::to_wire((*log_->get_dialog(id))->status)); }

  std::unique_ptr<store> log_ = make_memory_store();
};
using Retention = retention;

TEST_F(Retention, ArchivesRootsIdleLongerThanThePolicyAndLeavesTheRestAlone) {
  test::dialog_script idle("idle", "idle", kNow - 100 * kDay);
  test::dialog_script active("active", "active", kNow - 100 * kDay);
  test::dialog_script recent("recent", "recent", kNow - 2 * kDay);
  test::dialog_script owed("owed", "owed", kNow - 100 * kDay);
  test::dialog_script sub("sub", "idle", kNow - 100 * kDay);
  append_ok({idle.created("m"), active.created("m"), recent.created("m"), owed.created("m"), sub.created("m", "idle")});
  append_ok({owed.user("still to answer")});  // a drive is owed: at work, whatever its age
  test::dialog_script active_later("active", "active", kNow - kDay);
  active_later.skip_seq();
  append_ok({active_later.status("completed")});  // active a day ago

  const config::retention_config policy{.archive_after_days = 30};
  auto dry = apply_retention(*log_, policy, kNow, true);
  ASSERT_TRUE(dry) << dry.err().message;
  EXPECT_EQ(dry->archived, std::vector<std::string>{"idle"});
  EXPECT_EQ(status_of("idle"), "running");  // a dry run writes nothing

  auto applied = apply_retention(*log_, policy, kNow, false);
  ASSERT_TRUE(applied) << applied.err().message;
  EXPECT_EQ(applied->archived, std::vector<std::string>{"idle"});
  EXPECT_EQ(applied->still_at_work, 1);
  EXPECT_EQ(status_of("idle"), "archived");
  EXPECT_EQ(status_of("sub"), "running");  // the root is what a listing shows; its tree is kept as is
  EXPECT_EQ(status_of("active"), "completed");
  EXPECT_EQ(status_of("recent"), "running");
  EXPECT_EQ(status_of("owed"), "running");
  const auto events = *log_->read_events("idle");
  const auto* last = events.back().as<events::status_changed>();
  ASSERT_NE(last, nullptr);
  EXPECT_EQ(last->status, events::dialog_status::archived);

  // Applying it again finds nothing more to do.
  auto again = apply_retention(*log_, policy, kNow, false);
  ASSERT_TRUE(again);
  EXPECT_TRUE(again->archived.empty());
}

TEST_F(Retention, KeepsEverythingWithoutAPolicy) {
  test::dialog_script old("old", "old", kNow - 1000 * kDay);
  append_ok({old.created("m")});
  auto applied = apply_retention(*log_, config::retention_config{}, kNow, false);
  ASSERT_TRUE(applied);
  EXPECT_TRUE(applied->archived.empty());
  EXPECT_EQ(status_of("old"), "running");
}

}  // namespace
}  // namespace parley::engine

// Bad input is reported precisely, and nothing reaches the target store.
#include <gtest/gtest.h>

#include "parley/rtws/rtws_export.hpp"
#include "parley/rtws/rtws_import.hpp"
#include "rtws_test_support.hpp"

namespace parley::test {
namespace {

class RtwsImportErrors : public ::testing::TestWithParam<store_kind> {
 protected:
  void SetUp() override {
    auto source = make_store(store_kind::memory);
    append_scenario(*source.log);
    auto exported = rtws::export_rtws(*source.log, folder_.path(), false);
    ASSERT_TRUE(exported) << exported.err().message;
    target_ = make_store(GetParam());
    ASSERT_TRUE(target_.log);
  }

  fs::path root_folder() const { return folder_.path() / ".dialogs" / "run" / ids::root; }
  fs::path sub_folder(const std::string& id) const { return root_folder() / "subdialogs" / id; }

  // Imports, expects a refusal naming every fragment, and checks the target store is unchanged.
  void expect_refused(const std::vector<std::string>& fragments, std::int64_t dialogs_before = 0) {
    const auto events_before = events_by_dialog(*target_.log).size();
    auto imported = rtws::import_rtws(*target_.log, folder_.path());
    ASSERT_FALSE(imported) << "the import should have been refused";
    for (const auto& fragment : fragments) {
      EXPECT_NE(imported.err().message.find(fragment), std::string::npos) << "'" << fragment << "' not in:\n"
                                                                          << imported.err().message;
    }
    EXPECT_NE(imported.err().message.find("nothing was imported"), std::string::npos);
    EXPECT_EQ(dialog_count(*target_.log), dialogs_before);
    EXPECT_EQ(events_by_dialog(*target_.log).size(), events_before);
  }

  temp_dir folder_;
  test_store target_;
};

TEST_P(RtwsImportErrors, MalformedCourseLineNamesFileAndLine) {
  const fs::path file = sub_folder(ids::session) / "course-001.jsonl";
  auto lines = lines_of(file);
  ASSERT_GT(lines.size(), 3u);
  lines[2] = R"({"type": "generation_started", "seq": 3,)";
  std::string text;
  for (const auto& line : lines) text += line + "\n";
  write_text(file, text);
  expect_refused({file.string() + ":3:", "invalid JSON"});
}

TEST_P(RtwsImportErrors, SeqGapIsReported) {
  const fs::path file = root_folder() / "course-001.jsonl";
  auto lines = lines_of(file);
  ASSERT_GT(lines.size(), 5u);
  lines.erase(lines.begin() + 3);  // seq 4 is missing
  std::string text;
  for (const auto& line : lines) text += line + "\n";
  write_text(file, text);
  expect_refused({file.string() + ":4: seq 5 leaves a seq gap: the next event must be seq 4"});
}

TEST_P(RtwsImportErrors, EventOfAnotherDialogIsReported) {
  // A subdialog folder renamed: its events name another dialog than the folder.
  fs::rename(sub_folder(ids::nested), sub_folder("0003renamed"));
  expect_refused({sub_folder("0003renamed").string() + "/course-001.jsonl:1: event dialogId '" + ids::nested +
                  "' does not match its folder '0003renamed'"});
}

TEST_P(RtwsImportErrors, SubdialogFiledUnderAnotherRootIsReported) {
  const fs::path stray = folder_.path() / ".dialogs" / "done" / ids::done / "subdialogs" / ids::done_sub;
  fs::rename(stray, sub_folder(ids::done_sub));
  expect_refused({"event rootId '" + ids::done + "' is not the root it is filed under ('" + ids::root + "')"});
}

TEST_P(RtwsImportErrors, ExistingDialogIdInTheTargetIsRefused) {
  // The target already holds the completed root (imported from elsewhere).
  std::vector<event> done_only;
  for (auto& ev : scenario_events()) {
    if (ev.dialog_id == ids::done) done_only.push_back(ev);
  }
  ASSERT_TRUE(append_sync(*target_.log, done_only));
  auto imported = rtws::import_rtws(*target_.log, folder_.path());
  ASSERT_FALSE(imported);
  EXPECT_EQ(imported.err().code, errc::conflict);
  EXPECT_NE(imported.err().message.find("dialog " + ids::done + " already exists in the target store"),
            std::string::npos)
      << imported.err().message;
  EXPECT_EQ(dialog_count(*target_.log), 1);
  EXPECT_EQ(events_by_dialog(*target_.log).size(), done_only.size());
}

TEST_P(RtwsImportErrors, EditedLatestYamlIsAMismatch) {
  const fs::path latest = root_folder() / "latest.yaml";
  std::string text = read_text(latest);
  const auto at = text.find("currentCourse: 2");
  ASSERT_NE(at, std::string::npos) << text;
  text.replace(at, 16, "currentCourse: 7");
  write_text(latest, text);
  expect_refused({latest.string() + ": currentCourse: the file says \"7\", the events imply \"2\""});
}

TEST_P(RtwsImportErrors, EditedIndexFilesAreEachReported) {
  write_text(root_folder() / "reminders.json", R"([{"content":"check EU + UK rules"}])");
  fs::remove(root_folder() / "q4h.yaml");
  write_text(root_folder() / "registry.yaml", "{}\n");
  write_text(sub_folder(ids::nested) / "dialog.yaml",
             read_text(sub_folder(ids::nested) / "dialog.yaml") + "extra: 1\n");
  expect_refused({(root_folder() / "reminders.json").string() + ": (whole file): the file lists 1 entries",
                  (root_folder() / "q4h.yaml").string() + ": missing",
                  (root_folder() / "registry.yaml").string() + ": researcher!market: missing",
                  (sub_folder(ids::nested) / "dialog.yaml").string() + ": extra: not implied by the events"});
}

TEST_P(RtwsImportErrors, MalformedYamlNamesFileLineAndColumn) {
  const fs::path file = sub_folder(ids::session) / "latest.yaml";
  write_text(file, "currentCourse: 1\nstatus: [running\n");
  expect_refused({file.string() + ":"});
}

TEST_P(RtwsImportErrors, RootUnderTheWrongBucketIsReported) {
  const fs::path done = folder_.path() / ".dialogs" / "done" / ids::done;
  const fs::path moved = folder_.path() / ".dialogs" / "run" / ids::done;
  fs::rename(done, moved);
  expect_refused({moved.string() + ": its status is 'completed', so it belongs under done/, not run/"});
}

TEST_P(RtwsImportErrors, ImportingTwiceIsRefusedTheSecondTime) {
  auto first = rtws::import_rtws(*target_.log, folder_.path());
  ASSERT_TRUE(first) << first.err().message;
  expect_refused({"already exists in the target store"}, 6);
}

TEST_P(RtwsImportErrors, MissingDialogsFolderIsNotFound) {
  temp_dir empty;
  auto imported = rtws::import_rtws(*target_.log, empty.path());
  ASSERT_FALSE(imported);
  EXPECT_EQ(imported.err().code, errc::not_found);
  EXPECT_EQ(dialog_count(*target_.log), 0);
}

INSTANTIATE_TEST_SUITE_P(Stores, RtwsImportErrors, ::testing::Values(store_kind::memory, store_kind::sqlite),
                         [](const auto& test_info) { return kind_name(test_info.param); });

}  // namespace
}  // namespace parley::test

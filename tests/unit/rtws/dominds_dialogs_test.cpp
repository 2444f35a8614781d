// Dominds 1.29's `.dialogs/` folder (tests/data/dominds-dialogs, written to the shape of Dominds'
// dist/persistence.js) imported into Parley, quarantined where a record is cut or foreign, imported
// twice without duplicates, and exported back in Dominds' layout.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include <fstream>
#include <sstream>

#include "parley/rtws/dialog_replay.hpp"
#include "parley/rtws/dominds_export.hpp"
#include "parley/rtws/dominds_import.hpp"
#include "parley/rtws/dominds_layout.hpp"
#include "parley/rtws/index_text.hpp"
#include "rtws_test_support.hpp"

namespace parley::test {
namespace {

const std::string kDomindsRoot = "a1-b2-6750c3e1";
const std::string kDomindsSide = "c3-d4-6750c3f0";
const std::string kDomindsNested = "e5-f6-6750c400";
const std::string kDomindsDone = "0a-0b-6750b000";
const std::string kDomindsArchived = "9c-8d-6750a000";

std::string slurp(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

rtws::dialog_replay replay_of(store& log, const std::string& id) {
  rtws::dialog_replay replay;
  auto events = log.read_events(id);
  EXPECT_TRUE(events) << id;
  if (!events) return replay;
  for (const auto& ev : *events) EXPECT_TRUE(replay.apply(ev)) << id << " seq " << ev.seq;
  return replay;
}

class DomindsDialogs : public ::testing::TestWithParam<store_kind> {
 protected:
  void SetUp() override {
    fs::copy(fs::path(PARLEY_SOURCE_DIR) / "tests/data/dominds-dialogs/.dialogs", rtws_.path() / ".dialogs",
             fs::copy_options::recursive);
    target_ = make_store(GetParam());
    ASSERT_TRUE(target_.log);
  }
  fs::path root_folder() const { return rtws_.path() / ".dialogs/run/a1/b2/6750c3e1"; }

  temp_dir rtws_;
  test_store target_;
};

TEST_P(DomindsDialogs, ImportsIdsSideDialogsCoursesQuestionsAndReminders) {
  EXPECT_EQ(rtws::dominds::detect_layout(rtws_.path()), rtws::dominds::folder_layout::dominds);
  auto imported = rtws::dominds::import_rtws(*target_.log, rtws_.path());
  ASSERT_TRUE(imported) << imported.err().message;
  EXPECT_TRUE(imported->quarantined.empty());
  EXPECT_EQ(imported->roots, 3);
  EXPECT_EQ(imported->dialogs, 5);

  const auto root = replay_of(*target_.log, kDomindsRoot);
  EXPECT_EQ(root.row().kind, events::dialog_kind::root);
  EXPECT_EQ(root.row().member_id, "alice");
  EXPECT_EQ(root.row().task_doc_path, "tasks/login.tsk");
  EXPECT_EQ(root.row().status, events::dialog_status::running);
  EXPECT_EQ(root.row().course, 2);
  ASSERT_EQ(root.state().questions.size(), 1u);
  EXPECT_EQ(root.state().questions[0].id, "q-7f3a");
  EXPECT_EQ(root.state().questions[0].call_id, "call-ask-1");
  EXPECT_EQ(root.state().reminders,
            (std::vector<std::string>{"Tokens expire after 15 minutes.", "Run the e2e suite before done."}));

  const auto side = replay_of(*target_.log, kDomindsSide);
  EXPECT_EQ(side.row().parent_id, kDomindsRoot);
  EXPECT_EQ(side.row().root_id, kDomindsRoot);
  EXPECT_EQ(side.row().depth, 1);
  const auto nested = replay_of(*target_.log, kDomindsNested);
  EXPECT_EQ(nested.row().parent_id, kDomindsSide);
  EXPECT_EQ(nested.row().depth, 2);
  EXPECT_EQ(nested.row().call_kind, events::call_kind::fresh_boots_reasoning);
  EXPECT_EQ(replay_of(*target_.log, kDomindsDone).row().status, events::dialog_status::completed);
  EXPECT_EQ(replay_of(*target_.log, kDomindsArchived).row().status, events::dialog_status::archived);

  // The first generation: its thinking, saying, call and result, as the engine writes them.
  auto events = target_.log->read_events(kDomindsRoot);
  ASSERT_TRUE(events);
  const events::generation_finished* first = nullptr;
  const events::tool_result* result = nullptr;
  for (const auto& ev : *events) {
    if (first == nullptr) first = ev.as<events::generation_finished>();
    if (result == nullptr) result = ev.as<events::tool_result>();
  }
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->thinking, "First look at the routes.");
  EXPECT_EQ(first->saying, "Reading the router.");
  ASSERT_EQ(first->tool_calls.size(), 1u);
  EXPECT_EQ(first->tool_calls[0].name, "read_file");
  EXPECT_EQ(first->model, "gpt-5");
  ASSERT_NE(result, nullptr);
  EXPECT_EQ(result->call_id, "call-read-1");
  EXPECT_EQ(result->content, "export const routes = [];");
}

TEST_P(DomindsDialogs, ImportingTwiceAddsNothing) {
  auto first = rtws::dominds::import_rtws(*target_.log, rtws_.path());
  ASSERT_TRUE(first) << first.err().message;
  const auto events_after_first = events_by_dialog(*target_.log);
  ASSERT_FALSE(events_after_first.empty());
  auto second = rtws::dominds::import_rtws(*target_.log, rtws_.path());
  ASSERT_TRUE(second) << second.err().message;
  EXPECT_EQ(second->roots, 0);
  EXPECT_EQ(second->dialogs, 0);
  EXPECT_EQ(second->already_imported, 3);
  const auto events_after_second = events_by_dialog(*target_.log);
  ASSERT_EQ(events_after_second.size(), events_after_first.size());
  for (std::size_t i = 0; i < events_after_first.size(); ++i) {
    expect_same_event(events_after_first[i], events_after_second[i]);
  }
}

TEST_P(DomindsDialogs, ATruncatedRecordQuarantinesItsTreeAndTheRestIsImported) {
  const fs::path course = root_folder() / "course-002.jsonl";
  const std::string text = slurp(course);
  std::ofstream(course, std::ios::binary | std::ios::trunc) << text.substr(0, text.size() - 30);  // cut mid-record
  auto imported = rtws::dominds::import_rtws(*target_.log, rtws_.path());
  ASSERT_TRUE(imported) << imported.err().message;
  ASSERT_EQ(imported->quarantined.size(), 1u);
  EXPECT_EQ(imported->quarantined[0].dominds_id, "a1/b2/6750c3e1");
  EXPECT_NE(imported->quarantined[0].problem.find("course-002.jsonl:5"), std::string::npos)
      << imported->quarantined[0].problem;
  EXPECT_EQ(imported->roots, 2);
  for (const auto& id : {kDomindsRoot, kDomindsSide, kDomindsNested}) {
    auto row = target_.log->get_dialog(id);
    ASSERT_TRUE(row);
    EXPECT_FALSE(row->has_value()) << id << " belongs to the quarantined tree";
  }
  auto done = target_.log->get_dialog(kDomindsDone);
  ASSERT_TRUE(done);
  EXPECT_TRUE(done->has_value());
}

TEST_P(DomindsDialogs, AForeignRecordInASideDialogQuarantinesItsTree) {
  const fs::path course = root_folder() / "sideDialogs/e5/f6/6750c400/course-001.jsonl";
  std::ofstream(course, std::ios::binary | std::ios::app)
      << R"({"ts":"2026-11-02T09:16:40Z","type":"chat_message","role":"assistant","content":"hi"})"
      << "\n";
  auto imported = rtws::dominds::import_rtws(*target_.log, rtws_.path());
  ASSERT_TRUE(imported) << imported.err().message;
  ASSERT_EQ(imported->quarantined.size(), 1u);
  EXPECT_EQ(imported->quarantined[0].dominds_id, "a1/b2/6750c3e1");
  EXPECT_NE(imported->quarantined[0].problem.find("'chat_message' is not a record type"), std::string::npos)
      << imported->quarantined[0].problem;
  EXPECT_EQ(imported->roots, 2);
  EXPECT_EQ(imported->dialogs, 2);
}

// What Dominds' readers check of each file (dist/persistence.js: isMainDialogMetadataFile,
// isSideDialogMetadataFile, parseDialogLatestFile, isDialogAskerStackState, readCourseEvents,
// isQuestions4HumanFile, isReminderStateFile), as far as a text tree shows it.
void expect_dominds_dialog_folder(const fs::path& folder, const std::string& dominds_id, bool side) {
  auto dialog = rtws::load_yaml_tree(folder / "dialog.yaml");
  ASSERT_TRUE(dialog) << dialog.err().message;
  EXPECT_EQ(dialog->at("id").as_string(), dominds_id);
  for (const auto* key : {"agentId", "taskDocPath", "createdAt"}) EXPECT_TRUE(dialog->as_object().contains(key));
  EXPECT_FALSE(dialog->as_object().contains("askerDialogId"));
  auto latest = rtws::load_yaml_tree(folder / "latest.yaml");
  ASSERT_TRUE(latest) << latest.err().message;
  EXPECT_TRUE(latest->as_object().contains("lastModified"));
  EXPECT_GE(std::stoi(std::string(latest->at("currentCourse").as_string())), 1);
  const std::string status(latest->at("status").as_string());
  EXPECT_TRUE(status == "active" || status == "completed" || status == "archived") << status;
  EXPECT_EQ(fs::exists(folder / "asker-stack.jsonl"), side);
  auto reminders = rtws::load_json_file(folder / "reminders.json");
  ASSERT_TRUE(reminders) << reminders.err().message;
  EXPECT_TRUE(reminders->at("reminders").is_array());
  std::istringstream lines(slurp(folder / "course-001.jsonl"));
  for (std::string line; std::getline(lines, line);) {
    const auto record = json::parse(line).as_object();
    EXPECT_TRUE(record.at("ts").is_string());
    EXPECT_TRUE(std::string_view(record.at("type").as_string()).ends_with("_record")) << line;
  }
}

TEST_P(DomindsDialogs, ExportsDomindsLayoutThatImportsBackTheSame) {
  ASSERT_TRUE(rtws::dominds::import_rtws(*target_.log, rtws_.path()));
  temp_dir out;
  auto exported = rtws::dominds::export_rtws(*target_.log, out.path(), false);
  ASSERT_TRUE(exported) << exported.err().message;
  EXPECT_EQ(exported->dialogs, 5);
  const fs::path root = out.path() / ".dialogs/run/a1/b2/6750c3e1";
  expect_dominds_dialog_folder(root, "a1/b2/6750c3e1", false);
  expect_dominds_dialog_folder(root / "sideDialogs/c3/d4/6750c3f0", "c3/d4/6750c3f0", true);
  expect_dominds_dialog_folder(root / "sideDialogs/e5/f6/6750c400", "e5/f6/6750c400", true);
  expect_dominds_dialog_folder(out.path() / ".dialogs/done/0a/0b/6750b000", "0a/0b/6750b000", false);
  expect_dominds_dialog_folder(out.path() / ".dialogs/archive/9c/8d/6750a000", "9c/8d/6750a000", false);
  EXPECT_TRUE(fs::exists(root / "course-002.jsonl"));
  auto q4h = rtws::load_yaml_tree(root / "q4h.yaml");
  ASSERT_TRUE(q4h) << q4h.err().message;
  EXPECT_EQ(q4h->at("questions").at(0).at("callId").as_string(), "call-ask-1");
  const auto frame = json::parse(slurp(root / "sideDialogs/e5/f6/6750c400/asker-stack.jsonl"));
  EXPECT_EQ(frame.at("kind").as_string(), "asker_dialog_stack_frame");
  EXPECT_EQ(frame.at("askerDialogId").as_string(), "c3/d4/6750c3f0");
  // The assignment Dominds' loadDialogMetadata requires of a side dialog (isSideDialogAssignmentFromAsker).
  const auto& assignment = frame.at("assignmentFromAsker");
  EXPECT_EQ(assignment.at("askerDialogId").as_string(), "c3/d4/6750c3f0");
  EXPECT_EQ(assignment.at("callName").as_string(), "freshBootsReasoning");
  EXPECT_EQ(assignment.at("effectiveFbrEffort").as_int64(), 1);
  EXPECT_GT(assignment.at("callSiteCourse").as_int64(), 0);
  // A second export refuses to overwrite.
  EXPECT_FALSE(rtws::dominds::export_rtws(*target_.log, out.path(), false));

  auto again = make_store(store_kind::memory);
  auto reimported = rtws::dominds::import_rtws(*again.log, out.path());
  ASSERT_TRUE(reimported) << reimported.err().message;
  EXPECT_TRUE(reimported->quarantined.empty()) << reimported->quarantined[0].problem;
  EXPECT_EQ(reimported->dialogs, 5);
  const auto before = replay_of(*target_.log, kDomindsRoot);
  const auto after = replay_of(*again.log, kDomindsRoot);
  EXPECT_EQ(after.row().course, before.row().course);
  EXPECT_EQ(after.state().reminders, before.state().reminders);
  ASSERT_EQ(after.state().questions.size(), 1u);
  EXPECT_EQ(after.state().questions[0].id, "q-7f3a");
  EXPECT_EQ(replay_of(*again.log, kDomindsNested).row().parent_id, kDomindsSide);
}

TEST(DomindsLayout, TellsParleysExportFromDomindsFolderByItsMarkers) {
  temp_dir rtws;
  EXPECT_EQ(rtws::dominds::detect_layout(rtws.path()), rtws::dominds::folder_layout::empty);
  const fs::path parley_root = rtws.path() / ".dialogs/run/0123456789abcdef";
  fs::create_directories(parley_root);
  std::ofstream(parley_root / "course-001.jsonl")
      << R"({"dialogId":"0123456789abcdef","rootId":"0123456789abcdef","seq":1,"ts":"x","type":"dialog_created"})"
      << "\n";
  // Even without its dialog.yaml, so that the Parley importer names what is missing.
  EXPECT_EQ(rtws::dominds::detect_layout(rtws.path()), rtws::dominds::folder_layout::parley);
  fs::create_directories(rtws.path() / ".dialogs/archive/aa/bb/cccccccc");
  EXPECT_EQ(rtws::dominds::detect_layout(rtws.path()), rtws::dominds::folder_layout::parley);
  fs::remove_all(parley_root);
  EXPECT_EQ(rtws::dominds::detect_layout(rtws.path()), rtws::dominds::folder_layout::dominds);
}

TEST(DomindsLayout, MapsIdsBothWaysAndRefusesOnesThatWouldNotComeBack) {
  EXPECT_EQ(rtws::dominds::parley_id_of("aa/bb/cccccccc").value(), "aa-bb-cccccccc");
  EXPECT_EQ(rtws::dominds::dominds_id_of("aa-bb-cccccccc"), "aa/bb/cccccccc");
  EXPECT_EQ(rtws::dominds::dominds_id_of("0123456789abcdef"), "0123456789abcdef");
  for (const auto* bad : {"", "aa//bb", "aa/../bb", "a-b/c", "/aa", "aa/", "a b"}) {
    EXPECT_FALSE(rtws::dominds::parley_id_of(bad)) << bad;
  }
  EXPECT_TRUE(rtws::dominds::read_timestamp_ms("2024-01-15T10:30:00Z"));
  EXPECT_TRUE(rtws::dominds::read_timestamp_ms("2024-01-15 10:30:00"));
  EXPECT_FALSE(rtws::dominds::read_timestamp_ms("yesterday"));
}

INSTANTIATE_TEST_SUITE_P(Stores, DomindsDialogs, ::testing::Values(store_kind::memory, store_kind::sqlite),
                         [](const auto& test_info) { return kind_name(test_info.param); });

}  // namespace
}  // namespace parley::test

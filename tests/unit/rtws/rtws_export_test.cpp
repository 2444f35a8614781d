// The layout export writes: paths, flat subdialogs, done/ for completed roots, the registry only
// at roots, the Q4H index and the course split.
#include "parley/rtws/rtws_export.hpp"

#include <gtest/gtest.h>

#include <yaml-cpp/yaml.h>

#include "rtws_test_support.hpp"

namespace parley::test {
namespace {

using rtws::export_rtws;

class RtwsExport : public ::testing::TestWithParam<store_kind> {
 protected:
  void SetUp() override {
    source_ = make_store(GetParam());
    ASSERT_TRUE(source_.log);
    append_scenario(*source_.log);
    rtws_ = folder_.path() / "ws";
    auto exported = export_rtws(*source_.log, rtws_, false);
    ASSERT_TRUE(exported) << exported.err().message;
    summary_ = *exported;
  }

  fs::path run(const std::string& id) const { return rtws_ / ".dialogs" / "run" / id; }
  fs::path done(const std::string& id) const { return rtws_ / ".dialogs" / "done" / id; }

  temp_dir folder_;
  test_store source_;
  fs::path rtws_;
  rtws::export_summary summary_;
};

TEST_P(RtwsExport, WritesEveryDialogFlatUnderItsRoot) {
  const fs::path root = run(ids::root);
  for (const char* file : {"dialog.yaml", "latest.yaml", "course-001.jsonl", "course-002.jsonl", "q4h.yaml",
                           "reminders.json", "registry.yaml"}) {
    EXPECT_TRUE(fs::is_regular_file(root / file)) << file;
  }
  for (const auto& sub : {ids::session, ids::nested, ids::dead}) {
    const fs::path folder = root / "subdialogs" / sub;
    for (const char* file : {"dialog.yaml", "latest.yaml", "course-001.jsonl", "reminders.json"}) {
      EXPECT_TRUE(fs::is_regular_file(folder / file)) << sub << "/" << file;
    }
    EXPECT_FALSE(fs::exists(folder / "registry.yaml")) << "the registry belongs to roots only";
    EXPECT_FALSE(fs::exists(folder / "q4h.yaml")) << "no open question, no Q4H index";
    EXPECT_FALSE(fs::exists(folder / "subdialogs"));
  }
  // Depth 2 is still directly under the root, not under its parent.
  EXPECT_FALSE(fs::exists(root / "subdialogs" / ids::session / "subdialogs" / ids::nested));
  EXPECT_EQ(summary_.dialogs, 6);
  EXPECT_EQ(summary_.events, static_cast<std::int64_t>(scenario_events().size()));
}

TEST_P(RtwsExport, CompletedRootMovesToDoneWithItsSubdialogs) {
  EXPECT_FALSE(fs::exists(run(ids::done)));
  EXPECT_TRUE(fs::is_regular_file(done(ids::done) / "dialog.yaml"));
  EXPECT_TRUE(fs::is_regular_file(done(ids::done) / "registry.yaml"));
  EXPECT_TRUE(fs::is_regular_file(done(ids::done) / "subdialogs" / ids::done_sub / "course-001.jsonl"));
  EXPECT_FALSE(fs::exists(done(ids::root)));
  // Nothing staged is left behind.
  for (const auto& bucket : {rtws_ / ".dialogs" / "run", rtws_ / ".dialogs" / "done"}) {
    for (const auto& entry : fs::directory_iterator(bucket)) {
      EXPECT_NE(entry.path().filename().string().front(), '.') << entry.path();
    }
  }
  const YAML::Node latest = YAML::LoadFile((done(ids::done) / "latest.yaml").string());
  EXPECT_EQ(latest["status"].as<std::string>(), "completed");
}

TEST_P(RtwsExport, DialogYamlHoldsTheMetadata) {
  const YAML::Node root = YAML::LoadFile((run(ids::root) / "dialog.yaml").string());
  EXPECT_EQ(root["id"].as<std::string>(), ids::root);
  EXPECT_EQ(root["rootId"].as<std::string>(), ids::root);
  EXPECT_EQ(root["memberId"].as<std::string>(), "lead");
  EXPECT_EQ(root["kind"].as<std::string>(), "root");
  EXPECT_EQ(root["title"].as<std::string>(), "true");
  EXPECT_EQ(root["title"].Tag(), "!") << "a string title is quoted, never read as a boolean";
  EXPECT_EQ(root["taskDocPath"].as<std::string>(), "launch.tsk");
  EXPECT_EQ(root["createdAt"].as<std::string>(), format_iso8601_ms(1'766'800'000'000));
  EXPECT_EQ(root["status"].as<std::string>(), "running");
  EXPECT_FALSE(root["parentId"]);

  const YAML::Node nested = YAML::LoadFile((run(ids::root) / "subdialogs" / ids::nested / "dialog.yaml").string());
  EXPECT_EQ(nested["rootId"].as<std::string>(), ids::root);
  EXPECT_EQ(nested["parentId"].as<std::string>(), ids::session);
  EXPECT_EQ(nested["callerId"].as<std::string>(), ids::session);
  EXPECT_EQ(nested["callKind"].as<std::string>(), "tellaskSessionless");
  EXPECT_EQ(nested["depth"].as<int>(), 2);
  EXPECT_FALSE(nested["dead"].as<bool>());
}

TEST_P(RtwsExport, LatestYamlTracksTheCurrentCourse) {
  const YAML::Node latest = YAML::LoadFile((run(ids::root) / "latest.yaml").string());
  EXPECT_EQ(latest["currentCourse"].as<int>(), 2);
  EXPECT_EQ(latest["status"].as<std::string>(), "running");
  EXPECT_TRUE(latest["needsDrive"].as<bool>());  // its last generation ended with an askHuman call
  EXPECT_FALSE(latest["generating"].as<bool>());
  EXPECT_EQ(latest["openQuestions"].as<int>(), 1);
  EXPECT_EQ(latest["pendingSubdialogs"].as<int>(), 0);  // the new course forgot the wait
  EXPECT_TRUE(parse_iso8601_ms(latest["lastModified"].as<std::string>()));
}

TEST_P(RtwsExport, CourseFilesSplitTheLogAtCourseStarted) {
  const auto course1 = lines_of(run(ids::root) / "course-001.jsonl");
  const auto course2 = lines_of(run(ids::root) / "course-002.jsonl");
  ASSERT_FALSE(course1.empty());
  ASSERT_FALSE(course2.empty());
  const auto first = boost::json::parse(course1.front()).as_object();
  EXPECT_EQ(first.at("type").as_string(), "dialog_created");
  EXPECT_EQ(first.at("seq").as_int64(), 1);
  EXPECT_EQ(first.at("dialogId").as_string(), ids::root);
  EXPECT_EQ(first.at("rootId").as_string(), ids::root);
  EXPECT_EQ(first.at("ts").as_string(), format_iso8601_ms(first.at("tsMs").as_int64()));
  EXPECT_EQ(first.at("payload").as_object().at("memberId").as_string(), "lead");
  const auto opening = boost::json::parse(course2.front()).as_object();
  EXPECT_EQ(opening.at("type").as_string(), "course_started");
  EXPECT_EQ(opening.at("seq").as_int64(), static_cast<std::int64_t>(course1.size()) + 1);
  // Every line in seq order, nothing lost between the files.
  std::int64_t seq = 0;
  for (const auto* lines : {&course1, &course2}) {
    for (const auto& line : *lines) EXPECT_EQ(boost::json::parse(line).as_object().at("seq").as_int64(), ++seq);
  }
  auto events = source_.log->read_events(ids::root);
  ASSERT_TRUE(events);
  EXPECT_EQ(seq, static_cast<std::int64_t>(events->size()));
  EXPECT_FALSE(fs::exists(run(ids::root) / "course-003.jsonl"));
  EXPECT_FALSE(fs::exists(run(ids::root) / "subdialogs" / ids::session / "course-002.jsonl"));
}

TEST_P(RtwsExport, Q4hYamlIndexesTheOpenQuestionOnly) {
  const YAML::Node q4h = YAML::LoadFile((run(ids::root) / "q4h.yaml").string());
  ASSERT_TRUE(q4h.IsSequence());
  ASSERT_EQ(q4h.size(), 1u) << "q1 was asked in course 1 and cleared by the new course";
  EXPECT_EQ(q4h[0]["id"].as<std::string>(), "q2");
  EXPECT_EQ(q4h[0]["mentionList"].as<std::string>(), "Which market first?");
  EXPECT_EQ(q4h[0]["tellaskContent"].as<std::string>(), kOpenQuestion);
  EXPECT_TRUE(parse_iso8601_ms(q4h[0]["askedAt"].as<std::string>()));
  EXPECT_EQ(q4h[0]["callSiteRef"]["course"].as<int>(), 2);
  auto events = source_.log->read_events(ids::root);
  ASSERT_TRUE(events);
  EXPECT_EQ(q4h[0]["callSiteRef"]["seq"].as<std::int64_t>(), events->back().seq);
  EXPECT_FALSE(fs::exists(done(ids::done) / "q4h.yaml"));
}

TEST_P(RtwsExport, RemindersJsonIsAlwaysWritten) {
  const auto reminders = boost::json::parse(read_text(run(ids::root) / "reminders.json"));
  EXPECT_EQ(reminders, boost::json::parse(R"([{"content":"check EU + UK rules"},{"content":"budget: 10k"}])"));
  EXPECT_EQ(boost::json::parse(read_text(run(ids::root) / "subdialogs" / ids::nested / "reminders.json")),
            boost::json::array());
}

TEST_P(RtwsExport, RegistryYamlListsLiveTypeBSessions) {
  const YAML::Node registry = YAML::LoadFile((run(ids::root) / "registry.yaml").string());
  ASSERT_TRUE(registry.IsMap());
  ASSERT_EQ(registry.size(), 1u) << "the nested Type C dialog and the dead session are not registered";
  const YAML::Node entry = registry["researcher!market"];
  ASSERT_TRUE(entry);
  EXPECT_EQ(entry["subdialogId"].as<std::string>(), ids::session);
  EXPECT_EQ(entry["agentId"].as<std::string>(), "researcher");
  EXPECT_EQ(entry["tellaskSession"].as<std::string>(), "market");
  EXPECT_TRUE(parse_iso8601_ms(entry["createdAt"].as<std::string>()));
  // The tellask that assigned the work came one event after the subdialog was created.
  EXPECT_GT(*parse_iso8601_ms(entry["lastAccessed"].as<std::string>()),
            *parse_iso8601_ms(entry["createdAt"].as<std::string>()));
  EXPECT_FALSE(entry["locked"].as<bool>());
  const YAML::Node done_registry = YAML::LoadFile((done(ids::done) / "registry.yaml").string());
  EXPECT_EQ(done_registry.size(), 0u);
}

TEST_P(RtwsExport, RefusesToOverwriteWithoutForce) {
  const fs::path latest = run(ids::root) / "latest.yaml";
  write_text(latest, "edited: by hand\n");
  auto again = export_rtws(*source_.log, rtws_, false);
  ASSERT_FALSE(again);
  EXPECT_EQ(again.err().code, errc::conflict);
  EXPECT_NE(again.err().message.find(run(ids::root).string()), std::string::npos) << again.err().message;
  EXPECT_NE(again.err().message.find("--force"), std::string::npos);
  EXPECT_EQ(read_text(latest), "edited: by hand\n") << "nothing was written";

  auto forced = export_rtws(*source_.log, rtws_, true);
  ASSERT_TRUE(forced) << forced.err().message;
  EXPECT_NE(read_text(latest), "edited: by hand\n");
}

TEST_P(RtwsExport, ForceReplacesStaleFilesAndMovesFinishedRoots) {
  // After the first export the open question is answered and the root completes.
  auto events = source_.log->read_events(ids::root);
  ASSERT_TRUE(events);
  event answer = events->back();
  answer.seq += 1;
  answer.ts_ms += 60'000;
  answer.payload = events::question_answered{2, "q2", "c5", "US", "m9"};
  event completed = answer;
  completed.seq += 1;
  completed.ts_ms += 1;
  completed.payload = events::status_changed{events::dialog_status::completed};
  auto appended = append_sync(*source_.log, {answer, completed});
  ASSERT_TRUE(appended) << appended.err().message;

  auto forced = export_rtws(*source_.log, rtws_, true);
  ASSERT_TRUE(forced) << forced.err().message;
  EXPECT_FALSE(fs::exists(run(ids::root))) << "the earlier copy under run/ is gone";
  EXPECT_TRUE(fs::is_regular_file(done(ids::root) / "registry.yaml"));
  EXPECT_TRUE(fs::is_regular_file(done(ids::root) / "subdialogs" / ids::nested / "dialog.yaml"));
  EXPECT_FALSE(fs::exists(done(ids::root) / "q4h.yaml")) << "no open question is left";
  EXPECT_EQ(forced->events, summary_.events + 2);
}

INSTANTIATE_TEST_SUITE_P(Stores, RtwsExport, ::testing::Values(store_kind::memory, store_kind::sqlite),
                         [](const auto& test_info) { return kind_name(test_info.param); });

}  // namespace
}  // namespace parley::test

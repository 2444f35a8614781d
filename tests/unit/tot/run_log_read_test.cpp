// Reading a ToT run's log folder back (resume, GET /api/tot of an earlier run): each line and the
// task info read strictly, a wrong-typed field an error naming it where it used to read as 0 or "".
#include <gtest/gtest.h>

#include <filesystem>

#include <unistd.h>

#include "parley/core/json.hpp"
#include "parley/tot/logged_channel.hpp"
#include "parley/tot/run_log.hpp"

namespace parley::tot {
namespace {

namespace fs = std::filesystem;

TEST(RunLogRead, ALineReadsItsFieldsOrNamesTheOneThatIsWrong) {
  auto entry = read_json_line(R"({"ts":"2025-10-30T14:30:56.123Z","seq":2,"level":"info","msg":"go"})");
  ASSERT_TRUE(entry) << entry.err().message;
  EXPECT_EQ(entry->seq, 2);
  EXPECT_EQ(entry->msg, "go");
  EXPECT_TRUE(entry->data.empty());
  auto seq = read_json_line(R"({"ts":"2025-10-30T14:30:56.123Z","seq":"2","level":"info","msg":"go"})");
  ASSERT_FALSE(seq);
  EXPECT_EQ(seq.err().code, errc::corrupt);
  EXPECT_EQ(seq.err().message, "field 'seq': expected an integer, got a string");
  auto data = read_json_line(R"({"ts":"2025-10-30T14:30:56.123Z","seq":1,"level":"info","msg":"go","data":[]})");
  ASSERT_FALSE(data);
  EXPECT_EQ(data.err().message, "field 'data': expected an object, got an array");
}

TEST(RunLogRead, TheTaskInfoReadsOlderRunsOneRootAndNamesAWrongField) {
  auto older = read_task_info_fields(
      parse_json(R"({"problem":"4 9 10 13","task_type":"math_reasoning","start_time":"t","status":"completed",)"
                 R"("root_dialog":"r1","duration_ms":1200})")
          ->as_object());
  ASSERT_TRUE(older) << older.err().message;
  EXPECT_EQ(older->root_dialogs, std::vector<std::string>{"r1"});
  EXPECT_EQ(older->duration_ms, 1200);
  EXPECT_EQ(older->end_time, "");
  auto status = read_task_info_fields(
      parse_json(R"({"problem":"p","task_type":"planning","start_time":"t","status":1})")->as_object());
  ASSERT_FALSE(status);
  EXPECT_EQ(status.err().message, "00-task-info.json: field 'status': expected a string, got an integer");
}

TEST(RunLogRead, ARecordedReplyWithAWrongTypedRequestIsCorruptNotAnotherRequest) {
  const fs::path data_dir = fs::temp_directory_path() / ("parley-run-log-read-" + std::to_string(::getpid()));
  fs::remove_all(data_dir);
  auto folder = run_folder::create_in(data_dir / "logs", 1761834656123);
  ASSERT_TRUE(folder) << folder.err().message;
  log_buffer buffer;
  buffer.add("info", "reply", json::object{{"role", "generator"}, {"request", 5}, {"reply", "x"}});
  const std::string file = folder->reserve(agent_role::generator);
  ASSERT_TRUE(folder->write(file, buffer));
  auto replies = read_recorded_replies(*folder);
  ASSERT_FALSE(replies);
  EXPECT_EQ(replies.err().code, errc::corrupt);
  EXPECT_EQ(replies.err().message, file + ": field 'data.request': expected a string, got an integer");
  fs::remove_all(data_dir);
}

}  // namespace
}  // namespace parley::tot

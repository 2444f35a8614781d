// Resume acts only on a dialog that needs it (issue 24): each state a drive can end in, written as
// the log a process leaves behind, and what resume does with it.
#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>

#include "engine_test_support.hpp"
#include "parley/core/time.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/engine/engine.hpp"
#include "parley/engine/resume_check.hpp"
#include "support/typed_events.hpp"

namespace parley::engine {
namespace {

namespace asio = boost::asio;
using testing::kOneMemberTeam;
using testing::temp_team;

event raw(std::int64_t seq, std::string_view type, boost::json::object payload) {
  return test::typed_event("d1", "d1", seq, type, std::move(payload), now_ms());
}

// A root dialog of lead with the user message "add".
std::vector<event> asked() {
  return {raw(1, event_type::dialog_created, {{"memberId", "lead"}, {"kind", "root"}}),
          raw(2, event_type::user_message, {{"course", 1}, {"content", "add"}, {"msgId", "m"}})};
}

event answered(std::int64_t seq, bool interrupted, boost::json::array calls = {}) {
  return raw(seq, event_type::generation_finished,
             {{"course", 1},
              {"genseq", 1},
              {"saying", "half an answ"},
              {"toolCalls", std::move(calls)},
              {"interrupted", interrupted}});
}

boost::json::array one_calculation() {
  return {boost::json::object{{"id", "c1"}, {"name", "calculate"}, {"arguments", R"({"expression":"2+2"})"}}};
}

struct resume_outcome {
  result<void> resumed = ok();
  std::vector<std::string> said;  // "role:content" of course 1 after resume and its drive
  std::size_t events_before = 0;
  std::size_t events_after = 0;
};

// Loads `log` into an engine (without recovery), resumes d1 and runs until it is idle.
resume_outcome resume_d1(std::vector<event> log_events) {
  temp_team files(kOneMemberTeam, "members: {lead: [{emit: [{saying: \"the answer\"}]}]}\n");
  auto log = make_memory_store();
  resume_outcome out;
  out.events_before = log_events.size();
  std::optional<result<void>> appended;
  log->append(std::move(log_events), [&](result<void> r) { appended = std::move(r); });
  log->flush();
  EXPECT_TRUE(appended && appended->has_value());
  asio::io_context io;
  auto providers = build_providers(files.load());
  auto eng = engine::create(io.get_executor(), *log, files.load(), std::move(*providers), build_builtin_tools());
  EXPECT_TRUE(eng.has_value());
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        out.resumed = co_await (*eng)->runs().resume("d1");
        co_await (*eng)->runs().wait_until_idle("d1");
      },
      asio::detached);
  io.run();
  log->flush();
  out.events_after = log->read_events("d1").value().size();
  for (const auto& msg : log->messages("d1", 1).value())
    out.said.push_back(std::string(parley::events::to_wire(msg.role)) + ":" + msg.content);
  return out;
}

TEST(ResumeTest, AnIdleDialogWhoseAnswerWasGivenHasNothingToResumeAndNothingIsWritten) {
  auto events = asked();
  events.push_back(answered(3, false));
  const auto out = resume_d1(std::move(events));
  ASSERT_FALSE(out.resumed.has_value());
  EXPECT_EQ(out.resumed.err().code, errc::conflict);
  EXPECT_EQ(out.resumed.err().message, "dialog d1: nothing to resume (its last answer was given)");
  EXPECT_EQ(out.events_after, out.events_before);
  EXPECT_EQ(out.said, (std::vector<std::string>{"user:add", "assistant:half an answ"}));
}

TEST(ResumeTest, AStoppedGenerationIsDrivenAgain) {
  auto events = asked();
  events.push_back(answered(3, true));
  const auto out = resume_d1(std::move(events));
  ASSERT_TRUE(out.resumed.has_value()) << out.resumed.err().message;
  EXPECT_EQ(out.said, (std::vector<std::string>{"user:add", "assistant:half an answ", "assistant:the answer"}));
}

TEST(ResumeTest, AFailedDriveIsDrivenAgain) {
  auto events = asked();
  events.push_back(raw(3, event_type::drive_failed, {{"message", "provider said 503"}}));
  const auto out = resume_d1(std::move(events));
  ASSERT_TRUE(out.resumed.has_value()) << out.resumed.err().message;
  EXPECT_EQ(out.said, (std::vector<std::string>{"user:add", "assistant:the answer"}));
}

TEST(ResumeTest, ToolCallsWithoutResultsAreAnsweredThenTheModelGoesOn) {
  auto events = asked();
  events.push_back(answered(3, false, one_calculation()));
  const auto out = resume_d1(std::move(events));
  ASSERT_TRUE(out.resumed.has_value()) << out.resumed.err().message;
  EXPECT_EQ(out.said,
            (std::vector<std::string>{"user:add", "assistant:half an answ", "tool:4", "assistant:the answer"}));
}

TEST(ResumeTest, AGenerationCutOffByACrashIsDrivenAgain) {
  auto events = asked();
  events.push_back(raw(3, event_type::generation_started, {{"course", 1}, {"genseq", 1}, {"round", 1}}));
  const auto out = resume_d1(std::move(events));
  ASSERT_TRUE(out.resumed.has_value()) << out.resumed.err().message;
  EXPECT_EQ(out.said.back(), "assistant:the answer");
}

TEST(ResumeTest, InputNobodyAnsweredIsDriven) {
  const auto out = resume_d1(asked());  // the process stopped before any generation
  ASSERT_TRUE(out.resumed.has_value()) << out.resumed.err().message;
  EXPECT_EQ(out.said, (std::vector<std::string>{"user:add", "assistant:the answer"}));
}

TEST(ResumeTest, ADialogWithoutMessagesOrThatIsCompletedIsRefused) {
  const auto empty = resume_d1({raw(1, event_type::dialog_created, {{"memberId", "lead"}, {"kind", "root"}})});
  ASSERT_FALSE(empty.resumed.has_value());
  EXPECT_EQ(empty.resumed.err().message, "dialog d1 has nothing to do yet");

  auto events = asked();
  events.push_back(raw(3, event_type::status_changed, {{"status", "completed"}}));
  const auto completed = resume_d1(std::move(events));
  ASSERT_FALSE(completed.resumed.has_value());
  EXPECT_EQ(completed.resumed.err().message, "dialog d1 is completed");
  EXPECT_EQ(completed.events_after, completed.events_before);
}

TEST(ResumeTest, TheReasonIsNamedForClients) {
  EXPECT_EQ(resume_reason_name(resume_reason::interrupted), "interrupted");
  EXPECT_EQ(resume_reason_name(resume_reason::failed), "failed");
  EXPECT_EQ(resume_reason_name(resume_reason::unanswered_calls), "unanswered_calls");
  EXPECT_EQ(resume_reason_name(resume_reason::unread_input), "unread_input");
}

}  // namespace
}  // namespace parley::engine

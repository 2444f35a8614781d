// Retries that never duplicate (engine/input_retry.hpp): a retry of the input first taken with a
// msgId matches it; the same id with another body, kind, dialog, question or sender is a conflict
// naming msgId; and `parley check` reports an id that was taken twice.
#include <gtest/gtest.h>

#include "parley/engine/input_retry.hpp"
#include "parley/engine/integrity.hpp"
#include "unit/store/store_test_support.hpp"

namespace parley::engine {
namespace {

class input_retry : public ::testing::Test {
 protected:
  static input_record first_message() { return {input_kind::message, "d1", 2, "ann", "hello", ""}; }
  static input_record first_answer() { return {input_kind::answer, "d1", 5, "ann", "Friday", "q1"}; }
  static sent_input message(std::string_view dialog = "d1", std::string_view content = "hello",
                            std::string_view from = "ann") {
    return {.kind = input_kind::message, .msg_id = "m-1", .dialog_id = dialog, .from = from, .content = content};
  }
  static sent_input answer(std::string_view content = "Friday", std::string_view question = "q1",
                           std::string_view from = "ann") {
    return {.kind = input_kind::answer,
            .msg_id = "m-1",
            .dialog_id = "d1",
            .from = from,
            .content = content,
            .question_id = question};
  }
  // The conflict's message, or a note that there was none.
  static std::string conflict(const std::optional<input_record>& earlier, const sent_input& input) {
    auto matched = match_retry(earlier, input);
    if (matched) return "(no conflict)";
    EXPECT_EQ(matched.err().code, errc::conflict);
    return matched.err().message;
  }
};
using InputRetry = input_retry;

TEST_F(InputRetry, ANewIdIsTakenAndAnIdenticalRetryMatchesTheFirstInput) {
  auto fresh = match_retry(std::nullopt, message());
  ASSERT_TRUE(fresh);
  EXPECT_FALSE(fresh->has_value());

  auto retried = match_retry(first_message(), message());
  ASSERT_TRUE(retried);
  ASSERT_TRUE(retried->has_value());
  EXPECT_EQ((*retried)->dialog_id, "d1");
  EXPECT_EQ((*retried)->seq, 2);
  // A create names no dialog yet: any dialog the message went to is its dialog.
  auto created = match_retry(first_message(), message(""));
  ASSERT_TRUE(created && created->has_value());

  auto answered = match_retry(first_answer(), answer());
  ASSERT_TRUE(answered && answered->has_value());
  EXPECT_EQ((*answered)->seq, 5);
}

TEST_F(InputRetry, TheSameIdWithAnotherBodyIsAConflictNamingMsgId) {
  EXPECT_EQ(conflict(first_message(), message("d1", "hello again")),
            "msgId: 'm-1' was already sent with other content; a retry must send the same body");
  EXPECT_EQ(conflict(first_message(), message("d2")), "msgId: 'm-1' was already sent to another dialog");
  EXPECT_EQ(conflict(first_answer(), answer("Monday")),
            "msgId: 'm-1' was already sent with other content; a retry must send the same body");
  EXPECT_EQ(conflict(first_answer(), answer("Friday", "q2")),
            "msgId: 'm-1' was already used to answer another question");
  EXPECT_EQ(conflict(first_message(), answer()), "msgId: 'm-1' was already used for a message, not an answer");
  EXPECT_EQ(conflict(first_answer(), message()), "msgId: 'm-1' was already used for an answer, not a message");
}

TEST_F(InputRetry, AnotherUsersIdIsAConflictThatTellsNothingOfTheirInput) {
  EXPECT_EQ(conflict(first_message(), message("d2", "other words", "bob")),
            "msgId: 'm-1' was already used by another user");
  // The same words to the same place from someone else are not a retry either.
  EXPECT_EQ(conflict(first_message(), message("d1", "hello", "bob")), "msgId: 'm-1' was already used by another user");
  EXPECT_EQ(conflict(first_answer(), answer("Friday", "q1", "bob")), "msgId: 'm-1' was already used by another user");
  EXPECT_EQ(conflict(first_answer(), message("d1", "hello", "bob")), "msgId: 'm-1' was already used by another user");
}

TEST_F(InputRetry, CheckReportsAMsgIdTakenTwice) {
  auto log = make_memory_store();
  test::dialog_script a("a", "a");
  test::dialog_script b("b", "b");
  const auto sent = [](test::dialog_script& d, std::string_view msg_id) {
    return d.next(event_type::user_message,
                  {{"course", 1}, {"content", "hi"}, {"msgId", msg_id}, {"origin", "user"}, {"from", "ann"}});
  };
  ASSERT_TRUE(test::append_sync(*log, {a.created("alice"), sent(a, "m-1")}));
  ASSERT_TRUE(test::append_sync(*log, {b.created("alice"), sent(b, "m-2")}));
  auto clean = check_integrity(*log);
  ASSERT_TRUE(clean) << clean.err().message;
  EXPECT_TRUE(clean->problems.empty()) << clean->problems.front();

  ASSERT_TRUE(test::append_sync(*log, {sent(b, "m-1")}));
  auto twice = check_integrity(*log);
  ASSERT_TRUE(twice) << twice.err().message;
  ASSERT_EQ(twice->problems.size(), 1U);
  EXPECT_EQ(twice->problems[0],
            "dialog b event 3: msgId 'm-1' was already taken by dialog a event 2 (a retried input taken twice)");
}

}  // namespace
}  // namespace parley::engine

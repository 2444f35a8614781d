// Seed 002's reflection dialogue, unique per kind ("自省 Dialogue: AI-002 × “周总结” 自省窗口（按类型唯一）"):
// POST /api/reflections (and the schedule) put every reflection of a member on one goal into one
// ai_self dialogue, each a self-reflection session with its trigger; a restart finds the same
// dialogue in the log. A reflection still at work is not started twice. And the session a reused
// human⇄AI dialogue opens is committed with its message: a refused message leaves none behind.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include <string>

#include "records_rest_fixture.hpp"

namespace parley::test {
namespace {

namespace json = boost::json;

class reflection_dialogue : public RecordsRestTest {
 protected:
  json::value reflect(const std::string& goal, const std::string& trigger, int status) {
    return post_ok("/api/reflections", json::value{{"member_id", "lead"}, {"goal", goal}, {"trigger_source", trigger}},
                   status);
  }
  // Polls until the session has its summary (the reflection's final answer).
  bool summarised(const std::string& session_id) {
    return eventually([&] {
      const auto reply = client().get("/api/sessions/" + session_id);
      return reply.status == 200 && !reply.json().at("session").at("summary").is_null();
    });
  }
  json::array sessions_of(const std::string& dialogue_id) {
    const auto body = get_ok("/api/dialogues/" + dialogue_id + "/sessions?type=self_reflection&sort_by=start_at");
    return body.at("sessions").as_array();
  }
};
using ReflectionDialogue = reflection_dialogue;

TEST_F(ReflectionDialogue, ReflectionsOfOneKindAreSessionsOfOneDialogueFoundAgainAfterARestart) {
  start("reflect");
  const auto first = reflect("review the week", "schedule", 201);
  EXPECT_EQ(first.at("reused"), false);
  const auto dialog = text(first.at("dialog_id"));
  const auto dialogue = text(first.at("dialogue_id"));
  ASSERT_TRUE(summarised(text(first.at("session_id")))) << server_->output();

  const auto second = reflect("review the week", "human_guidance", 200);
  EXPECT_EQ(second.at("reused"), true);
  EXPECT_EQ(second.at("dialog_id"), dialog.c_str());
  EXPECT_EQ(second.at("dialogue_id"), dialogue.c_str());
  EXPECT_NE(second.at("session_id"), first.at("session_id"));
  ASSERT_TRUE(summarised(text(second.at("session_id"))));

  auto sessions = sessions_of(dialogue);
  ASSERT_EQ(sessions.size(), 2U);
  EXPECT_EQ(sessions[0].at("id"), first.at("session_id"));
  EXPECT_EQ(sessions[0].at("trigger_source"), "schedule");
  EXPECT_EQ(sessions[0].at("metadata").at("triggered_by"), "schedule");
  EXPECT_EQ(sessions[1].at("id"), second.at("session_id"));
  EXPECT_EQ(sessions[1].at("trigger_source"), "human_guidance");
  EXPECT_EQ(sessions[1].at("metadata").at("triggered_by"), "human");
  for (const auto& session : sessions) {
    EXPECT_EQ(session.at("session_type"), "self_reflection");
    EXPECT_EQ(session.at("goal"), "review the week");
    EXPECT_EQ(session.at("summary"), "Summary: short answers work.");
    // Each reflection's own tool use is an introspection turn of its own session.
    EXPECT_EQ(get_ok("/api/sessions/" + text(session.at("id")) + "/introspection_turns").at("total"), 1);
  }
  EXPECT_EQ(get_ok("/api/dialogues/" + dialogue).at("dialogue").at("dialogue_type"), "ai_self");

  // Another goal is another kind: a dialogue of its own.
  const auto other = reflect("update my values", "api", 201);
  EXPECT_NE(other.at("dialog_id"), dialog.c_str());
  ASSERT_TRUE(summarised(text(other.at("session_id"))));

  // Found again from the log after a restart, not from memory.
  restart();
  const auto third = reflect("review the week", "schedule", 200);
  EXPECT_EQ(third.at("dialog_id"), dialog.c_str());
  ASSERT_TRUE(summarised(text(third.at("session_id"))));
  EXPECT_EQ(sessions_of(dialogue).size(), 3U);
  EXPECT_EQ(get_ok("/api/ai/lead/sessions?type=self_reflection").at("total"), 4);
  // Two reflection roots in all: one per kind.
  const auto roots = get_ok("/api/dialogs?member=lead").at("dialogs").as_array();
  EXPECT_EQ(roots.size(), 2U) << json::serialize(roots);
}

TEST_F(ReflectionDialogue, AReflectionStillAtWorkIsNotStartedTwiceAndBadInputChangesNothing) {
  start("reflect");
  const auto first = reflect("ask which week", "api", 201);
  const auto dialog = text(first.at("dialog_id"));
  const auto dialogue = text(first.at("dialogue_id"));
  ASSERT_TRUE(eventually([&] { return get_ok("/api/questions").at("questions").as_array().size() == 1; }));

  // It waits for the human: a second start of the kind is a conflict naming the dialog.
  const auto twice = client().post("/api/reflections", json::value{{"member_id", "lead"}, {"goal", "ask which week"}});
  EXPECT_EQ(twice.status, 409) << twice.body;
  EXPECT_EQ(error_field(twice, "code"), "conflict");
  EXPECT_NE(error_field(twice, "message").find(dialog), std::string::npos) << twice.body;
  EXPECT_NE(error_field(twice, "message").find("question"), std::string::npos) << twice.body;
  // Bad input names its field.
  expect_refused("/api/reflections", {{"member_id", "lead"}, {"goal", "ask which week"}, {"trigger_source", "whim"}},
                 400, "bad_field", "trigger_source");
  expect_refused("/api/reflections", {{"member_id", "nobody"}, {"goal", "x"}}, 400, "bad_field", "member_id");
  expect_refused("/api/reflections", {{"member_id", "lead"}}, 400, "bad_field", "goal");
  expect_refused("/api/reflections", {{"member_id", "lead"}, {"goal", "x"}, {"mood", "calm"}}, 400, "bad_field",
                 "mood");
  // None of them changed anything.
  EXPECT_EQ(sessions_of(dialogue).size(), 1U);
  EXPECT_EQ(get_ok("/api/dialogs?member=lead").at("dialogs").as_array().size(), 1U);

  const auto question = get_ok("/api/questions").at("questions").at(0);
  const auto answered = client().post("/api/dialogs/" + dialog + "/answer",
                                      json::value{{"questionId", question.at("id")}, {"content", "week 48"}});
  ASSERT_EQ(answered.status, 202) << answered.body;
  ASSERT_TRUE(summarised(text(first.at("session_id"))));
  EXPECT_EQ(get_ok("/api/sessions/" + text(first.at("session_id"))).at("session").at("summary"),
            "Summary: week 48 reviewed.");
  // At rest again: the next reflection of the kind is a new session of the same dialogue.
  const auto next = reflect("ask which week", "api", 200);
  EXPECT_EQ(next.at("dialog_id"), dialog.c_str());
}

TEST_F(ReflectionDialogue, AReflectionAfterOneWhoseDriveFailedOpensASessionOfItsOwn) {
  start("reflect");
  const auto scribe_reflects = [&](const std::string& trigger, int status) {
    return post_ok("/api/reflections",
                   json::value{{"member_id", "scribe"}, {"goal", "tidy my notes"}, {"trigger_source", trigger}},
                   status);
  };
  const auto first = scribe_reflects("api", 201);
  const auto dialog = text(first.at("dialog_id"));
  const auto dialogue = text(first.at("dialogue_id"));
  // The scribe's model has no answer for a reflection: the drive fails, and the reflection's turn still waits.
  const auto failed = [&] {
    const auto error = get_ok("/api/dialogs/" + dialog).at("dialog").at("lastError");
    return error.is_string() && !error.as_string().empty();
  };
  ASSERT_TRUE(eventually(failed, std::chrono::seconds(5)))
      << json::serialize(get_ok("/api/dialogs/" + dialog + "/transcript")) << server_->output();
  ASSERT_EQ(get_ok("/api/dialogues/" + dialogue + "/unresponded_turns").at("total"), 0);

  // The next reflection of the kind is a session of its own (a turn never spans two sessions):
  // the waiting turn expired unanswered, closed by the system.
  const auto second = scribe_reflects("schedule", 200);
  const auto session = text(second.at("session_id"));
  EXPECT_NE(session, text(first.at("session_id")));
  EXPECT_EQ(get_ok("/api/sessions/" + session).at("session").at("id"), session.c_str());
  const auto sessions = sessions_of(dialogue);
  ASSERT_EQ(sessions.size(), 2U);
  EXPECT_EQ(sessions[1].at("id"), session.c_str());
  const auto expired = get_ok("/api/dialogues/" + dialogue + "/unresponded_turns").at("turns").as_array();
  ASSERT_EQ(expired.size(), 1U);
  EXPECT_EQ(expired[0].at("session_id"), first.at("session_id"));
  EXPECT_EQ(expired[0].at("metadata").at("outcome"), "expired");
  EXPECT_EQ(expired[0].at("metadata").at("closedBy"), "system");
  // The second reflection's goal is a message of its own session.
  EXPECT_EQ(get_ok("/api/sessions/" + session + "/turns").at("total"), 1);
}

TEST_F(ReflectionDialogue, AReusedDialoguesNewSessionIsCommittedWithItsMessageOrNotAtAll) {
  start("reflect");
  const auto made = client().post("/api/dialogs", json::value{{"content", "hello"}, {"msgId", "hello-1"}});
  ASSERT_EQ(made.status, 201) << made.body;
  const std::string first(made.json().at("dialog").at("id").as_string());
  ASSERT_TRUE(eventually_says(first, "ok: hello"));
  const auto newer = client().post("/api/dialogs", json::value{{"content", "good day"}, {"reuse", true}});
  ASSERT_EQ(newer.status, 200) << newer.body;  // the pair's dialogue is `first`
  ASSERT_TRUE(eventually_says(first, "ok: good day"));
  const auto made_again = client().post("/api/dialogs", json::value{{"content", "a new one"}});
  ASSERT_EQ(made_again.status, 201) << made_again.body;
  const std::string pair(made_again.json().at("dialog").at("id").as_string());
  ASSERT_TRUE(eventually_says(pair, "ok: a new one"));
  const auto before = get_ok("/api/dialogues/" + pair + "/sessions").at("total");

  // reuse finds the newest pair dialogue; the message's msgId was sent to another dialog, so the
  // post is refused — and the session it would have opened is not there either.
  const auto refused =
      client().post("/api/dialogs", json::value{{"content", "hello"}, {"msgId", "hello-1"}, {"reuse", true}});
  EXPECT_EQ(refused.status, 409) << refused.body;
  EXPECT_NE(error_field(refused, "message").find("another dialog"), std::string::npos) << refused.body;
  EXPECT_EQ(get_ok("/api/dialogues/" + pair + "/sessions").at("total"), before);
  EXPECT_EQ(messages(pair).size(), 2U);
}

}  // namespace
}  // namespace parley::test

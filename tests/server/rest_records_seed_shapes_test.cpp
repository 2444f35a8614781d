// REST black-box of seed 002's own request and response shapes for the records write API
// ("对话写入接口标准定义"): `POST /api/messages` by dialogue_id/session_id answering
// {message_id, created_at}; `POST /api/turns` with initiator/expected_responder answering
// {turn_id, status: "open"}; a turn closed `expired` or `ignored` with `closed_by`; sessions of
// type `reflection|interaction` with `triggered_by`, closed with a `reason`; the seed's `?type=`
// on the query routes. Bad input is refused naming the field, and a refusal leaves the log as it was.
#include <algorithm>

#include "parley/store/store.hpp"
#include "records_rest_fixture.hpp"

namespace parley::test {
namespace {

namespace json = boost::json;

class records_seed_shapes : public RecordsRestTest {
 protected:
  std::string finished_dialog() {
    const auto id = create_dialog("hello seed shapes");
    EXPECT_TRUE(eventually_says(id, "ok: hello seed shapes"));
    return id;
  }
  // The records events in a dialog's log, read after the server stopped.
  std::vector<std::string> record_events_of(const std::string& id) {
    std::vector<std::string> out;
    EXPECT_EQ(server_->terminate(), 0) << server_->output();
    auto log = open_sqlite_store(data_dir().string());
    EXPECT_TRUE(log) << log.err().message;
    if (!log) return out;
    auto events = (*log)->read_events(id);
    EXPECT_TRUE(events);
    if (!events) return out;
    for (const auto& ev : *events) {
      if (ev.type().starts_with("record_")) out.emplace_back(ev.type());
    }
    return out;
  }
};
using RecordsSeedShapes = records_seed_shapes;

TEST_F(RecordsSeedShapes, TheSeedsWriteRequestsAndAnswers) {
  start("q4h");
  const auto id = finished_dialog();
  const auto dialogue_id = text(get_ok("/api/dialogues/" + id).at("dialogue").at("id"));

  // An interaction session, triggered by the human.
  const auto opened = post_ok(
      "/api/sessions", {{"dialogue_id", dialogue_id}, {"session_type", "interaction"}, {"triggered_by", "human"}});
  const auto session_id = text(opened.at("session_id"));
  EXPECT_EQ(opened.at("session").at("session_type"), "dialogue");
  EXPECT_EQ(opened.at("session").at("created_by"), "human");
  EXPECT_EQ(opened.at("session").at("metadata").at("triggered_by"), "human");

  // The seed's turn: initiator, expected responder and window (its own example: 180 minutes);
  // answered "open", with the window it waits.
  const auto turn = post_ok("/api/turns", {{"session_id", session_id},
                                           {"initiator", "ai"},
                                           {"expected_responder", "human"},
                                           {"expected_window_minutes", 180}});
  const auto turn_id = text(turn.at("turn_id"));
  EXPECT_EQ(turn.at("status"), "open");
  EXPECT_EQ(turn.at("turn").at("initiator_role"), "ai");
  EXPECT_EQ(turn.at("turn").at("responder_role"), "human");
  EXPECT_EQ(turn.at("turn").at("status"), "pending");
  EXPECT_EQ(turn.at("turn").at("expected_window_minutes"), 180);
  EXPECT_EQ(turn.at("turn").at("response_window_ms"), 180LL * 60 * 1000);

  // The seed's message: dialogue and session named, the turn left to the server (the open one).
  const auto asked = post_ok("/api/messages", {{"dialogue_id", dialogue_id},
                                               {"session_id", session_id},
                                               {"sender_role", "ai"},
                                               {"sender_id", "lead"},
                                               {"content", "Shall I book Friday?"}});
  EXPECT_EQ(asked.at("message").at("turn_id"), turn_id.c_str());
  EXPECT_EQ(asked.at("message_id"), asked.at("message").at("id"));
  EXPECT_EQ(asked.at("created_at"), asked.at("message").at("created_at"));
  // All three named, as the seed's example does; the human's answer closes the turn responded.
  const auto answered = post_ok("/api/messages", {{"dialogue_id", id},
                                                  {"session_id", session_id},
                                                  {"turn_id", turn_id},
                                                  {"sender_role", "human"},
                                                  {"content", "Yes, Friday."}});
  EXPECT_EQ(get_ok("/api/messages/" + text(answered.at("message_id"))).at("message").at("content"), "Yes, Friday.");
  EXPECT_EQ(get_ok("/api/turns/" + turn_id).at("turn").at("status"), "responded");

  // A turn of its own window, shorter than the dialogue's: returned by every route that shows it.
  const auto brief = post_ok("/api/turns", {{"session_id", session_id},
                                            {"initiator", "ai"},
                                            {"expected_responder", "human"},
                                            {"expected_window_minutes", 45}})
                         .at("turn");
  EXPECT_EQ(brief.at("expected_window_minutes"), 45);
  EXPECT_EQ(brief.at("response_window_ms"), 45LL * 60 * 1000);
  const auto brief_id = text(brief.at("id"));
  EXPECT_EQ(get_ok("/api/turns/" + brief_id).at("turn"), brief);
  EXPECT_EQ(get_ok("/api/sessions/" + session_id + "/turns?status=pending").at("turns").at(0), brief);
  post_ok("/api/turns/" + brief_id + "/close", {{"status", "ignored"}}, 200);

  // The seed's outcomes: expired and ignored are unresponded turns that keep the seed's word.
  for (const std::string outcome : {"expired", "ignored"}) {
    const auto next =
        text(post_ok("/api/turns", {{"session_id", session_id}, {"initiator", "human"}, {"expected_responder", "ai"}})
                 .at("turn_id"));
    const auto closed = post_ok("/api/turns/" + next + "/close", {{"status", outcome}, {"closed_by", "system"}}, 200);
    EXPECT_EQ(closed.at("status"), outcome.c_str());
    EXPECT_EQ(closed.at("turn").at("status"), "unresponded");
    EXPECT_EQ(closed.at("turn").at("turn_type"), "unresponded_turn");
    EXPECT_EQ(closed.at("turn").at("metadata").at("outcome"), outcome.c_str());
    EXPECT_EQ(closed.at("turn").at("metadata").at("closedBy"), "system");
  }
  EXPECT_EQ(get_ok("/api/dialogues/" + id + "/unresponded_turns").at("total"), 3);

  // Closing a session with the seed's reason.
  const auto ended = post_ok("/api/sessions/" + session_id + "/close", {{"reason", "manual"}}, 200).at("session");
  EXPECT_FALSE(ended.at("end_at").is_null());
  EXPECT_EQ(ended.at("metadata").at("close_reason"), "manual");
  EXPECT_EQ(ended.at("metadata").at("triggered_by"), "human");

  // A reflection session on a schedule: a self_reflection session the system created.
  const auto reflection =
      post_ok("/api/sessions",
              {{"dialogue_id", dialogue_id}, {"session_type", "reflection"}, {"triggered_by", "schedule"}})
          .at("session");
  EXPECT_EQ(reflection.at("session_type"), "self_reflection");
  EXPECT_EQ(reflection.at("trigger_source"), "schedule");
  EXPECT_EQ(reflection.at("created_by"), "system");

  // The query routes take the seed's words for the session types.
  EXPECT_EQ(get_ok("/api/dialogues/" + id + "/sessions?type=reflection").at("total"), 1);
  EXPECT_EQ(get_ok("/api/dialogues/" + id + "/sessions?type=interaction"),
            get_ok("/api/dialogues/" + id + "/sessions?type=dialogue"));
  EXPECT_EQ(get_ok("/api/ai/lead/sessions?type=reflection").at("total"), 1);
}

TEST_F(RecordsSeedShapes, TypeTaskListsTheSessionsOfTheWorkAnotherAiGaveTheMember) {
  start("q4h");
  const auto root = create_dialog("delegate");
  // The clerk's subdialog asks the human; its first session exists once the question is recorded.
  ASSERT_TRUE(eventually([&] {
    const auto tasks = client().get("/api/ai/clerk/sessions?type=task").json();
    return tasks.is_object() && tasks.at("total") == 1;
  })) << server_->output();
  const auto task = get_ok("/api/ai/clerk/sessions?type=task").at("sessions").at(0);
  EXPECT_EQ(get_ok("/api/dialogues/" + text(task.at("dialogue_id"))).at("dialogue").at("dialogue_type"), "ai_ai");
  // The lead's own sessions are with the human: none of them is a task.
  EXPECT_EQ(get_ok("/api/ai/lead/sessions?type=task").at("total"), 0);
  EXPECT_GE(get_ok("/api/ai/lead/sessions").at("total").as_int64(), 1);
}

// Seed 002 ④, AI ⇄ AI: a Tellask is produced as an AI-only dialogue, related to its caller's,
// whose thread names both AIs and no human, in the seed's `group_ai` context mode.
TEST_F(RecordsSeedShapes, ATellaskIsAnAiOnlyDialogueWhoseThreadNamesBothAis) {
  start("q4h");
  const auto root = create_dialog("delegate");
  ASSERT_TRUE(eventually([&] {
    const auto tasks = client().get("/api/ai/clerk/sessions?type=task").json();
    return tasks.is_object() && tasks.at("total") == 1;
  })) << server_->output();
  const auto dialogue_id = text(get_ok("/api/ai/clerk/sessions?type=task").at("sessions").at(0).at("dialogue_id"));
  const auto dialogue = get_ok("/api/dialogues/" + dialogue_id).at("dialogue");
  EXPECT_EQ(dialogue.at("dialogue_type"), "ai_ai");
  EXPECT_TRUE(dialogue.at("human_id").is_null());
  EXPECT_EQ(dialogue.at("relation_id"), get_ok("/api/dialogues/" + root).at("dialogue").at("id"));
  const auto thread = get_ok("/api/dialogues/" + dialogue_id + "?view=conversation_thread").at("conversation_thread");
  EXPECT_EQ(thread.at("participants").at("human_ids"), json::array{});
  EXPECT_EQ(thread.at("participants").at("ai_ids"), (json::array{"clerk", "lead"}));
  EXPECT_EQ(thread.at("participants").at("context_mode"), "group_ai");
  // The root is the human's one-to-one dialogue with the lead.
  const auto root_thread = get_ok("/api/dialogues/" + root + "?view=conversation_thread").at("conversation_thread");
  EXPECT_EQ(root_thread.at("dialogue_type"), "human_ai");
  EXPECT_EQ(root_thread.at("participants").at("context_mode"), "1v1");
}

TEST_F(RecordsSeedShapes, BadSeedShapedInputIsRefusedNamingTheFieldAndNothingReachesTheLog) {
  start("q4h");
  const auto id = finished_dialog();
  const auto session_id = text(get_ok("/api/dialogues/" + id + "/latest_session").at("session").at("id"));
  const auto other = create_dialog("another one");
  ASSERT_TRUE(eventually_says(other, "ok: another one"));
  const auto other_session = text(get_ok("/api/dialogues/" + other + "/latest_session").at("session").at("id"));

  // Bad enums, each named.
  expect_refused("/api/sessions", {{"dialogue_id", id}, {"session_type", "nap"}}, 400, "bad_field", "session_type");
  expect_refused("/api/sessions", {{"dialogue_id", id}, {"triggered_by", "cron"}}, 400, "bad_field", "triggered_by");
  expect_refused("/api/turns", {{"session_id", session_id}, {"initiator", "robot"}, {"expected_responder", "ai"}}, 400,
                 "bad_field", "initiator");
  expect_refused("/api/turns", {{"session_id", session_id}, {"initiator", "human"}, {"expected_responder", "dog"}}, 400,
                 "bad_field", "expected_responder");
  // Either name, not two that disagree; one of them is required.
  expect_refused(
      "/api/turns",
      {{"session_id", session_id}, {"initiator", "human"}, {"initiator_role", "ai"}, {"expected_responder", "ai"}}, 400,
      "bad_field", "initiator");
  expect_refused("/api/turns", {{"session_id", session_id}, {"expected_responder", "ai"}}, 400, "bad_field",
                 "initiator_role");
  // A turn's own window is a whole number of minutes from 1 to 30 days: zero, negative,
  // fractional, absurdly large and non-numeric windows are refused.
  const std::vector<json::value> bad_windows{0, -1, -180, 1.5, 180.0, 43201, 1e15, "3h", "180", true};
  for (const auto& minutes : bad_windows) {
    SCOPED_TRACE(json::serialize(minutes));
    expect_refused("/api/turns",
                   {{"session_id", session_id},
                    {"initiator", "human"},
                    {"expected_responder", "ai"},
                    {"expected_window_minutes", minutes}},
                   400, "bad_field", "expected_window_minutes");
  }
  // Unknown ids.
  expect_refused("/api/turns",
                 {{"session_id", "no-such-session"}, {"initiator", "human"}, {"expected_responder", "ai"}}, 404,
                 "not_found");
  expect_refused("/api/messages", {{"dialogue_id", "no-such-dialogue"}, {"sender_role", "human"}, {"content", "x"}},
                 404, "not_found");
  expect_refused("/api/messages", {{"session_id", "no-such-session"}, {"sender_role", "human"}, {"content", "x"}}, 404,
                 "not_found");
  expect_refused("/api/turns/no-such-turn/close", {{"status", "expired"}}, 404, "not_found");
  // Wrong states: no open turn to join; a session of another dialogue.
  expect_refused("/api/messages", {{"dialogue_id", id}, {"sender_role", "human"}, {"content", "x"}}, 409, "conflict");
  expect_refused("/api/messages",
                 {{"dialogue_id", id}, {"session_id", other_session}, {"sender_role", "human"}, {"content", "x"}}, 400,
                 "bad_field", "session_id");
  // A turn of the first dialogue, named with the other's session: refused, then the turn's bad closes.
  const auto turn_id =
      text(post_ok("/api/turns", {{"session_id", session_id}, {"initiator", "human"}, {"expected_responder", "ai"}})
               .at("turn_id"));
  expect_refused("/api/messages",
                 {{"turn_id", turn_id}, {"session_id", other_session}, {"sender_role", "ai"}, {"content", "x"}}, 400,
                 "bad_field", "session_id");
  expect_refused("/api/turns/" + turn_id + "/close", {{"status", "forgotten"}}, 400, "bad_field", "status");
  expect_refused("/api/turns/" + turn_id + "/close", {{"status", "expired"}, {"closed_by", "robot"}}, 400, "bad_field",
                 "closed_by");
  expect_refused("/api/sessions/" + session_id + "/close", {{"reason", "bored"}}, 400, "bad_field", "reason");
  const auto bad_type = client().get("/api/dialogues/" + id + "/sessions?type=chat");
  EXPECT_EQ(bad_type.status, 400) << bad_type.body;
  EXPECT_EQ(error_field(bad_type, "message").rfind("type:", 0), 0U) << bad_type.body;

  // The turn is still open and empty; the log holds that one turn and nothing of the refusals.
  EXPECT_EQ(get_ok("/api/turns/" + turn_id).at("turn").at("status"), "pending");
  EXPECT_EQ(get_ok("/api/turns/" + turn_id + "/messages").at("total"), 0);
  EXPECT_EQ(record_events_of(id), (std::vector<std::string>{"record_turn_opened"}));
}

}  // namespace
}  // namespace parley::test

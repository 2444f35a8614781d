// REST black-box of seed 002's records (docs/records.md): a dialog read back as dialogue →
// sessions → turns → messages, full-text search, bad input refused naming the parameter, and
// response windows that passed while the server was down closed at start at their own deadline.
#include <cstdlib>
#include <optional>

#include "parley/core/time.hpp"
#include "records_rest_fixture.hpp"  // text(), shared with the other records tests (one unity file)

namespace parley::test {
namespace {

namespace json = boost::json;

std::int64_t ms_of(const json::value& iso) { return parse_iso8601_ms(iso.as_string()).value_or(-1); }

class RecordsRest : public RestTest {
 protected:
  json::value get_ok(const std::string& target) {
    const auto reply = client().get(target);
    EXPECT_EQ(reply.status, 200) << target << ": " << reply.body;
    return reply.json();
  }
  // A 400 bad_field whose message starts with the parameter's name.
  void expect_bad(const std::string& target, const std::string& param) {
    const auto reply = client().get(target);
    EXPECT_EQ(reply.status, 400) << target << ": " << reply.body;
    EXPECT_EQ(code_of(reply), "bad_field") << target;
    EXPECT_EQ(message_of(reply).rfind(param + ":", 0), 0U) << target << ": " << message_of(reply);
  }
  void expect_not_found(const std::string& target) {
    const auto reply = client().get(target);
    EXPECT_EQ(reply.status, 404) << target << ": " << reply.body;
    EXPECT_EQ(code_of(reply), "not_found") << target;
  }
};

TEST_F(RecordsRest, ADialogReadsBackAsDialogueSessionTurnAndMessages) {
  start("q4h");
  const auto id = create_dialog("hello records");
  ASSERT_TRUE(eventually_says(id, "ok: hello records"));

  const auto dialogue = get_ok("/api/dialogues/" + id).at("dialogue");
  EXPECT_EQ(dialogue.at("dialog_id"), id.c_str());
  EXPECT_EQ(dialogue.at("dialogue_type"), "human_ai");
  EXPECT_EQ(dialogue.at("ai_id"), "lead");
  EXPECT_EQ(dialogue.at("human_id"), "operator");  // the one user of a server without --users
  EXPECT_EQ(dialogue.at("is_active"), true);
  const std::string dialogue_id = text(dialogue.at("id"));
  EXPECT_EQ(get_ok("/api/dialogues/" + dialogue_id).at("dialogue").at("dialog_id"), id.c_str());

  const auto sessions = get_ok("/api/dialogues/" + id + "/sessions");
  ASSERT_EQ(sessions.at("total"), 1);
  const auto session = sessions.at("sessions").at(0);
  EXPECT_EQ(session.at("session_type"), "dialogue");
  EXPECT_TRUE(session.at("end_at").is_null());
  EXPECT_EQ(get_ok("/api/dialogues/" + id + "/latest_session").at("session"), session);
  const std::string session_id = text(session.at("id"));
  EXPECT_EQ(get_ok("/api/sessions/" + session_id).at("session"), session);

  const auto turns = get_ok("/api/sessions/" + session_id + "/turns");
  ASSERT_EQ(turns.at("total"), 1);
  const auto turn = turns.at("turns").at(0);
  EXPECT_EQ(turn.at("turn_type"), "human_query");
  EXPECT_EQ(turn.at("initiator_role"), "human");
  EXPECT_EQ(turn.at("responder_role"), "ai");
  EXPECT_EQ(turn.at("status"), "responded");
  EXPECT_EQ(turn.at("response_window_ms"), 3 * 3600 * 1000);
  EXPECT_EQ(ms_of(turn.at("closed_at")) - ms_of(turn.at("started_at")), turn.at("response_time").as_int64());
  const std::string turn_id = text(turn.at("id"));
  EXPECT_EQ(get_ok("/api/turns/" + turn_id).at("turn"), turn);
  EXPECT_EQ(get_ok("/api/sessions/" + session_id + "/turns?status=pending").at("total"), 0);

  const auto messages = get_ok("/api/turns/" + turn_id + "/messages");
  ASSERT_EQ(messages.at("total"), 2);
  const auto& first = messages.at("messages").at(0);
  EXPECT_EQ(first.at("sender_role"), "human");
  EXPECT_EQ(first.at("content"), "hello records");
  EXPECT_EQ(first.at("content_type"), "text");
  EXPECT_EQ(first.at("turn_id"), turn_id.c_str());
  EXPECT_EQ(first.at("session_id"), session_id.c_str());
  EXPECT_EQ(first.at("dialogue_id"), dialogue_id.c_str());
  EXPECT_EQ(messages.at("messages").at(1).at("sender_role"), "ai");
  EXPECT_EQ(messages.at("messages").at(1).at("sender_id"), "lead");
  EXPECT_EQ(get_ok("/api/turns/" + turn_id + "/messages?role=ai").at("total"), 1);
  EXPECT_EQ(
      get_ok("/api/turns/" + turn_id + "/messages?sort_by=-created_at&limit=1").at("messages").at(0).at("sender_role"),
      "ai");
  const std::string message_id = text(first.at("id"));
  // One message read alone is the listed one with its embedding (none: no embedder here).
  auto alone = get_ok("/api/messages/" + message_id).at("message").as_object();
  EXPECT_EQ(alone.at("embedding_vector"), nullptr);
  alone.erase("embedding_vector");
  EXPECT_EQ(json::value(alone), first);

  const auto found = get_ok("/api/messages/search?q=records");
  EXPECT_EQ(found.at("total"), 2);  // the question and the answer that repeats it
  EXPECT_EQ(get_ok("/api/messages/search?q=records&role=human").at("messages").at(0).at("id"), message_id.c_str());
  EXPECT_EQ(get_ok("/api/messages/search?q=nowhere").at("total"), 0);
  EXPECT_EQ(get_ok("/api/dialogues/" + id + "/unresponded_turns").at("total"), 0);
  EXPECT_EQ(
      get_ok("/api/dialogues/" + id + "/sessions?since=2000-01-01T00:00:00Z&until=2000-01-02T00:00:00Z").at("total"),
      0);
}

TEST_F(RecordsRest, BadInputIsRefusedNamingTheParameter) {
  start("q4h");
  const auto id = create_dialog("hello");
  ASSERT_TRUE(eventually_says(id, "ok: hello"));
  const auto session_id = text(get_ok("/api/dialogues/" + id + "/latest_session").at("session").at("id"));

  expect_not_found("/api/dialogues/nope");
  expect_not_found("/api/dialogues/nope/sessions");
  expect_not_found("/api/dialogues/nope/latest_session");
  expect_not_found("/api/dialogues/nope/unresponded_turns");
  expect_not_found("/api/sessions/nope");
  expect_not_found("/api/sessions/nope/turns");
  expect_not_found("/api/turns/nope");
  expect_not_found("/api/turns/nope/messages");
  expect_not_found("/api/messages/nope");
  expect_not_found("/api/messages/search?q=hello&dialogue_id=nope");

  expect_bad("/api/sessions/" + session_id + "/turns?status=maybe", "status");
  expect_bad("/api/messages/search?q=hello&role=robot", "role");
  expect_bad("/api/messages/search?q=hello&content_type=video", "content_type");
  expect_bad("/api/dialogues/" + id + "/sessions?since=yesterday", "since");
  expect_bad("/api/dialogues/" + id + "/sessions?until=2026-13-40T00:00:00Z", "until");
  expect_bad("/api/dialogues/" + id + "/sessions?since=2026-01-02T00:00:00Z&until=2026-01-01T00:00:00Z", "until");
  expect_bad("/api/dialogues/" + id + "/sessions?sort_by=id", "sort_by");
  expect_bad("/api/dialogues/" + id + "/sessions?limit=0", "limit");
  expect_bad("/api/dialogues/" + id + "/sessions?offset=-1", "offset");
  expect_bad("/api/dialogues/" + id + "/sessions?role=ai", "role");  // not a filter of sessions
  expect_bad("/api/messages/search", "q");
  expect_bad("/api/messages/search?q=%20%20", "q");
  expect_bad("/api/messages/search?q=%22hello", "q");             // "hello
  expect_bad("/api/messages/search?q=NEAR(hello%20world)", "q");  // NEAR(hello world)
  expect_bad("/api/messages/search?q=hel*", "q");
  expect_bad("/api/messages/search?q=content:hello", "q");
  expect_bad("/api/messages/search?q=hello%20OR%20world", "q");
  expect_bad("/api/messages/search?q=hi", "q");  // under three characters
  expect_bad("/api/messages/search?q=" + std::string(300, 'x'), "q");
  // Still serving, and nothing was changed by the attempts.
  EXPECT_EQ(get_ok("/api/messages/search?q=hello").at("total"), 2);
}

TEST_F(RecordsRest, WindowsThatPassedWhileTheServerWasDownCloseAtStartAtTheirDeadline) {
  start("q4h");
  const auto root = create_dialog("delegate");
  // The clerk asks the human; nobody answers.
  ASSERT_TRUE(eventually([&] { return client().get("/api/questions").json().at("questions").as_array().size() == 1; }));
  const auto question = client().get("/api/questions").json().at("questions").at(0);
  const std::string clerk = text(question.at("dialog").at("selfId"));
  const auto pending = get_ok("/api/dialogues/" + clerk + "/sessions");
  const auto session_id = text(pending.at("sessions").at(0).at("id"));
  // The question is listed as soon as the clerk asks it; its turn opens when the round commits.
  const std::string pending_turns = "/api/sessions/" + session_id + "/turns?status=pending";
  ASSERT_TRUE(eventually([&] {
    const auto turns = get_ok(pending_turns).at("turns");
    return turns.as_array().size() == 1 && turns.at(0).at("responder_role") == "human";
  })) << boost::json::serialize(get_ok(pending_turns));
  const auto turns_before = get_ok(pending_turns).at("turns");
  ASSERT_EQ(turns_before.as_array().size(), 1U);
  EXPECT_EQ(turns_before.at(0).at("turn_type"), "ai_prompt");
  EXPECT_EQ(turns_before.at(0).at("responder_role"), "human");
  const std::string asked_turn = text(turns_before.at(0).at("id"));
  ASSERT_EQ(server_->terminate(), 0) << server_->output();

  // Four hours later (the server's clock moved, nothing waited).
  ::setenv("PARLEY_CLOCK_OFFSET_MS", std::to_string(4LL * 3600 * 1000).c_str(), 1);
  server_ = std::make_unique<server_process>(
      std::vector<std::string>{"--team", (team_dir_ / "team.yaml").string(), "--data", data_dir().string()});
  ::unsetenv("PARLEY_CLOCK_OFFSET_MS");
  ASSERT_TRUE(server_->started()) << server_->output();

  ASSERT_TRUE(eventually([&] { return get_ok("/api/dialogues/" + clerk + "/unresponded_turns").at("total") == 1; }))
      << server_->output();
  const auto closed = get_ok("/api/turns/" + asked_turn).at("turn");
  EXPECT_EQ(closed.at("status"), "unresponded");
  EXPECT_EQ(closed.at("turn_type"), "unresponded_turn");
  EXPECT_EQ(ms_of(closed.at("closed_at")), ms_of(closed.at("started_at")) + 3LL * 3600 * 1000);
  EXPECT_TRUE(closed.at("response_time").is_null());
  // The root's own turn (waiting for its AI, which waits for the clerk) went unanswered too.
  ASSERT_TRUE(eventually([&] { return get_ok("/api/dialogues/" + root + "/unresponded_turns").at("total") == 1; }));
  EXPECT_EQ(get_ok("/api/dialogues/" + root + "/unresponded_turns").at("turns").at(0).at("initiator_role"), "human");
  EXPECT_EQ(server_->terminate(), 0);
}

TEST_F(RecordsRest, ARunningServerClosesATurnWhenItsWindowPasses) {
  start("q4h", {"--turn-window", "1"});
  create_dialog("delegate");
  ASSERT_TRUE(eventually([&] { return client().get("/api/questions").json().at("questions").as_array().size() == 1; }));
  const std::string clerk = text(client().get("/api/questions").json().at("questions").at(0).at("dialog").at("selfId"));
  // The timer fires about a second later; the test only waits for its effect.
  ASSERT_TRUE(eventually([&] { return get_ok("/api/dialogues/" + clerk + "/unresponded_turns").at("total") == 1; }));
  const auto turn = get_ok("/api/dialogues/" + clerk + "/unresponded_turns").at("turns").at(0);
  EXPECT_EQ(turn.at("responder_role"), "human");
  EXPECT_EQ(ms_of(turn.at("closed_at")), ms_of(turn.at("started_at")) + 1000);
}

// Seed 002's `expected_window_minutes`: a turn written with its own window waits that long, not
// its dialogue's. The timers read each pending turn's own deadline, from a running server's
// records and from the records a restarted server finds.
class records_turn_windows : public RecordsRest {
 protected:
  // The current session of a dialog that finished its first answer.
  std::string session_of(const std::string& id) {
    return text(get_ok("/api/dialogues/" + id + "/latest_session").at("session").at("id"));
  }
  // POST /api/turns, retried while the dialog still has a turn of its own pending (a refusal
  // changes nothing); the turn, or null.
  json::value open_turn(const std::string& session_id, std::optional<int> minutes) {
    json::object body{{"session_id", session_id}, {"initiator", "ai"}, {"expected_responder", "human"}};
    if (minutes) body["expected_window_minutes"] = *minutes;
    json::value turn;
    eventually([&] {
      const auto reply = client().post("/api/turns", body);
      if (reply.status != 201) return false;
      turn = reply.json().at("turn");
      return true;
    });
    return turn;
  }
  std::string status_of(const std::string& turn_id) {
    return text(get_ok("/api/turns/" + turn_id).at("turn").at("status"));
  }
};
using RecordsTurnWindows = records_turn_windows;

TEST_F(RecordsTurnWindows, ARunningServerClosesEachTurnAtItsOwnWindow) {
  // Dialogue windows of one second; one turn opened with a window of its own, one minute.
  start("q4h", {"--turn-window", "1"});
  const auto own = create_dialog("hello own window");
  ASSERT_TRUE(eventually_says(own, "ok: hello own window"));
  const auto other = create_dialog("hello other");
  ASSERT_TRUE(eventually_says(other, "ok: hello other"));
  const auto long_turn = open_turn(session_of(own), 1);
  ASSERT_TRUE(long_turn.is_object());
  EXPECT_EQ(long_turn.at("expected_window_minutes"), 1);
  EXPECT_EQ(long_turn.at("response_window_ms"), 60000);
  EXPECT_EQ(ms_of(long_turn.at("deadline_at")), ms_of(long_turn.at("started_at")) + 60000);
  // Opened after it, with the dialogue's window: the timer closes it at its second...
  const auto short_turn = open_turn(session_of(other), std::nullopt);
  ASSERT_TRUE(short_turn.is_object());
  EXPECT_EQ(short_turn.at("response_window_ms"), 1000);
  const std::string short_id = text(short_turn.at("id"));
  ASSERT_TRUE(eventually([&] { return status_of(short_id) == "unresponded"; })) << server_->output();
  const auto closed = get_ok("/api/turns/" + short_id).at("turn");
  EXPECT_EQ(ms_of(closed.at("closed_at")), ms_of(closed.at("started_at")) + 1000);
  // ... while the turn opened earlier with a window of a minute still waits.
  const auto waiting = get_ok("/api/turns/" + text(long_turn.at("id"))).at("turn");
  EXPECT_EQ(waiting.at("status"), "pending");
  EXPECT_EQ(waiting.at("response_window_ms"), 60000);
}

TEST_F(RecordsTurnWindows, ARestartedServerClosesATurnAtItsOwnDeadlineAndKeepsTheOthersWaiting) {
  start("q4h");  // the dialogue windows: three hours
  const auto own = create_dialog("hello own window");
  ASSERT_TRUE(eventually_says(own, "ok: hello own window"));
  const auto other = create_dialog("hello other");
  ASSERT_TRUE(eventually_says(other, "ok: hello other"));
  const auto short_turn = open_turn(session_of(own), 2);
  const auto dialogue_turn = open_turn(session_of(other), std::nullopt);
  ASSERT_TRUE(short_turn.is_object());
  ASSERT_TRUE(dialogue_turn.is_object());
  EXPECT_EQ(dialogue_turn.at("expected_window_minutes"), 180);
  ASSERT_EQ(server_->terminate(), 0) << server_->output();

  // Ten minutes later: past the turn's own two minutes, well within the dialogue's three hours.
  ::setenv("PARLEY_CLOCK_OFFSET_MS", std::to_string(10LL * 60 * 1000).c_str(), 1);
  server_ = std::make_unique<server_process>(
      std::vector<std::string>{"--team", (team_dir_ / "team.yaml").string(), "--data", data_dir().string()});
  ::unsetenv("PARLEY_CLOCK_OFFSET_MS");
  ASSERT_TRUE(server_->started()) << server_->output();

  const std::string short_id = text(short_turn.at("id"));
  ASSERT_TRUE(eventually([&] { return status_of(short_id) == "unresponded"; })) << server_->output();
  const auto closed = get_ok("/api/turns/" + short_id).at("turn");
  EXPECT_EQ(ms_of(closed.at("closed_at")), ms_of(closed.at("started_at")) + 2LL * 60 * 1000);
  EXPECT_EQ(closed.at("expected_window_minutes"), 2);
  EXPECT_EQ(status_of(text(dialogue_turn.at("id"))), "pending");
  EXPECT_EQ(server_->terminate(), 0);
}

TEST_F(RecordsRest, TheResponseWindowIsConfigurableAndRecordedPerDialogue) {
  start("q4h", {"--turn-window", "60", "--session-gap", "30"});
  const auto id = create_dialog("hello");
  ASSERT_TRUE(eventually_says(id, "ok: hello"));
  const auto session = get_ok("/api/dialogues/" + id + "/latest_session").at("session");
  const auto turn = get_ok("/api/sessions/" + text(session.at("id")) + "/turns").at("turns").at(0);
  EXPECT_EQ(turn.at("response_window_ms"), 60000);
  EXPECT_EQ(ms_of(turn.at("deadline_at")), ms_of(turn.at("started_at")) + 60000);
}

}  // namespace
}  // namespace parley::test

// REST black-box of seed 002's nested loading: "支持嵌套查询与批量载入（e.g., include=messages）"
// (docs/records.md "Nested loading"). Dialogues carry their sessions, sessions their turns, turns
// their messages, one level or a chain; a parent with more rows than include_limit names its own
// list route at the next offset; an unknown include is a 400 naming the parameter and the values.
#include "records_rest_fixture.hpp"

namespace parley::test {
namespace {

namespace json = boost::json;

class RecordsIncludeRest : public RecordsRestTest {
 protected:
  void expect_get_refused(const std::string& target, const std::string& message_start) {
    const auto reply = client().get(target);
    EXPECT_EQ(reply.status, 400) << target << ": " << reply.body;
    EXPECT_EQ(error_field(reply, "code"), "bad_field") << reply.body;
    EXPECT_EQ(error_field(reply, "message").rfind(message_start, 0), 0U) << target << ": " << reply.body;
  }
  // A finished dialog (one session: a turn of two messages), then a written session whose first
  // turn has four messages (three of the human's, the AI's answer) and whose second has one.
  void SetUpDialogue() {
    start("q4h");
    dialog_ = create_dialog("hello nesting");
    ASSERT_TRUE(eventually_says(dialog_, "ok: hello nesting"));
    session_ = text(post_ok("/api/sessions", {{"dialogue_id", dialog_}}).at("session_id"));
    for (int t = 0; t < 2; ++t) {
      const auto turn =
          text(post_ok("/api/turns", {{"session_id", session_}, {"initiator_role", "human"}, {"responder_role", "ai"}})
                   .at("turn_id"));
      turns_.push_back(turn);
      const int said = t == 0 ? 3 : 1;
      for (int m = 0; m < said; ++m) {
        post_ok("/api/messages",
                {{"turn_id", turn}, {"sender_role", "human"}, {"content", "line " + std::to_string(m)}});
      }
      if (t == 0) {
        post_ok("/api/messages",
                {{"turn_id", turn}, {"sender_role", "ai"}, {"sender_id", "lead"}, {"content", "noted"}});
      }
    }
  }
  std::string dialog_;
  std::string session_;
  std::vector<std::string> turns_;
};

TEST_F(RecordsIncludeRest, EachLayerCarriesTheNextOneLevelOrAChain) {
  SetUpDialogue();
  const auto dialogue = get_ok("/api/dialogues/" + dialog_ + "?include=sessions.turns.messages").at("dialogue");
  ASSERT_EQ(dialogue.at("sessions").as_array().size(), 2U) << dialogue;
  EXPECT_EQ(dialogue.at("sessions_total"), 2);
  EXPECT_TRUE(dialogue.at("sessions_next").is_null());
  const auto& first = dialogue.at("sessions").at(0);
  ASSERT_EQ(first.at("turns").as_array().size(), 1U);
  EXPECT_EQ(first.at("turns").at(0).at("messages").at(0).at("content"), "hello nesting");
  const auto& written = dialogue.at("sessions").at(1);
  EXPECT_EQ(written.at("id"), session_.c_str());
  ASSERT_EQ(written.at("turns").as_array().size(), 2U);
  const auto& answered = written.at("turns").at(0);
  EXPECT_EQ(answered.at("status"), "responded");
  ASSERT_EQ(answered.at("messages").as_array().size(), 4U);
  EXPECT_EQ(answered.at("messages").at(0).at("content"), "line 0");  // log order
  EXPECT_EQ(answered.at("messages").at(3).at("content"), "noted");
  EXPECT_EQ(written.at("turns").at(1).at("messages_total"), 1);

  // Every route that lists or shows sessions takes turns; every one of turns takes messages.
  const auto sessions = get_ok("/api/dialogues/" + dialog_ + "/sessions?include=turns");
  EXPECT_EQ(sessions.at("sessions").at(1).at("turns").as_array().size(), 2U);
  EXPECT_FALSE(sessions.at("sessions").at(1).at("turns").at(0).as_object().contains("messages"));
  EXPECT_EQ(get_ok("/api/sessions/" + session_ + "?include=turns").at("session").at("turns_total"), 2);
  EXPECT_EQ(get_ok("/api/dialogues/" + dialog_ + "/latest_session?include=turns.messages")
                .at("session")
                .at("turns")
                .at(1)
                .at("messages")
                .at(0)
                .at("content"),
            "line 0");
  EXPECT_EQ(get_ok("/api/ai/lead/sessions?include=turns").at("sessions").at(1).at("turns_total"), 2);
  EXPECT_EQ(get_ok("/api/sessions/" + session_ + "/turns?include=messages").at("turns").at(0).at("messages_total"), 4);
  EXPECT_EQ(get_ok("/api/turns/" + turns_[0] + "?include=messages").at("turn").at("messages").as_array().size(), 4U);
}

TEST_F(RecordsIncludeRest, AParentPastIncludeLimitCarriesItsFirstRowsAndTheRouteToTheRest) {
  SetUpDialogue();
  const auto session = get_ok("/api/sessions/" + session_ + "?include=turns.messages&include_limit=2").at("session");
  const auto& turn = session.at("turns").at(0);
  ASSERT_EQ(turn.at("messages").as_array().size(), 2U);
  EXPECT_EQ(turn.at("messages_total"), 4);
  const auto next = text(turn.at("messages_next"));
  EXPECT_EQ(next, "/api/turns/" + turns_[0] + "/messages?offset=2&limit=2");
  const auto rest = get_ok(next);
  ASSERT_EQ(rest.at("messages").as_array().size(), 2U);
  EXPECT_EQ(rest.at("messages").at(0).at("content"), "line 2");
  EXPECT_EQ(rest.at("messages").at(1).at("content"), "noted");

  const auto dialogue = get_ok("/api/dialogues/" + dialog_ + "?include=sessions.turns&include_limit=1").at("dialogue");
  EXPECT_EQ(dialogue.at("sessions").as_array().size(), 1U);
  EXPECT_EQ(text(dialogue.at("sessions_next")),
            "/api/dialogues/" + text(dialogue.at("id")) + "/sessions?offset=1&limit=1&include=turns&include_limit=1");
  const auto following = get_ok(text(dialogue.at("sessions_next")));
  EXPECT_EQ(following.at("sessions").at(0).at("id"), session_.c_str());
  EXPECT_EQ(following.at("sessions").at(0).at("turns_total"), 2);
}

TEST_F(RecordsIncludeRest, AnUnknownIncludeIsA400NamingTheParameterAndTheValuesItTakes) {
  SetUpDialogue();
  expect_get_refused("/api/dialogues/" + dialog_ + "?include=everything",
                     "include: expected one of sessions, sessions.turns, sessions.turns.messages, got 'everything'");
  expect_get_refused("/api/dialogues/" + dialog_ + "/sessions?include=messages",
                     "include: expected one of turns, turns.messages, got 'messages'");
  expect_get_refused("/api/sessions/" + session_ + "/turns?include=turns", "include: expected one of messages");
  expect_get_refused("/api/turns/" + turns_[0] + "?include=messages&include_limit=0", "include_limit:");
  expect_get_refused("/api/turns/" + turns_[0] + "?include_limit=5", "include_limit: only with include");
  expect_get_refused("/api/turns/" + turns_[0] + "?include=messages&view=dialogue_turn", "include: not with view");
  expect_get_refused("/api/dialogues/" + dialog_ + "/system_utterances?include=messages",
                     "include: not a parameter of this route");
}

}  // namespace
}  // namespace parley::test

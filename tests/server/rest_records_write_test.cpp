// REST black-box of seed 002's record writes (docs/records.md "Writing records"): a session, a
// turn and its messages written through the API read back through it; the seed's rules (a message
// belongs to an open turn, a turn to the current session) refused with 409 and bad fields with 400
// naming the field — and a refused write leaves the records as they were.
#include "records_rest_fixture.hpp"

namespace parley::test {
namespace {

namespace json = boost::json;

class RecordsWriteRest : public RecordsRestTest {
 protected:
  // A GET refused with 400 bad_field naming `param`.
  void expect_get_refused(const std::string& target, const std::string& param) {
    const auto reply = client().get(target);
    EXPECT_EQ(reply.status, 400) << target << ": " << reply.body;
    EXPECT_EQ(error_field(reply, "message").rfind(param + ":", 0), 0U) << reply.body;
  }
  // A finished dialog whose dialogue the API writes into.
  std::string finished_dialog() {
    const auto id = create_dialog("hello writes");
    EXPECT_TRUE(eventually_says(id, "ok: hello writes"));
    return id;
  }
};

TEST_F(RecordsWriteRest, ASessionTurnAndMessagesWrittenReadBack) {
  start("q4h");
  const auto id = finished_dialog();
  const auto first_session = text(get_ok("/api/dialogues/" + id + "/latest_session").at("session").at("id"));

  const auto session = post_ok("/api/sessions", {{"dialogue_id", id},
                                                 {"session_type", "self_reflection"},
                                                 {"description", "what went well"},
                                                 {"created_by", "ai"},
                                                 {"metadata", {{"goal", "review"}}}})
                           .at("session");
  EXPECT_EQ(session.at("session_type"), "self_reflection");
  EXPECT_EQ(session.at("description"), "what went well");
  EXPECT_EQ(session.at("created_by"), "ai");
  EXPECT_EQ(session.at("metadata").at("goal"), "review");
  EXPECT_TRUE(session.at("end_at").is_null());
  const auto session_id = text(session.at("id"));
  // The automatic session before it ended when this one began.
  EXPECT_EQ(get_ok("/api/sessions/" + first_session).at("session").at("end_at"), session.at("start_at"));
  EXPECT_EQ(get_ok("/api/dialogues/" + id + "/latest_session").at("session").at("id"), session_id.c_str());

  const auto turn =
      post_ok("/api/turns", {{"session_id", session_id}, {"initiator_role", "human"}, {"responder_role", "ai"}})
          .at("turn");
  EXPECT_EQ(turn.at("status"), "pending");
  EXPECT_EQ(turn.at("turn_type"), "human_query");
  EXPECT_EQ(turn.at("session_id"), session_id.c_str());
  const auto turn_id = text(turn.at("id"));

  const auto question =
      post_ok("/api/messages", {{"turn_id", turn_id}, {"sender_role", "human"}, {"content", "which step was slowest?"}})
          .at("message");
  EXPECT_EQ(question.at("turn_id"), turn_id.c_str());
  EXPECT_EQ(question.at("session_id"), session_id.c_str());
  EXPECT_EQ(question.at("content_type"), "text");
  EXPECT_EQ(get_ok("/api/turns/" + turn_id).at("turn").at("status"), "pending");
  // The responder's message answers the turn.
  const auto answer = post_ok("/api/messages", {{"turn_id", turn_id},
                                                {"sender_role", "ai"},
                                                {"sender_id", "lead"},
                                                {"content", "the **lookup**"},
                                                {"content_type", "quote_reply"},
                                                {"reply_to", question.at("id")}})
                          .at("message");
  EXPECT_EQ(answer.at("metadata").at("reply_to"), question.at("id"));
  const auto answered = get_ok("/api/turns/" + turn_id).at("turn");
  EXPECT_EQ(answered.at("status"), "responded");
  EXPECT_EQ(answered.at("closed_at"), answer.at("created_at"));
  EXPECT_EQ(get_ok("/api/turns/" + turn_id + "/messages").at("total"), 2);
  EXPECT_EQ(get_ok("/api/messages/search?q=slowest").at("messages").at(0).at("id"), question.at("id"));

  // A turn closed by hand, unresponded; then the session closes.
  const auto second =
      text(post_ok("/api/turns", {{"session_id", session_id}, {"initiator_role", "ai"}, {"responder_role", "human"}})
               .at("turn")
               .at("id"));
  const auto closed = post_ok("/api/turns/" + second + "/close", {{"status", "unresponded"}}, 200).at("turn");
  EXPECT_EQ(closed.at("status"), "unresponded");
  EXPECT_EQ(closed.at("turn_type"), "unresponded_turn");
  EXPECT_EQ(get_ok("/api/dialogues/" + id + "/unresponded_turns").at("total"), 1);
  const auto ended = post_ok("/api/sessions/" + session_id + "/close", json::object{}, 200).at("session");
  EXPECT_FALSE(ended.at("end_at").is_null());
  EXPECT_EQ(get_ok("/api/dialogues/" + id + "/sessions?type=self_reflection").at("total"), 1);
}

TEST_F(RecordsWriteRest, TheSeedsRulesAreEnforcedAndARefusalChangesNothing) {
  start("q4h");
  const auto id = finished_dialog();
  const auto session_id = text(get_ok("/api/dialogues/" + id + "/latest_session").at("session").at("id"));
  const auto turn_id =
      text(post_ok("/api/turns", {{"session_id", session_id}, {"initiator_role", "human"}, {"responder_role", "ai"}})
               .at("turn")
               .at("id"));
  const auto before = get_ok("/api/dialogues/" + id + "/sessions");

  // One open turn at a time; no session change while a turn is pending.
  expect_refused("/api/turns", {{"session_id", session_id}, {"initiator_role", "human"}, {"responder_role", "ai"}}, 409,
                 "conflict");
  expect_refused("/api/sessions", {{"dialogue_id", id}}, 409, "conflict");
  expect_refused("/api/sessions/" + session_id + "/close", json::object{}, 409, "conflict");
  // Unknown ids.
  expect_refused("/api/messages", {{"turn_id", "no-such-turn"}, {"sender_role", "human"}, {"content", "x"}}, 404,
                 "not_found");
  expect_refused("/api/turns/no-such-turn/close", json::object{}, 404, "not_found");
  expect_refused("/api/sessions", {{"dialogue_id", "no-such-dialogue"}}, 404, "not_found");
  // Bad fields, each named.
  expect_refused("/api/messages", {{"sender_role", "human"}, {"content", "x"}}, 400, "bad_field", "turn_id");
  expect_refused("/api/messages", {{"turn_id", turn_id}, {"sender_role", "robot"}, {"content", "x"}}, 400, "bad_field",
                 "sender_role");
  expect_refused("/api/messages", {{"turn_id", turn_id}, {"sender_role", "human"}, {"content", 7}}, 400, "bad_field",
                 "content");
  expect_refused("/api/messages",
                 {{"turn_id", turn_id}, {"sender_role", "human"}, {"content", "x"}, {"content_type", "video"}}, 400,
                 "bad_field", "content_type");
  expect_refused("/api/messages",
                 {{"turn_id", turn_id}, {"sender_role", "human"}, {"content", "x"}, {"content_type", "quote_reply"}},
                 400, "bad_field", "reply_to");
  expect_refused("/api/messages", {{"turn_id", turn_id}, {"sender_role", "human"}, {"content", "x"}, {"colour", 1}},
                 400, "bad_field", "colour");
  expect_refused("/api/messages",
                 {{"turn_id", turn_id}, {"sender_role", "human"}, {"content", "x"}, {"metadata", "not an object"}}, 400,
                 "bad_field", "metadata");
  expect_refused(
      "/api/turns",
      {{"session_id", session_id}, {"initiator_role", "ai"}, {"responder_role", "human"}, {"turn_type", "human_query"}},
      400, "bad_field", "turn_type");
  expect_refused("/api/turns/" + turn_id + "/close", {{"status", "maybe"}}, 400, "bad_field", "status");
  expect_refused("/api/sessions", {{"dialogue_id", id}, {"session_type", "nap"}}, 400, "bad_field", "session_type");
  const auto malformed = client().post("/api/messages", std::string("{\"turn_id\": "));
  EXPECT_EQ(malformed.status, 400) << malformed.body;
  EXPECT_EQ(error_field(malformed, "code"), "bad_json");

  // Nothing of the above was stored.
  EXPECT_EQ(get_ok("/api/turns/" + turn_id + "/messages").at("total"), 0);
  EXPECT_EQ(get_ok("/api/dialogues/" + id + "/sessions"), before);

  // Closing twice: the second is a conflict, and a message for a closed turn is refused.
  post_ok("/api/turns/" + turn_id + "/close", json::object{}, 200);
  expect_refused("/api/turns/" + turn_id + "/close", json::object{}, 409, "conflict");
  expect_refused("/api/messages", {{"turn_id", turn_id}, {"sender_role", "ai"}, {"content", "late"}}, 409, "conflict");
  EXPECT_EQ(get_ok("/api/turns/" + turn_id + "/messages").at("total"), 0);
  // A closed session takes no new turn.
  post_ok("/api/sessions/" + session_id + "/close", json::object{}, 200);
  expect_refused("/api/turns", {{"session_id", session_id}, {"initiator_role", "human"}, {"responder_role", "ai"}}, 409,
                 "conflict");
  expect_refused("/api/sessions/" + session_id + "/close", json::object{}, 409, "conflict");
}

// `1e999` parses as infinity, which JSON text cannot carry back: stored, it would make the log
// unreadable for everyone. Refused at the door, naming the field; nothing is written.
TEST_F(RecordsWriteRest, ANumberBeyondDoubleRangeIsRefusedNamingTheFieldAndWritesNothing) {
  start("q4h");
  const auto id = finished_dialog();
  const auto before = get_ok("/api/dialogues/" + id + "/latest_session");
  const auto reply = client().post("/api/sessions", R"({"dialogue_id":")" + id +
                                                        R"(","session_type":"self_reflection","created_by":"ai",)"
                                                        R"("metadata":{"x":1e999}})");
  EXPECT_EQ(reply.status, 400) << reply.body;
  EXPECT_EQ(error_field(reply, "code"), "bad_field") << reply.body;
  EXPECT_EQ(error_field(reply, "message").rfind("metadata.x: is not a finite number", 0), 0U) << reply.body;
  const auto dialog_reply = client().post("/api/dialogs", std::string(R"({"content":"hi","x":[1,-1e999]})"));
  EXPECT_EQ(dialog_reply.status, 400) << dialog_reply.body;
  EXPECT_EQ(error_field(dialog_reply, "message").rfind("x[1]: is not a finite number", 0), 0U) << dialog_reply.body;
  EXPECT_EQ(get_ok("/api/dialogues/" + id + "/latest_session"), before);
  EXPECT_EQ(client().get("/api/dialogs").json().at("total"), 1);
}

TEST_F(RecordsWriteRest, WrittenRecordsSurviveARestart) {
  start("q4h");
  const auto id = finished_dialog();
  const auto session_id = text(post_ok("/api/sessions", {{"dialogue_id", id}}).at("session").at("id"));
  const auto turn_id =
      text(post_ok("/api/turns", {{"session_id", session_id}, {"initiator_role", "human"}, {"responder_role", "ai"}})
               .at("turn")
               .at("id"));
  const auto message =
      post_ok("/api/messages", {{"turn_id", turn_id}, {"sender_role", "human"}, {"content", "kept"}}).at("message");
  const auto sessions = get_ok("/api/dialogues/" + id + "/sessions");
  const auto turn = get_ok("/api/turns/" + turn_id);
  restart();
  EXPECT_EQ(get_ok("/api/dialogues/" + id + "/sessions"), sessions);
  EXPECT_EQ(get_ok("/api/turns/" + turn_id), turn);
  auto read_back = get_ok("/api/messages/" + text(message.at("id"))).at("message").as_object();
  read_back.erase("embedding_vector");  // shown only when one message is read; none here
  EXPECT_EQ(json::value(read_back), message);
}

class RecordsViewsRest : public RecordsWriteRest {};

TEST_F(RecordsViewsRest, ATurnWithAToolLoopReadsAsTheSeedsDialogueTurn) {
  start("q4h");
  const auto id = create_dialog("remember");
  ASSERT_TRUE(eventually_says(id, "noted"));
  const auto session_id = text(get_ok("/api/dialogues/" + id + "/latest_session").at("session").at("id"));
  const auto turns = get_ok("/api/sessions/" + session_id + "/turns?include=messages");
  ASSERT_EQ(turns.at("total"), 1);
  EXPECT_EQ(turns.at("turns").at(0).at("messages").as_array().size(), 4U);
  const auto turn_id = text(turns.at("turns").at(0).at("id"));

  const auto view = get_ok("/api/turns/" + turn_id + "?view=dialogue_turn").at("dialogue_turn");
  EXPECT_EQ(view.at("role_sequence"), (json::array{"human", "ai", "system", "ai"}));
  EXPECT_EQ(view.at("human_input").at("text"), "remember");
  const auto& loop = view.at("tool_loop").as_array();
  ASSERT_EQ(loop.size(), 1U);
  // The version the engine logged with the prompt (GET /api/dialogs/{id}/prompts has its text).
  const auto version = text(loop.at(0).at("prompt_version"));
  EXPECT_EQ(version.rfind("pv-", 0), 0U) << version;
  EXPECT_EQ(version.size(), 19U) << version;
  const auto& call = loop.at(0).at("tool_calls").at(0);
  EXPECT_EQ(call.at("tool_used"), "add_reminder");
  EXPECT_NE(text(call.at("arguments")).find("buy milk"), std::string::npos);
  EXPECT_NE(text(call.at("result")).find("reminder 1 added"), std::string::npos);
  EXPECT_EQ(call.at("context_position"), 2);
  // The system's lines in order: the prompt it built, the call it ran, the result it relayed.
  EXPECT_EQ(view.at("system_actions").at(0).at("action_type"), "context_building");
  EXPECT_EQ(view.at("system_actions").at(0).at("prompt_version"), version.c_str());
  EXPECT_EQ(view.at("system_actions").at(1).at("action_type"), "tool_call");
  EXPECT_EQ(view.at("system_actions").at(2).at("action_type"), "tool_response");
  EXPECT_EQ(view.at("system_actions").at(1).at("notes"), "the AI called add_reminder");
  EXPECT_EQ(view.at("system_actions").at(2).at("notes"), "result of add_reminder relayed to the AI");
  EXPECT_EQ(view.at("ai_response").at("final_output"), "noted");
  EXPECT_EQ(view.at("ai_response").at("used_tool_result"), true);
  EXPECT_TRUE(view.at("ai_response").at("embedding_vector").is_null());  // no embedder configured
  // The answer's context: the second prompt version (the reminder it added is in its system prompt).
  const auto prompts = get_ok("/api/dialogs/" + id + "/prompts").at("prompts").as_array();
  ASSERT_EQ(prompts.size(), 2U);
  EXPECT_EQ(prompts.at(0).at("version"), version.c_str());
  EXPECT_EQ(view.at("memory_links").at("context_snapshot_id"), prompts.at(1).at("version"));
  EXPECT_TRUE(view.at("human_feedback").is_null());

  // The tool result is also the system speaking to the AI.
  const auto utterances = get_ok("/api/dialogues/" + id + "/system_utterances");
  ASSERT_EQ(utterances.at("total"), 1);
  const auto& said = utterances.at("system_utterances").at(0);
  EXPECT_EQ(said.at("trigger"), "tool_result");
  EXPECT_EQ(said.at("target"), "ai");
  EXPECT_EQ(said.at("linked_turn_id"), turn_id.c_str());
  EXPECT_EQ(said.at("notes"), "result of add_reminder");

  // The human's next message is their feedback on this turn's answer.
  client().post("/api/dialogs/" + id + "/messages", json::value{{"content", "thanks"}});
  ASSERT_TRUE(eventually_says(id, "ok: thanks"));
  EXPECT_EQ(get_ok("/api/turns/" + turn_id + "?view=dialogue_turn").at("dialogue_turn").at("human_feedback").at("text"),
            "thanks");
  const auto thread = get_ok("/api/dialogues/" + id + "?view=conversation_thread").at("conversation_thread");
  EXPECT_EQ(thread.at("turns").as_array().size(), 2U);
  EXPECT_EQ(thread.at("participants").at("ai_ids"), (json::array{"lead"}));
  EXPECT_EQ(thread.at("status"), "active");
  // Its context snapshots are the prompt versions its model was given.
  const auto& snapshots = thread.at("context_snapshots").as_array();
  ASSERT_EQ(snapshots.size(), 2U);
  EXPECT_EQ(snapshots.at(0).at("snapshot_id"), version.c_str());
  EXPECT_EQ(snapshots.at(1).at("snapshot_id"), prompts.at(1).at("version"));
  EXPECT_TRUE(snapshots.at(0).at("created_at").is_string());

  expect_get_refused("/api/turns/" + turn_id + "?view=thread", "view");
  expect_get_refused("/api/sessions/" + session_id + "/turns?include=everything", "include");
}

TEST_F(RecordsViewsRest, ASelfReflectionSessionRecordsIntrospectionTurnsAndTheMemoryTheyMake) {
  start("q4h");
  const auto id = finished_dialog();
  const auto session = post_ok("/api/sessions", {{"dialogue_id", id},
                                                 {"session_type", "self_reflection"},
                                                 {"trigger_source", "task_reflection"},
                                                 {"goal", "review the week"},
                                                 {"ai_mood_state", "calm"}})
                           .at("session");
  EXPECT_EQ(session.at("trigger_source"), "task_reflection");
  EXPECT_EQ(session.at("goal"), "review the week");
  EXPECT_EQ(session.at("ai_mood_state"), "calm");
  const auto session_id = text(session.at("id"));

  const auto first = post_ok("/api/sessions/" + session_id + "/introspection_turns",
                             {{"purpose", "summarise the talks with the human"},
                              {"input_context", "3 dialogues"},
                              {"tool_used", "memory.summarize"},
                              {"tool_input", "last 3 days"},
                              {"tool_output", "steady and friendly"},
                              {"generated_entry", "The human prefers short answers."},
                              {"mood_shift", "+calm"},
                              {"value_impact", "none"},
                              {"duration_ms", 420}})
                         .at("introspection_turn");
  EXPECT_EQ(first.at("purpose"), "summarise the talks with the human");
  EXPECT_EQ(first.at("duration_ms"), 420);
  const auto memory_id = text(first.at("generated_entry"));
  const auto memory = get_ok("/api/memory_entries/" + memory_id).at("memory_entry");
  EXPECT_EQ(memory.at("content"), "The human prefers short answers.");
  EXPECT_EQ(memory.at("source_turn_id"), first.at("turn_id"));
  EXPECT_EQ(memory.at("ai_id"), "lead");

  const auto second = post_ok("/api/sessions/" + session_id + "/introspection_turns",
                              {{"purpose", "adjust values"}, {"related_memory_ids", json::array{memory_id.c_str()}}})
                          .at("introspection_turn");
  EXPECT_TRUE(second.at("generated_entry").is_null());
  EXPECT_EQ(get_ok("/api/sessions/" + session_id + "/introspection_turns").at("total"), 2);

  // A dialogue turn links to the memory; the thread shows it.
  const auto first_session = get_ok("/api/dialogues/" + id + "/sessions?type=dialogue").at("sessions").at(0);
  const auto dialogue_turn =
      text(get_ok("/api/sessions/" + text(first_session.at("id")) + "/turns").at("turns").at(0).at("id"));
  post_ok("/api/turns/" + dialogue_turn + "/memory_links", {{"memory_id", memory_id}});
  EXPECT_EQ(get_ok("/api/turns/" + dialogue_turn + "?view=dialogue_turn")
                .at("dialogue_turn")
                .at("memory_links")
                .at("related_memory_ids"),
            (json::array{memory_id.c_str()}));
  EXPECT_EQ(get_ok("/api/dialogues/" + id + "?view=conversation_thread")
                .at("conversation_thread")
                .at("memory_association")
                .at("linked_memory_ids"),
            (json::array{memory_id.c_str()}));

  EXPECT_EQ(get_ok("/api/ai/lead/sessions?type=self_reflection").at("total"), 1);
  EXPECT_EQ(get_ok("/api/ai/clerk/sessions").at("total"), 0);
  const auto nobody = client().get("/api/ai/nobody/sessions");
  EXPECT_EQ(nobody.status, 404) << nobody.body;

  // Refused: introspection in a dialogue session, reflection fields on a dialogue session, unknown
  // memory ids, a bad duration.
  expect_refused("/api/sessions/" + text(first_session.at("id")) + "/introspection_turns", {{"purpose", "x"}}, 409,
                 "conflict");
  expect_refused("/api/sessions", {{"dialogue_id", id}, {"goal", "x"}}, 400, "bad_field", "goal");
  expect_refused("/api/sessions/" + session_id + "/introspection_turns",
                 {{"purpose", "x"}, {"related_memory_ids", json::array{"no-such-memory"}}}, 400, "bad_field",
                 "related_memory_ids");
  expect_refused("/api/sessions/" + session_id + "/introspection_turns", {{"purpose", "x"}, {"duration_ms", -1}}, 400,
                 "bad_field", "duration_ms");
  expect_refused("/api/turns/" + dialogue_turn + "/memory_links", {{"memory_id", "no-such-memory"}}, 404, "not_found");
  EXPECT_EQ(get_ok("/api/sessions/" + session_id + "/introspection_turns").at("total"), 2);

  const auto closed =
      post_ok("/api/sessions/" + session_id + "/close", {{"summary", "steady week"}}, 200).at("session");
  EXPECT_EQ(closed.at("summary"), "steady week");
  expect_refused("/api/sessions/" + session_id + "/introspection_turns", {{"purpose", "late"}}, 409, "conflict");
}

TEST_F(RecordsViewsRest, AMemberReflectingWithSelfReflectIsRecordedAsASelfReflectionSession) {
  start("reflect");
  const auto root = create_dialog("reflect please");
  ASSERT_TRUE(eventually_says(root, "reflected. Summary: short answers work."));

  const auto sessions = get_ok("/api/ai/lead/sessions?type=self_reflection");
  ASSERT_EQ(sessions.at("total"), 1);
  const auto& session = sessions.at("sessions").at(0);
  EXPECT_EQ(session.at("trigger_source"), "task_reflection");
  EXPECT_EQ(session.at("goal"), "review the week");
  EXPECT_EQ(session.at("ai_mood_state"), "calm");
  EXPECT_EQ(session.at("created_by"), "ai");
  EXPECT_EQ(session.at("summary"), "Summary: short answers work.");
  EXPECT_FALSE(session.at("end_at").is_null());
  const auto dialogue = get_ok("/api/dialogues/" + text(session.at("dialogue_id"))).at("dialogue");
  EXPECT_EQ(dialogue.at("dialogue_type"), "ai_self");
  EXPECT_EQ(dialogue.at("relation_id"), get_ok("/api/dialogues/" + root).at("dialogue").at("id"));

  const auto turns = get_ok("/api/sessions/" + text(session.at("id")) + "/introspection_turns");
  ASSERT_EQ(turns.at("total"), 1);
  const auto& step = turns.at("introspection_turns").at(0);
  EXPECT_EQ(step.at("purpose"), "Keep what I learned.");
  EXPECT_EQ(step.at("tool_used"), "write_file");
  EXPECT_NE(text(step.at("tool_input")).find("lesson.md"), std::string::npos);
  EXPECT_NE(text(step.at("tool_output")).find("lesson.md"), std::string::npos);
  const auto memory = get_ok("/api/memory_entries/" + text(step.at("generated_entry"))).at("memory_entry");
  EXPECT_EQ(memory.at("content"), "Short answers work.");
  EXPECT_EQ(memory.at("source_turn_id"), step.at("turn_id"));
  // The memory file was written for real, in the member's memory folder.
  EXPECT_TRUE(std::filesystem::exists(team_dir_ / "workspace/.minds/memory/individual/lead/lesson.md"));
}

TEST_F(RecordsViewsRest, ASchedulePutsReflectingMembersIntoSelfReflectionsOfTheirOwn) {
  start("reflect", {"--reflect-every", "1"});
  // The first tick comes a second after the start; the test waits for the finished reflection.
  ASSERT_TRUE(eventually([&] {
    const auto sessions = client().get("/api/ai/lead/sessions?type=self_reflection").json();
    if (!sessions.is_object() || sessions.at("total") == 0) return false;
    return !sessions.at("sessions").at(0).at("summary").is_null();
  })) << server_->output();
  const auto session = get_ok("/api/ai/lead/sessions?type=self_reflection").at("sessions").at(0);
  EXPECT_EQ(session.at("trigger_source"), "schedule");
  EXPECT_NE(text(session.at("goal")).find("Review your recent work"), std::string::npos);
  EXPECT_EQ(session.at("summary"), "Summary: short answers work.");
  const auto dialogue = get_ok("/api/dialogues/" + text(session.at("dialogue_id"))).at("dialogue");
  EXPECT_EQ(dialogue.at("dialogue_type"), "ai_self");
  EXPECT_TRUE(dialogue.at("relation_id").is_null());
  EXPECT_EQ(get_ok("/api/sessions/" + text(session.at("id")) + "/introspection_turns").at("total"), 1);
  // Refused: a schedule of zero seconds.
  server_.reset();
  server_process bad(
      {"--team", (team_dir_ / "team.yaml").string(), "--data", data_dir().string(), "--reflect-every", "0"});
  EXPECT_FALSE(bad.started());
  EXPECT_NE(bad.output().find("--reflect-every"), std::string::npos) << bad.output();
}

}  // namespace
}  // namespace parley::test

// Seed 002's identified humans over REST and the PubChan: `parley serve --users FILE` gives each
// user a token; a user sees and queries only the dialogs they take part in, through every route;
// and the group dialogue types: humans among themselves (relayed, no model call), one human with
// several AIs (LIO: an @mention picks who answers), an AI in a group of humans.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <boost/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "rest_fixture.hpp"
#include "test_users.hpp"
#include "ws_client.hpp"

namespace parley::test {
namespace {

namespace json = boost::json;

constexpr const char* kCid = "cid-token-0123456789abcdef";

class UsersTest : public RestTest {
 protected:
  void SetUp() override {
    RestTest::SetUp();
    users_file_ = (root_ / "users.yaml").string();
    std::ofstream(users_file_) << "users:\n"
                               << "  - {id: ann, name: Ann, token: " << kAnn << "}\n"
                               << "  - {id: ben, name: Ben, token: " << kBen << "}\n"
                               << "  - {id: cid, token: " << kCid << ", operator: true}\n";
    ::chmod(users_file_.c_str(), 0600);
    start("groups", {"--users", users_file_});
  }

  rest_client as(const char* token) const { return rest_client(server_->port(), token); }

  std::string create(const char* token, json::object body) {
    const auto reply = as(token).post("/api/dialogs", json::value(std::move(body)));
    EXPECT_EQ(reply.status, 201) << reply.body;
    const auto parsed = reply.json();
    if (!parsed.is_object() || !parsed.as_object().contains("dialog")) return {};
    return std::string(parsed.at("dialog").at("id").as_string());
  }

  json::array transcript(const char* token, const std::string& id) const {
    const auto body = as(token).get("/api/dialogs/" + id + "/transcript").json();
    if (!body.is_object()) return {};
    return body.at("messages").as_array();
  }

  bool last_says(const char* token, const std::string& id, const std::string& text) const {
    return eventually([&] {
      const auto list = transcript(token, id);
      return !list.empty() && list.back().at("role") == "assistant" && list.back().at("content") == text.c_str();
    });
  }

  // The records' messages of a dialog, oldest first.
  json::array record_messages(const char* token, const std::string& id) const {
    const auto sessions = as(token).get("/api/dialogues/" + id + "/sessions").json();
    json::array out;
    for (const auto& session : sessions.at("sessions").as_array()) {
      const auto turns =
          as(token)
              .get("/api/sessions/" + std::string(session.at("id").as_string()) + "/turns?include=messages")
              .json();
      for (const auto& turn : turns.at("turns").as_array()) {
        for (const auto& m : turn.at("messages").as_array()) out.push_back(m);
      }
    }
    return out;
  }

  std::int64_t total_of(const char* token, const std::string& path) const {
    const auto body = as(token).get(path).json();
    return body.is_object() && body.as_object().contains("total") ? body.at("total").as_int64() : -1;
  }

  std::string users_file_;
};

TEST_F(UsersTest, EachUserHasATokenAndTheServerKnowsWhoIsAsking) {
  EXPECT_EQ(rest_client(server_->port()).get("/api/status").status, 401);
  EXPECT_EQ(as("not-a-token-of-anyone-here").get("/api/status").status, 401);
  const auto status = as(kBen).get("/api/status").json();
  EXPECT_EQ(status.at("user").at("id"), "ben");
  EXPECT_EQ(status.at("user").at("name"), "Ben");
  EXPECT_TRUE(status.at("authRequired").as_bool());
}

TEST_F(UsersTest, AnotherUsersDialogIsUnknownOnEveryRoute) {
  const auto id = create(kAnn, {{"content", "the secret plan"}});
  ASSERT_TRUE(last_says(kAnn, id, "alpha heard: the secret plan"));
  const auto dialogue = as(kAnn).get("/api/dialogues/" + id).json();
  EXPECT_EQ(dialogue.at("dialogue").at("human_id"), "ann");
  const std::string dialogue_id(dialogue.at("dialogue").at("id").as_string());
  const auto session = as(kAnn).get("/api/dialogues/" + id + "/latest_session").json();
  const std::string session_id(session.at("session").at("id").as_string());
  const auto turns = as(kAnn).get("/api/sessions/" + session_id + "/turns").json();
  const std::string turn_id(turns.at("turns").at(0).at("id").as_string());
  const auto messages = as(kAnn).get("/api/turns/" + turn_id + "/messages").json();
  const std::string message_id(messages.at("messages").at(0).at("id").as_string());
  EXPECT_EQ(messages.at("messages").at(0).at("sender_id"), "ann");

  for (const std::string& path : {"/api/dialogs/" + id,
                                  "/api/dialogs/" + id + "/transcript",
                                  "/api/dialogs/" + id + "/children",
                                  "/api/dialogs/" + id + "/hierarchy",
                                  "/api/dialogs/" + id + "/reminders",
                                  "/api/dialogs/" + id + "/prompts",
                                  "/api/dialogs/" + id + "/registry",
                                  "/api/dialogues/" + id,
                                  "/api/dialogues/" + dialogue_id,
                                  "/api/dialogues/" + id + "/sessions",
                                  "/api/dialogues/" + id + "/latest_session",
                                  "/api/dialogues/" + id + "/unresponded_turns",
                                  "/api/dialogues/" + id + "/system_utterances",
                                  "/api/sessions/" + session_id,
                                  "/api/sessions/" + session_id + "/turns",
                                  "/api/sessions/" + session_id + "/introspection_turns",
                                  "/api/turns/" + turn_id,
                                  "/api/turns/" + turn_id + "?view=dialogue_turn",
                                  "/api/turns/" + turn_id + "/messages",
                                  "/api/messages/" + message_id,
                                  "/api/messages/search?q=secret&dialogue_id=" + id}) {
    const auto reply = as(kBen).get(path);
    EXPECT_EQ(reply.status, 404) << path << ": " << reply.body;
    EXPECT_EQ(as(kAnn).get(path).status, 200) << path;
  }
  for (const auto& [path, body] : std::vector<std::pair<std::string, json::object>>{
           {"/api/dialogs/" + id + "/messages", {{"content", "let me in"}}},
           {"/api/dialogs/" + id + "/answer", {{"questionId", "q"}, {"content", "x"}}},
           {"/api/sessions", {{"dialogue_id", id}}},
           {"/api/sessions/" + session_id + "/close", {}},
           {"/api/turns", {{"session_id", session_id}, {"initiator_role", "human"}, {"responder_role", "ai"}}},
           {"/api/turns/" + turn_id + "/close", {}},
           {"/api/messages", {{"turn_id", turn_id}, {"sender_role", "human"}, {"content", "x"}}},
           // Neither tells that the session or turn exists: not a 409 for the session's type, not
           // a word about the (bogus) memory before the turn is found to be ann's.
           {"/api/sessions/" + session_id + "/introspection_turns", {{"purpose", "peek"}}},
           {"/api/turns/" + turn_id + "/memory_links", {{"memory_id", "bogus"}}}}) {
    const auto reply = as(kBen).post(path, json::value(body));
    EXPECT_EQ(reply.status, 404) << path << ": " << reply.body;
    EXPECT_EQ(reply.body.find("memory"), std::string::npos) << path << ": " << reply.body;
  }
  // Nor is it renamed (issue 43's PUT .../title).
  const auto renamed = as(kBen).request("PUT", "/api/dialogs/" + id + "/title", R"({"title":"mine now"})");
  EXPECT_EQ(renamed.status, 404) << renamed.body;
  // Lists that span dialogs leave it out for ben, and keep it for ann.
  EXPECT_EQ(total_of(kBen, "/api/dialogs"), 0);
  EXPECT_EQ(total_of(kAnn, "/api/dialogs"), 1);
  EXPECT_EQ(total_of(kBen, "/api/messages/search?q=secret"), 0);
  EXPECT_EQ(total_of(kAnn, "/api/messages/search?q=secret"), 2);
  EXPECT_EQ(total_of(kBen, "/api/ai/alpha/sessions"), 0);
  EXPECT_EQ(total_of(kAnn, "/api/ai/alpha/sessions"), 1);
  EXPECT_EQ(total_of(kAnn, "/api/humans/ann/dialogues"), 1);
  EXPECT_EQ(total_of(kBen, "/api/humans/ann/dialogues"), 0);
  EXPECT_EQ(as(kBen).get("/api/usage").json().at("byDialog").as_array().size(), 0U);
  EXPECT_EQ(as(kAnn).get("/api/usage").json().at("byDialog").as_array().size(), 1U);
  EXPECT_EQ(as(kBen).get("/api/humans/nobody/dialogues").status, 404);
  // Nothing ben tried was stored.
  EXPECT_EQ(transcript(kAnn, id).size(), 2U);
}

TEST_F(UsersTest, TheWebSocketRefusesAnotherUsersDialogAndTellsNothingOfIt) {
  ws_client ben;
  ASSERT_TRUE(ben.connect(server_->port(), std::string("parley.v1, parley-token.") + kBen));
  ben.send(R"({"type":"hello","protocol":1})");
  ASSERT_TRUE(ben.next_of("welcome"));
  const auto id = create(kAnn, {{"content", "private"}});
  ASSERT_TRUE(last_says(kAnn, id, "alpha heard: private"));
  ben.send(R"({"type":"subscribe","dialog":{"selfId":")" + id + R"("}})");
  const auto refused = ben.next_of("error");
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->at("code"), "not_found");
  ben.send(R"({"type":"drive_dlg_by_user_msg","dialog":{"selfId":")" + id + R"("},"content":"hi","msgId":"b1"})");
  const auto refused_input = ben.next_of("error");
  ASSERT_TRUE(refused_input);
  EXPECT_EQ(refused_input->at("code"), "not_found");
  // ann's own dialog list event reached ann's socket only: ben's next packet is about his own dialog.
  create(kBen, {{"content", "mine"}});
  const auto listed = ben.next_of("dialog_list_evt");
  ASSERT_TRUE(listed);
  EXPECT_EQ(listed->at("dialog").at("humans").at(0), "ben");
  EXPECT_EQ(transcript(kAnn, id).size(), 2U);
}

TEST_F(UsersTest, HumansAmongThemselvesAreRelayedWithoutAnyModelCall) {
  const auto id = create(kAnn, {{"type", "human_human"}, {"participants", json::array{"ben"}}, {"content", "lunch?"}});
  ASSERT_FALSE(id.empty());
  EXPECT_EQ(total_of(kBen, "/api/dialogs"), 1);  // ben takes part
  EXPECT_EQ(as(kCid).get("/api/dialogs/" + id).status, 404);
  EXPECT_EQ(as(kBen).post("/api/dialogs/" + id + "/messages", json::value{{"content", "noon works"}}).status, 202);
  ASSERT_TRUE(eventually([&] { return transcript(kAnn, id).size() == 2; }));
  for (const auto& m : transcript(kAnn, id)) EXPECT_EQ(m.at("role"), "user");
  const auto summary = as(kAnn).get("/api/dialogs/" + id).json().at("dialog");
  EXPECT_FALSE(summary.at("needsDrive").as_bool());
  EXPECT_EQ(summary.at("inputTokens").as_int64(), 0);

  const auto dialogue = as(kBen).get("/api/dialogues/" + id).json().at("dialogue");
  EXPECT_EQ(dialogue.at("dialogue_type"), "human_human");
  EXPECT_TRUE(dialogue.at("ai_id").is_null());
  const auto records = record_messages(kBen, id);
  ASSERT_EQ(records.size(), 2U);
  EXPECT_EQ(records[0].at("sender_id"), "ann");
  EXPECT_EQ(records[1].at("sender_id"), "ben");
  const auto turns = as(kAnn).get("/api/dialogues/" + id + "/sessions").json();
  const std::string session(turns.at("sessions").at(0).at("id").as_string());
  const auto first = as(kAnn).get("/api/sessions/" + session + "/turns").json().at("turns").at(0);
  EXPECT_EQ(first.at("responder_role"), "human");
  EXPECT_EQ(first.at("status"), "responded");
  EXPECT_EQ(total_of(kAnn, "/api/humans/ben/dialogues"), 1);  // both take part
}

TEST_F(UsersTest, InALioAnAtMentionPicksWhoAnswersAndEachSeesTheOthersWords) {
  const auto id =
      create(kAnn, {{"type", "lio_group"}, {"members", json::array{"alpha", "beta"}}, {"content", "hello team"}});
  ASSERT_TRUE(last_says(kAnn, id, "alpha heard: hello team"));  // the first member answers unasked
  ASSERT_EQ(as(kAnn).post("/api/dialogs/" + id + "/messages", json::value{{"content", "@beta your view?"}}).status,
            202);
  ASSERT_TRUE(last_says(kAnn, id, "beta heard: @beta your view?"));
  const auto records = record_messages(kAnn, id);
  ASSERT_EQ(records.size(), 4U);
  EXPECT_EQ(records[1].at("sender_id"), "alpha");
  EXPECT_EQ(records[3].at("sender_id"), "beta");
  const auto thread = as(kAnn).get("/api/dialogues/" + id + "?view=conversation_thread").json();
  EXPECT_EQ(thread.at("conversation_thread").at("dialogue_type"), "lio_group");
  EXPECT_EQ(thread.at("conversation_thread").at("participants").at("context_mode"), "LIO");
  EXPECT_EQ(thread.at("conversation_thread").at("participants").at("ai_ids"), (json::array{"alpha", "beta"}));
  EXPECT_EQ(total_of(kAnn, "/api/ai/beta/sessions"), 1);
}

TEST_F(UsersTest, AnAiInAGroupOfHumansAnswersOnlyWhenMentioned) {
  const auto id = create(kAnn, {{"type", "human_group_ai"},
                                {"participants", json::array{"ben"}},
                                {"members", json::array{"alpha"}},
                                {"content", "when do we meet?"}});
  ASSERT_EQ(as(kBen).post("/api/dialogs/" + id + "/messages", json::value{{"content", "@alpha pick a day"}}).status,
            202);
  // alpha saw who said what; ann's question alone woke nobody.
  ASSERT_TRUE(last_says(kAnn, id, "alpha heard: [@ben] @alpha pick a day"));
  const auto list = transcript(kAnn, id);
  ASSERT_EQ(list.size(), 3U);
  EXPECT_EQ(list[0].at("role"), "user");
  EXPECT_EQ(list[1].at("role"), "user");
  const auto thread = as(kBen).get("/api/dialogues/" + id + "?view=conversation_thread").json();
  EXPECT_EQ(thread.at("conversation_thread").at("dialogue_type"), "human_group_ai");
  EXPECT_EQ(thread.at("conversation_thread").at("participants").at("human_ids"), (json::array{"ann", "ben"}));
  EXPECT_EQ(thread.at("conversation_thread").at("participants").at("context_mode"), "group_human");
}

// Seed 002 ① and ②: humans alone are a private chat when two, a group when three or more,
// whichever of the two types the creator named; a group must be one.
TEST_F(UsersTest, TwoHumansAreAPrivateChatAndThreeAreAGroup) {
  const auto pair = create(kAnn, {{"type", "human_human"}, {"participants", json::array{"ben"}}, {"content", "hi"}});
  const auto trio =
      create(kAnn, {{"type", "human_human"}, {"participants", json::array{"ben", "cid"}}, {"content", "hi all"}});
  const auto named = create(
      kAnn, {{"type", "human_human_group"}, {"participants", json::array{"ben", "cid"}}, {"content", "hi again"}});
  auto type_of = [&](const std::string& id) {
    return std::string(as(kAnn).get("/api/dialogues/" + id).json().at("dialogue").at("dialogue_type").as_string());
  };
  EXPECT_EQ(type_of(pair), "human_human");
  EXPECT_EQ(type_of(trio), "human_human_group");
  EXPECT_EQ(type_of(named), "human_human_group");
  const auto private_thread = as(kAnn).get("/api/dialogues/" + pair + "?view=conversation_thread").json();
  EXPECT_EQ(private_thread.at("conversation_thread").at("participants").at("context_mode"), "1v1");
  const auto group_thread = as(kCid).get("/api/dialogues/" + named + "?view=conversation_thread").json();
  EXPECT_EQ(group_thread.at("conversation_thread").at("participants").at("context_mode"), "group_human");
  EXPECT_EQ(group_thread.at("conversation_thread").at("participants").at("human_ids"),
            (json::array{"ann", "ben", "cid"}));
  EXPECT_EQ(as(kAnn).get("/api/dialogs/" + named).json().at("dialog").at("inputTokens").as_int64(), 0);
}

// Seed 002 ⑦, "AI作为参与者/主持者": a hosting AI speaks to every message that asks nobody by
// name (a mention still picks who answers); in the same group without a host the AI waits to be
// mentioned. The echo model shows who answered what.
TEST_F(UsersTest, AHostingAiAnswersUnmentionedMessagesAndAnUnhostedOneWaitsForAMention) {
  const auto hosted = create(kAnn, {{"type", "human_group_ai"},
                                    {"participants", json::array{"ben"}},
                                    {"members", json::array{"alpha", "beta"}},
                                    {"host", "alpha"},
                                    {"content", "when do we meet?"}});
  ASSERT_TRUE(last_says(kAnn, hosted, "alpha heard: [@ann] when do we meet?"));
  ASSERT_EQ(as(kBen).post("/api/dialogs/" + hosted + "/messages", json::value{{"content", "friday?"}}).status, 202);
  ASSERT_TRUE(last_says(kAnn, hosted, "alpha heard: [@ben] friday?"));
  ASSERT_EQ(as(kBen).post("/api/dialogs/" + hosted + "/messages", json::value{{"content", "@beta agree?"}}).status,
            202);
  ASSERT_TRUE(last_says(kAnn, hosted, "beta heard: [@ben] @beta agree?"));
  EXPECT_EQ(transcript(kAnn, hosted).size(), 6U);
  const auto dialogue = as(kBen).get("/api/dialogues/" + hosted).json().at("dialogue");
  EXPECT_EQ(dialogue.at("dialogue_type"), "human_group_ai");
  EXPECT_EQ(dialogue.at("ai_id"), "alpha");
  EXPECT_EQ(dialogue.at("metadata").at("host"), "alpha");
  const std::string session(
      as(kAnn).get("/api/dialogues/" + hosted + "/sessions").json().at("sessions").at(0).at("id").as_string());
  const auto turns = as(kAnn).get("/api/sessions/" + session + "/turns").json().at("turns").as_array();
  ASSERT_EQ(turns.size(), 3U);
  for (const auto& turn : turns) {
    EXPECT_EQ(turn.at("responder_role"), "ai");
    EXPECT_EQ(turn.at("status"), "responded");
  }

  const auto unhosted = create(kAnn, {{"type", "human_group_ai"},
                                      {"participants", json::array{"ben"}},
                                      {"members", json::array{"alpha", "beta"}},
                                      {"content", "when do we meet?"}});
  ASSERT_EQ(as(kBen).post("/api/dialogs/" + unhosted + "/messages", json::value{{"content", "friday?"}}).status, 202);
  ASSERT_EQ(as(kBen).post("/api/dialogs/" + unhosted + "/messages", json::value{{"content", "@alpha agree?"}}).status,
            202);
  // Messages are driven in order, so an answer to either unmentioned one would come before this.
  ASSERT_TRUE(last_says(kAnn, unhosted, "alpha heard: [@ben] @alpha agree?"));
  const auto list = transcript(kAnn, unhosted);
  ASSERT_EQ(list.size(), 4U);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(list[i].at("role"), "user") << i;
  EXPECT_TRUE(
      as(kAnn).get("/api/dialogues/" + unhosted).json().at("dialogue").at("metadata").as_object().if_contains("host") ==
      nullptr);
}

TEST_F(UsersTest, ABadHostOrTooSmallAGroupIsRefusedNamingTheFieldAndNothingIsCreated) {
  const json::array people{"ben"};
  const json::array ais{"alpha", "beta"};
  const std::vector<std::pair<json::object, std::string>> cases{
      {{{"host", "alpha"}, {"content", "x"}}, "host: only a human_group_ai dialog has a host, not a human_ai"},
      {{{"type", "lio_group"}, {"members", ais}, {"host", "alpha"}, {"content", "x"}},
       "host: only a human_group_ai dialog has a host"},
      {{{"type", "human_group_ai"}, {"participants", people}, {"members", ais}, {"host", "gamma"}, {"content", "x"}},
       "host: 'gamma' is not one of members"},
      {{{"type", "human_group_ai"}, {"participants", people}, {"members", ais}, {"host", ""}, {"content", "x"}},
       "host: expected the id of one of members"},
      {{{"type", "human_group_ai"}, {"participants", people}, {"members", ais}, {"host", 7}, {"content", "x"}},
       "host: "},
      {{{"type", "human_human_group"}, {"participants", people}, {"content", "x"}},
       "participants: a human_human_group dialog needs at least two other users"},
      {{{"type", "human_human_group"},
        {"participants", json::array{"ben", "cid"}},
        {"memberId", "alpha"},
        {"content", "x"}},
       "memberId: a human_human_group dialog has no AI"},
  };
  for (const auto& [body, message] : cases) {
    const auto reply = as(kAnn).post("/api/dialogs", json::value(body));
    EXPECT_EQ(reply.status, 400) << reply.body;
    EXPECT_NE(reply.body.find(message), std::string::npos) << reply.body;
  }
  EXPECT_EQ(total_of(kAnn, "/api/dialogs"), 0);
}

// Seed 002, "Human-001 × AI-002 对话窗口（唯一）": with `reuse`, a human's new conversation with an AI
// goes into their existing dialogue as a new session (200) rather than a new dialogue (201). The
// pair is one human and one AI; a completed dialogue is not continued; a retry posts nothing twice.
TEST_F(UsersTest, ReuseContinuesTheHumansDialogueWithThatAiInANewSession) {
  const json::object opening{{"content", "first"}, {"reuse", true}, {"msgId", "first-1"}};
  const auto first = as(kAnn).post("/api/dialogs", json::value(opening));
  ASSERT_EQ(first.status, 201) << first.body;
  EXPECT_EQ(first.json().at("reused"), false);
  const std::string id(first.json().at("dialog").at("id").as_string());
  ASSERT_TRUE(last_says(kAnn, id, "alpha heard: first"));
  // A retry of the create that made the dialog answers as it did.
  const auto first_again = as(kAnn).post("/api/dialogs", json::value(opening));
  ASSERT_EQ(first_again.status, 201) << first_again.body;
  EXPECT_EQ(first_again.json().at("dialog").at("id"), id.c_str());
  EXPECT_EQ(transcript(kAnn, id).size(), 2U);

  const json::object again{{"content", "second"}, {"reuse", true}, {"msgId", "again-1"}};
  const auto second = as(kAnn).post("/api/dialogs", json::value(again));
  ASSERT_EQ(second.status, 200) << second.body;
  EXPECT_EQ(second.json().at("reused"), true);
  EXPECT_EQ(second.json().at("dialog").at("id"), id.c_str());
  const std::string session(second.json().at("sessionId").as_string());
  ASSERT_TRUE(last_says(kAnn, id, "alpha heard: second"));
  // The reply was lost and the client retries: the same answer, and nothing is posted again.
  const auto retried = as(kAnn).post("/api/dialogs", json::value(again));
  ASSERT_EQ(retried.status, 200) << retried.body;
  EXPECT_EQ(retried.json().at("dialog").at("id"), id.c_str());
  EXPECT_EQ(transcript(kAnn, id).size(), 4U);

  const auto sessions = as(kAnn).get("/api/dialogues/" + id + "/sessions?sort_by=start_at").json();
  ASSERT_EQ(sessions.at("total"), 2);
  EXPECT_EQ(sessions.at("sessions").at(1).at("id"), session.c_str());
  EXPECT_EQ(sessions.at("sessions").at(1).at("created_by"), "human");
  EXPECT_FALSE(sessions.at("sessions").at(0).at("end_at").is_null());  // the first conversation ended
  const auto turns = as(kAnn).get("/api/sessions/" + session + "/turns?include=messages").json();
  ASSERT_EQ(turns.at("total"), 1);
  EXPECT_EQ(turns.at("turns").at(0).at("messages").at(0).at("content"), "second");
  EXPECT_EQ(turns.at("turns").at(0).at("status"), "responded");

  // Another human, or another AI, is another pair: a dialogue of its own.
  const auto bens = as(kBen).post("/api/dialogs", json::value{{"content", "hello"}, {"reuse", true}});
  ASSERT_EQ(bens.status, 201) << bens.body;
  EXPECT_NE(bens.json().at("dialog").at("id"), id.c_str());
  const auto with_beta =
      as(kAnn).post("/api/dialogs", json::value{{"content", "hi beta"}, {"memberId", "beta"}, {"reuse", true}});
  ASSERT_EQ(with_beta.status, 201) << with_beta.body;
  EXPECT_NE(with_beta.json().at("dialog").at("id"), id.c_str());

  // A completed dialogue has ended: the next conversation is a new dialogue.
  ASSERT_EQ(as(kAnn).post("/api/dialogs/" + id + "/complete", json::object{}).status, 200);
  const auto after = as(kAnn).post("/api/dialogs", json::value{{"content", "third"}, {"reuse", true}});
  ASSERT_EQ(after.status, 201) << after.body;
  EXPECT_NE(after.json().at("dialog").at("id"), id.c_str());
  EXPECT_EQ(total_of(kAnn, "/api/dialogs"), 3);
}

TEST_F(UsersTest, ReuseWhereADialogIsNotOneHumansChatWithOneAiIsRefusedAndNothingChanges) {
  const auto id = create(kAnn, {{"content", "first"}});
  ASSERT_TRUE(last_says(kAnn, id, "alpha heard: first"));
  const std::vector<std::pair<json::object, std::string>> cases{
      {{{"type", "lio_group"}, {"members", json::array{"alpha", "beta"}}, {"reuse", true}, {"content", "x"}},
       "reuse: only a human_ai dialog is one per human and AI, not a lio_group"},
      {{{"taskDocPath", "tasks/plan.tsk"}, {"reuse", true}, {"content", "x"}},
       "reuse: a dialog with a taskDocPath is a task of its own"},
      {{{"reuse", "yes"}, {"content", "x"}}, "reuse: expected true or false"},
      {{{"reuse", true}, {"memberId", "omega"}, {"content", "x"}}, "memberId: no member 'omega' in the team"},
  };
  for (const auto& [body, message] : cases) {
    const auto reply = as(kAnn).post("/api/dialogs", json::value(body));
    EXPECT_EQ(reply.status, 400) << reply.body;
    EXPECT_NE(reply.body.find(message), std::string::npos) << reply.body;
  }
  EXPECT_EQ(total_of(kAnn, "/api/dialogs"), 1);
  EXPECT_EQ(transcript(kAnn, id).size(), 2U);
  EXPECT_EQ(total_of(kAnn, "/api/dialogues/" + id + "/sessions"), 1);
}

TEST_F(UsersTest, ABadDialogueTypeOrPeopleAreRefusedNamingTheFieldAndNothingIsCreated) {
  const std::vector<std::pair<json::object, std::string>> cases{
      {{{"type", "party"}, {"content", "x"}},
       "type: expected human_ai, lio_group, human_human, human_human_group or human_group_ai"},
      {{{"type", "human_human"}, {"content", "x"}}, "participants: a human_human dialog needs at least one other user"},
      {{{"type", "human_human"}, {"participants", json::array{"zed"}}, {"content", "x"}},
       "participants[0]: no user 'zed' on this server"},
      {{{"type", "human_human"}, {"participants", json::array{"ann"}}, {"content", "x"}},
       "participants[0]: 'ann' is already in the dialog"},
      {{{"type", "human_human"}, {"participants", json::array{"ben"}}, {"memberId", "alpha"}, {"content", "x"}},
       "memberId: a human_human dialog has no AI"},
      {{{"participants", json::array{"ben"}}, {"content", "x"}}, "participants: a human_ai dialog has one human"},
      {{{"type", "lio_group"}, {"members", json::array{"alpha"}}, {"content", "x"}},
       "members: a lio_group dialog needs at least 2 AI member(s)"},
      {{{"type", "lio_group"}, {"members", json::array{"alpha", "omega"}}, {"content", "x"}},
       "members[1]: no member 'omega' in the team"},
      {{{"type", "lio_group"}, {"members", json::array{"alpha", "beta"}}, {"memberId", "gamma"}, {"content", "x"}},
       "memberId: no member 'gamma' in the team"},
      {{{"type", "lio_group"}, {"members", "alpha"}, {"content", "x"}}, "members: expected an array of strings"},
      {{{"members", json::array{"alpha"}}, {"content", "x"}}, "members: only lio_group and human_group_ai"},
  };
  for (const auto& [body, message] : cases) {
    const auto reply = as(kAnn).post("/api/dialogs", json::value(body));
    EXPECT_EQ(reply.status, 400) << reply.body;
    EXPECT_NE(reply.body.find(message), std::string::npos) << reply.body;
  }
  EXPECT_EQ(total_of(kAnn, "/api/dialogs"), 0);
}

TEST(UsersFile, IsRefusedWhenOthersCanReadItOrAFieldIsWrongNamingTheField) {
  const auto dir = std::filesystem::temp_directory_path() / ("parley-users-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto team = std::filesystem::path(PARLEY_SOURCE_DIR) / "tests/server/teams/groups/team.yaml";
  const auto file = (dir / "users.yaml").string();
  auto refused_with = [&](const std::string& text, mode_t mode) {
    std::ofstream(file, std::ios::trunc) << text;
    ::chmod(file.c_str(), mode);
    server_process server({"--team", team.string(), "--data", (dir / "data").string(), "--users", file},
                          std::chrono::seconds(20));
    EXPECT_FALSE(server.started());
    return server.output();
  };
  const std::string good = "users:\n  - {id: ann, token: " + std::string(kAnn) + "}\n";
  EXPECT_NE(refused_with(good, 0644).find("readable by others; chmod 600"), std::string::npos);
  EXPECT_NE(refused_with("users:\n  - {id: ann, token: short}\n", 0600)
                .find("users[0].token: expected a string of at "
                      "least 16 characters"),
            std::string::npos);
  EXPECT_NE(
      refused_with(good + "  - {id: ann, token: " + kBen + "}\n", 0600).find("users[1].id: 'ann' is listed twice"),
      std::string::npos);
  EXPECT_NE(refused_with(good + "  - {id: ben, token: " + kAnn + "}\n", 0600).find("users[1].token: the same token as"),
            std::string::npos);
  EXPECT_NE(refused_with("users:\n  - {id: ann, token: " + std::string(kAnn) + ", admin: true}\n", 0600)
                .find("users[0].admin: unknown field"),
            std::string::npos);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace parley::test

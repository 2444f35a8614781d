// Retries under `--users` (issue 19, item 5): a retry is the same input from the same user. Two
// users who both take part in a dialog (ann made it, ben was invited) see the same question; when
// ann answers it with a msgId, ben sending that msgId, question and content is not ann's retry but
// a reuse of her id — 409 naming msgId over REST and over the WebSocket — while ann's own retry is
// still the first answer's 202 (or ack). A user message's id is held to the same rule. The log
// records who answered, and holds each input once.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <boost/json.hpp>

#include <fstream>
#include <string>

#include "parley/store/store.hpp"
#include "rest_fixture.hpp"
#include "test_users.hpp"
#include "ws_client.hpp"

namespace parley::test {
namespace {

namespace json = boost::json;

class retry_users_fixture : public RestTest {
 protected:
  void SetUp() override {
    RestTest::SetUp();
    const auto users_file = (root_ / "users.yaml").string();
    std::ofstream(users_file) << "users:\n"
                              << "  - {id: ann, name: Ann, token: " << kAnn << "}\n"
                              << "  - {id: ben, name: Ben, token: " << kBen << "}\n";
    ::chmod(users_file.c_str(), 0600);
    start("q4h", {"--users", users_file});
  }

  rest_client as(const char* token) const { return rest_client(server_->port(), token); }

  // ann's group dialog with ben, whose lead delegates the trip to the clerk, who asks which day.
  // {root, sub, question}, the question seen by both.
  std::array<std::string, 3> shared_question(const json::value& create_body) {
    const auto created = as(kAnn).post("/api/dialogs", create_body);
    EXPECT_EQ(created.status, 201) << created.body;
    const auto root = dialog_id_of(created);
    EXPECT_TRUE(eventually([&] { return questions(kBen).size() == 1; }));
    const auto listed = questions(kAnn);
    if (listed.size() != 1) return {root, "", ""};
    return {root, std::string(listed[0].at("dialog").at("selfId").as_string()),
            std::string(listed[0].at("id").as_string())};
  }

  json::array questions(const char* token) const {
    const auto body = as(token).get("/api/questions").json();
    return body.is_object() ? body.at("questions").as_array() : json::array{};
  }

  // The stored answers, each as {msgId, from} (the server stopped).
  std::vector<std::pair<std::string, std::string>> stored_answers() const {
    std::vector<std::pair<std::string, std::string>> out;
    auto log = open_sqlite_store(data_dir().string());
    EXPECT_TRUE(log) << log.err().message;
    if (!log) return out;
    auto events = (*log)->read_all_events();
    EXPECT_TRUE(events) << events.err().message;
    if (!events) return out;
    for (const auto& ev : *events) {
      if (const auto* answer = ev.as<events::question_answered>()) out.emplace_back(answer->msg_id, answer->from);
    }
    return out;
  }
};
using RetryUsers = retry_users_fixture;

TEST_F(RetryUsers, AnotherUserSendingTheSameAnswerAndMsgIdIsAConflictNotARetry) {
  const json::value create_body{{"type", "human_group_ai"},
                                {"participants", json::array{"ben"}},
                                {"members", json::array{"lead"}},
                                {"content", "@lead delegate the trip"},
                                {"msgId", "ann-create-1"}};
  const auto shared = shared_question(create_body);
  const std::string& root = shared[0];
  const std::string& sub = shared[1];
  const std::string& question = shared[2];
  ASSERT_FALSE(question.empty());
  // A user message's id is held to the same rule: ben sending ann's first message with its id to
  // the dialog it went to is not her retry.
  const auto ben_copy = as(kBen).post("/api/dialogs/" + root + "/messages",
                                      json::value{{"content", "@lead delegate the trip"}, {"msgId", "ann-create-1"}});
  EXPECT_EQ(ben_copy.status, 409) << ben_copy.body;
  EXPECT_EQ(message_of(ben_copy), "msgId: 'ann-create-1' was already used by another user") << ben_copy.body;

  const std::string target = "/api/dialogs/" + sub + "/answer";
  const json::value answer{{"questionId", question}, {"content", "Friday"}, {"msgId", "ann-answer-1"}};
  const auto answered = as(kAnn).post(target, answer);
  ASSERT_EQ(answered.status, 202) << answered.body;

  const auto ben_answer = as(kBen).post(target, answer);
  EXPECT_EQ(ben_answer.status, 409) << ben_answer.body;
  EXPECT_EQ(message_of(ben_answer), "msgId: 'ann-answer-1' was already used by another user") << ben_answer.body;
  const auto ann_retry = as(kAnn).post(target, answer);
  EXPECT_EQ(ann_retry.status, 202) << ann_retry.body;
  EXPECT_EQ(ann_retry.json().at("msgId"), "ann-answer-1");

  // The WebSocket's answer packet: ben's copy is refused, ann's resend is acknowledged.
  const json::object packet{{"type", "drive_dialog_by_user_answer"},
                            {"dialog", json::object{{"selfId", sub}}},
                            {"content", "Friday"},
                            {"msgId", "ann-answer-1"},
                            {"questionId", question},
                            {"continuationType", "answer"}};
  ws_client ben;
  ASSERT_TRUE(ben.connect(server_->port(), ws_client::protocols_with_token(kBen)));
  ben.send(packet);
  const auto refused = ben.next_of("error");
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->at("ref"), "ann-answer-1");
  EXPECT_EQ(refused->at("code"), "conflict");
  EXPECT_EQ(refused->at("message"), "msgId: 'ann-answer-1' was already used by another user");
  ws_client ann;
  ASSERT_TRUE(ann.connect(server_->port(), ws_client::protocols_with_token(kAnn)));
  ann.send(packet);
  const auto acked = ann.next_of("ack");
  ASSERT_TRUE(acked);
  EXPECT_EQ(acked->at("ref"), "ann-answer-1");

  ASSERT_TRUE(eventually([&] {
    const auto list = as(kAnn).get("/api/dialogs/" + root + "/transcript").json();
    const auto& messages = list.at("messages").as_array();
    return !messages.empty() && messages.back().at("content") == "Trip booked: 【最终完成】\nbooked for Friday";
  }));
  EXPECT_TRUE(eventually([&] {
    const auto summary = as(kAnn).get("/api/dialogs/" + root).json().at("dialog");
    return !summary.at("generating").as_bool() && !summary.at("needsDrive").as_bool();
  }));
  ben.drop();
  ann.drop();
  ASSERT_EQ(server_->terminate(), 0) << server_->output();
  const auto answers = stored_answers();
  ASSERT_EQ(answers.size(), 1U);
  EXPECT_EQ(answers[0].first, "ann-answer-1");
  EXPECT_EQ(answers[0].second, "ann");  // who answered is on the log
}

}  // namespace
}  // namespace parley::test

// POST /api/dialogs/{id}/fork (docs/fork.md): a new root tree sharing the root's history, with its
// subdialogs and open questions as they were, that goes on alone; a bad point is refused naming
// what is wrong and writes nothing.
#include "parley/store/store.hpp"
#include "rest_fixture.hpp"

namespace parley::test {
namespace {

class RestFork : public RestTest {
 protected:
  http_reply fork(const std::string& id, boost::json::value body) {
    return client().post("/api/dialogs/" + id + "/fork", body);
  }
  std::int64_t roots() const { return client().get("/api/dialogs").json().at("total").as_int64(); }
};

TEST_F(RestFork, AForkSharesTheTranscriptNamesItsOriginAndGoesOnAlone) {
  start("q4h");
  const auto id = create_dialog("hello");
  ASSERT_TRUE(eventually_says(id, "ok: hello"));
  ASSERT_TRUE(eventually([&] { return settled(id); }));

  const auto forked = fork(id, boost::json::object{});
  ASSERT_EQ(forked.status, 201) << forked.body;
  const auto summary = forked.json().at("dialog");
  const std::string fork_id(summary.at("id").as_string());
  EXPECT_NE(fork_id, id);
  EXPECT_EQ(summary.at("kind"), "root");
  EXPECT_EQ(summary.at("forkedFrom").at("dialog"), id.c_str());
  EXPECT_GE(summary.at("forkedFrom").at("at").as_int64(), 3);
  EXPECT_EQ(dialog(fork_id).at("dialog").at("forkedFrom"), summary.at("forkedFrom"));
  EXPECT_FALSE(dialog(id).at("dialog").as_object().contains("forkedFrom"));
  const auto shared = messages(fork_id);
  ASSERT_EQ(shared.size(), 2U);
  EXPECT_EQ(shared[0].at("content"), "hello");
  EXPECT_EQ(shared[1].at("content"), "ok: hello");
  EXPECT_EQ(roots(), 2);

  const auto posted = client().post("/api/dialogs/" + fork_id + "/messages", boost::json::value{{"content", "again"}});
  ASSERT_EQ(posted.status, 202) << posted.body;
  ASSERT_TRUE(eventually_says(fork_id, "ok: again"));
  EXPECT_EQ(messages(fork_id).size(), 4U);
  EXPECT_EQ(messages(id).size(), 2U) << "the origin stays as it was";
}

TEST_F(RestFork, ATreeWaitingOnAQuestionForksWithItsSubdialogAndTheQuestionIsAnsweredInTheForkAlone) {
  start("q4h");
  const auto root = create_dialog("delegate the trip");
  ASSERT_TRUE(eventually([&] { return client().get("/api/questions").json().at("questions").as_array().size() == 1; }));
  const auto question = client().get("/api/questions").json().at("questions").at(0);
  const std::string sub(question.at("dialog").at("selfId").as_string());
  const std::string question_id(question.at("id").as_string());
  ASSERT_TRUE(eventually([&] {
    // The question is indexed before the generation that asked it ends; a fork waits for both.
    return dialog(sub).at("dialog").at("openQuestions") == 1 && dialog(sub).at("dialog").at("generating") == false &&
           dialog(root).at("dialog").at("generating") == false;
  }));

  const auto forked = fork(root, boost::json::object{});
  ASSERT_EQ(forked.status, 201) << forked.body;
  const std::string fork_id(forked.json().at("dialog").at("id").as_string());
  const auto tree = client().get("/api/dialogs/" + fork_id + "/hierarchy").json();
  ASSERT_EQ(tree.at("dialogs").as_array().size(), 1U) << tree;
  const std::string fork_sub(tree.at("dialogs").at(0).at("id").as_string());
  EXPECT_NE(fork_sub, sub);
  EXPECT_EQ(tree.at("dialogs").at(0).at("parentId"), fork_id.c_str());
  EXPECT_EQ(tree.at("dialogs").at(0).at("openQuestions"), 1);
  ASSERT_TRUE(eventually([&] { return client().get("/api/questions").json().at("questions").as_array().size() == 2; }));

  const auto answered = client().post("/api/dialogs/" + fork_sub + "/answer",
                                      boost::json::value{{"questionId", question_id}, {"content", "Friday"}});
  ASSERT_EQ(answered.status, 202) << answered.body;
  ASSERT_TRUE(eventually_says(fork_id, "Trip booked: 【最终完成】\nbooked for Friday"));
  const auto left = client().get("/api/questions").json().at("questions").as_array();
  ASSERT_EQ(left.size(), 1U) << "the origin's question is still open";
  EXPECT_EQ(left[0].at("dialog").at("selfId"), sub.c_str());
}

// Seed 002's records of a fork: a dialogue of its own that begins at the cut (the shared history
// is the origin's dialogue), in which the fork's own exchanges are recorded as they happen.
TEST_F(RestFork, AForksOwnExchangesAreRecordedInADialogueOfItsOwnThatBeginsAtTheCut) {
  start("q4h");
  const auto id = create_dialog("hello");
  ASSERT_TRUE(eventually_says(id, "ok: hello"));
  ASSERT_TRUE(eventually([&] { return settled(id); }));
  const auto forked = fork(id, boost::json::object{});
  ASSERT_EQ(forked.status, 201) << forked.body;
  const std::string fork_id(forked.json().at("dialog").at("id").as_string());
  ASSERT_EQ(client().post("/api/dialogs/" + fork_id + "/messages", boost::json::value{{"content", "again"}}).status,
            202);
  ASSERT_TRUE(eventually_says(fork_id, "ok: again"));
  ASSERT_TRUE(eventually([&] { return settled(fork_id); }));

  const auto dialogue = client().get("/api/dialogues/" + fork_id);
  ASSERT_EQ(dialogue.status, 200) << dialogue.body;
  EXPECT_EQ(dialogue.json().at("dialogue").at("dialogue_type"), "human_ai");
  std::vector<std::string> said;
  const auto sessions = client().get("/api/dialogues/" + fork_id + "/sessions").json();
  for (const auto& session : sessions.at("sessions").as_array()) {
    const auto turns = client().get("/api/sessions/" + std::string(session.at("id").as_string()) + "/turns").json();
    for (const auto& turn : turns.at("turns").as_array()) {
      const auto turn_messages =
          client().get("/api/turns/" + std::string(turn.at("id").as_string()) + "/messages").json();
      for (const auto& m : turn_messages.at("messages").as_array()) said.emplace_back(m.at("content").as_string());
    }
  }
  EXPECT_EQ(said, (std::vector<std::string>{"again", "ok: again"}));
}

TEST_F(RestFork, ABadPointIsRefusedNamingWhatIsWrongAndNothingIsWritten) {
  start("q4h");
  const auto id = create_dialog("hello");
  ASSERT_TRUE(eventually_says(id, "ok: hello"));
  ASSERT_TRUE(eventually([&] { return settled(id); }));

  const auto past_the_end = fork(id, boost::json::value{{"at", 9999}});
  EXPECT_EQ(past_the_end.status, 404) << past_the_end.body;
  EXPECT_NE(message_of(past_the_end).find("has no event 9999; its events are 1.."), std::string::npos);
  const auto no_generation = fork(id, boost::json::value{{"atGeneration", 7}});
  EXPECT_EQ(no_generation.status, 404) << no_generation.body;
  EXPECT_NE(message_of(no_generation).find("has no generation 7"), std::string::npos);
  const auto both = fork(id, boost::json::value{{"at", 2}, {"atGeneration", 1}});
  EXPECT_EQ(both.status, 400) << both.body;
  EXPECT_NE(message_of(both).find("atGeneration"), std::string::npos);
  const auto not_a_number = fork(id, boost::json::value{{"at", "two"}});
  EXPECT_EQ(not_a_number.status, 400) << not_a_number.body;
  EXPECT_NE(message_of(not_a_number).find("at"), std::string::npos);
  const auto unknown_field = fork(id, boost::json::value{{"from", 2}});
  EXPECT_EQ(unknown_field.status, 400) << unknown_field.body;
  EXPECT_EQ(fork("no-such-dialog", boost::json::object{}).status, 404);
  EXPECT_EQ(roots(), 1);
}

}  // namespace
}  // namespace parley::test

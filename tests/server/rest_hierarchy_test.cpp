// REST black-box: a root that delegates to a one-off subdialog which asks the human — children,
// hierarchy, open questions and answering one, the registry, declaring a subdialog dead — and a
// dialog's working memory: reminders and the Taskdoc.
#include "rest_fixture.hpp"

namespace parley::test {
namespace {

// Starts the delegation and waits until the clerk's question is open and stored; returns {root, sub, question}.
struct open_question_ids {
  std::string root;
  std::string sub;
  std::string question;
};

class RestHierarchyTest : public RestTest {
 protected:
  open_question_ids delegate() {
    open_question_ids ids;
    ids.root = create_dialog("delegate the trip");
    EXPECT_TRUE(
        eventually([&] { return client().get("/api/questions").json().at("questions").as_array().size() == 1; }));
    const auto questions = client().get("/api/questions").json().at("questions").as_array();
    if (questions.empty()) return ids;
    ids.sub = std::string(questions[0].at("dialog").at("selfId").as_string());
    ids.question = std::string(questions[0].at("id").as_string());
    // The engine lists the question once it is staged; the stored projection has it once its
    // commit is durable, a moment later.
    EXPECT_TRUE(eventually([&] {
      const auto sub = dialog(ids.sub);
      return sub.is_object() && sub.at("dialog").at("openQuestions") == 1;
    }));
    return ids;
  }
};

TEST_F(RestHierarchyTest, QuestionOfASubdialogIsListedAndAnsweredOverRest) {
  start("q4h");
  const auto ids = delegate();
  ASSERT_FALSE(ids.question.empty());

  const auto question = client().get("/api/questions").json().at("questions").at(0);
  EXPECT_EQ(question.at("dialog").at("rootId"), ids.root.c_str());
  EXPECT_EQ(question.at("memberId"), "clerk");
  EXPECT_EQ(question.at("course"), 1);
  EXPECT_EQ(question.at("mentionList"), "Which day?");
  EXPECT_EQ(question.at("tellaskContent"), "Which day?\nMonday or Friday.");
  EXPECT_TRUE(question.at("askedAt").is_string());
  EXPECT_FALSE(question.at("callId").as_string().empty());

  // The tree, one level at a time and whole.
  const auto root = dialog(ids.root).at("dialog");
  EXPECT_EQ(root.at("hasChildren"), true);
  EXPECT_EQ(root.at("pendingSubdialogs"), 1);
  const auto children = client().get("/api/dialogs/" + ids.root + "/children").json().at("children").as_array();
  ASSERT_EQ(children.size(), 1U);
  const auto& sub = children[0];
  EXPECT_EQ(sub.at("id"), ids.sub.c_str());
  EXPECT_EQ(sub.at("kind"), "sub");
  EXPECT_EQ(sub.at("parentId"), ids.root.c_str());
  EXPECT_EQ(sub.at("callKind"), "tellaskSessionless");
  EXPECT_EQ(sub.at("depth"), 1);
  EXPECT_EQ(sub.at("openQuestions"), 1);
  EXPECT_EQ(sub.at("hasChildren"), false);
  EXPECT_TRUE(client().get("/api/dialogs/" + ids.sub + "/children").json().at("children").as_array().empty());
  const auto tree = client().get("/api/dialogs/" + ids.root + "/hierarchy").json();
  EXPECT_EQ(tree.at("root").at("id"), ids.root.c_str());
  ASSERT_EQ(tree.at("dialogs").as_array().size(), 1U);
  EXPECT_EQ(tree.at("dialogs").at(0).at("id"), ids.sub.c_str());
  // Only roots are listed.
  EXPECT_EQ(client().get("/api/dialogs").json().at("total"), 1);
  // A sessionless call is not in the Type B registry.
  EXPECT_TRUE(client().get("/api/dialogs/" + ids.root + "/registry").json().at("entries").as_array().empty());

  // Answering: a wrong question id is 409, the right one 202, and the tree finishes.
  const auto wrong = client().post("/api/dialogs/" + ids.sub + "/answer",
                                   boost::json::value{{"questionId", "no-such-question"}, {"content", "Monday"}});
  EXPECT_EQ(wrong.status, 409) << wrong.body;
  EXPECT_EQ(wrong.json().at("error").at("code"), "conflict");
  const auto answered = client().post("/api/dialogs/" + ids.sub + "/answer",
                                      boost::json::value{{"questionId", ids.question}, {"content", "Friday"}});
  ASSERT_EQ(answered.status, 202) << answered.body;
  EXPECT_EQ(answered.json().at("accepted"), true);
  ASSERT_TRUE(eventually_says(ids.root, "Trip booked: 【最终完成】\nbooked for Friday"));
  EXPECT_TRUE(client().get("/api/questions").json().at("questions").as_array().empty());
  const auto again = client().post("/api/dialogs/" + ids.sub + "/answer",
                                   boost::json::value{{"questionId", ids.question}, {"content", "Monday"}});
  EXPECT_EQ(again.status, 409) << again.body;
  EXPECT_TRUE(eventually([&] { return dialog(ids.sub).at("dialog").at("status") == "completed"; }));
}

TEST_F(RestHierarchyTest, RegistryListsTypeBSessions) {
  start("q4h");
  const auto root = create_dialog("keep a session with the clerk");
  ASSERT_TRUE(eventually([&] { return client().get("/api/questions").json().at("questions").as_array().size() == 1; }));
  const auto body = client().get("/api/dialogs/" + root + "/registry").json();
  const auto& entries = body.at("entries").as_array();
  ASSERT_EQ(entries.size(), 1U) << body;
  EXPECT_EQ(entries[0].at("key"), "clerk!trip");
  EXPECT_EQ(entries[0].at("agentId"), "clerk");
  EXPECT_EQ(entries[0].at("sessionSlug"), "trip");
  EXPECT_TRUE(entries[0].at("locked").is_bool());
  EXPECT_TRUE(entries[0].at("createdAt").is_string());
  EXPECT_TRUE(entries[0].at("lastAccessed").is_string());
  const std::string sub(entries[0].at("subdialogId").as_string());
  EXPECT_EQ(dialog(sub).at("dialog").at("sessionSlug"), "trip");
  EXPECT_EQ(dialog(sub).at("dialog").at("callKind"), "tellask");
  // Asked through the subdialog, it is the same registry: the root's. (Only the identity is
  // compared: `locked` flips when the subdialog's drive ends, which may fall between the two reads.)
  const auto via_sub = client().get("/api/dialogs/" + sub + "/registry").json();
  const auto& sub_entries = via_sub.at("entries").as_array();
  ASSERT_EQ(sub_entries.size(), 1U) << via_sub;
  EXPECT_EQ(sub_entries[0].at("key"), "clerk!trip");
  EXPECT_EQ(sub_entries[0].at("subdialogId"), entries[0].at("subdialogId"));
}

TEST_F(RestHierarchyTest, DeclaringTheSubdialogDeadLetsTheRootGoOn) {
  start("q4h");
  const auto ids = delegate();
  ASSERT_FALSE(ids.sub.empty());
  const auto root_refused = client().post("/api/dialogs/" + ids.root + "/dead", std::string("{}"));
  EXPECT_EQ(root_refused.status, 400) << root_refused.body;
  const auto declared =
      client().post("/api/dialogs/" + ids.sub + "/dead", boost::json::value{{"reason", "not needed any more"}});
  ASSERT_EQ(declared.status, 200) << declared.body;
  const auto dead = declared.json().at("dialog");
  EXPECT_EQ(dead.at("dead"), true);
  EXPECT_EQ(dead.at("openQuestions"), 0);  // its question is withdrawn with it
  EXPECT_TRUE(client().get("/api/questions").json().at("questions").as_array().empty());
  EXPECT_TRUE(eventually_says(ids.root, "going on without the clerk"));
  EXPECT_EQ(dialog(ids.root).at("dialog").at("pendingSubdialogs"), 0);
  const auto twice = client().post("/api/dialogs/" + ids.sub + "/dead", std::string(""));
  EXPECT_EQ(twice.status, 409) << twice.body;
}

TEST_F(RestHierarchyTest, ResumeAndInterruptOfAnIdleDialog) {
  start("q4h");
  const auto id = create_dialog("just talk");
  ASSERT_TRUE(eventually_says(id, "ok: just talk"));
  const auto stopped = client().post("/api/dialogs/" + id + "/interrupt", std::string(""));
  ASSERT_EQ(stopped.status, 200) << stopped.body;
  EXPECT_EQ(stopped.json().at("stopped"), false);  // nothing was running
  // Its last answer was given: resume would only repeat it, so it is refused and nothing changes.
  EXPECT_EQ(dialog(id).at("dialog").at("resumable"), false);
  const auto before = messages(id).size();
  const auto resumed = client().post("/api/dialogs/" + id + "/resume", std::string(""));
  EXPECT_EQ(resumed.status, 409) << resumed.body;
  EXPECT_EQ(resumed.json().at("error").at("code"), "conflict");
  EXPECT_NE(resumed.json().at("error").at("message").as_string().find("nothing to resume"), std::string::npos)
      << resumed.body;
  EXPECT_TRUE(settled(id));
  EXPECT_EQ(messages(id).size(), before);
}

TEST_F(RestHierarchyTest, ADialogWaitingForTheHumanIsNotResumable) {
  start("q4h");
  const auto ids = delegate();
  ASSERT_FALSE(ids.sub.empty());
  EXPECT_EQ(dialog(ids.sub).at("dialog").at("resumable"), false);
  EXPECT_EQ(dialog(ids.root).at("dialog").at("resumable"), false);
  const auto refused = client().post("/api/dialogs/" + ids.sub + "/resume", std::string(""));
  EXPECT_EQ(refused.status, 409) << refused.body;
  EXPECT_NE(refused.body.find("answer them instead"), std::string::npos) << refused.body;
}

TEST_F(RestHierarchyTest, RemindersOfADialog) {
  start("q4h");
  const auto id = create_dialog("remember this");
  ASSERT_TRUE(eventually_says(id, "noted"));
  const auto body = client().get("/api/dialogs/" + id + "/reminders").json();
  const auto& reminders = body.at("reminders").as_array();
  ASSERT_EQ(reminders.size(), 1U);
  EXPECT_EQ(reminders[0].at("index"), 1);
  EXPECT_EQ(reminders[0].at("content"), "buy milk");
}

TEST_F(RestHierarchyTest, TaskdocIsNotFoundWithoutOneAndReadWithOne) {
  start("q4h");
  const auto plain = create_dialog("no task here");
  ASSERT_TRUE(eventually_says(plain, "ok: no task here"));
  const auto missing = client().get("/api/dialogs/" + plain + "/taskdoc");
  EXPECT_EQ(missing.status, 404) << missing.body;
  EXPECT_EQ(missing.json().at("error").at("code"), "not_found");

  const auto created = client().post(
      "/api/dialogs", boost::json::value{{"content", "set the goals"}, {"taskDocPath", "tasks/demo.tsk"}});
  ASSERT_EQ(created.status, 201) << created.body;
  const std::string id(created.json().at("dialog").at("id").as_string());
  ASSERT_TRUE(eventually_says(id, "goals set"));
  const auto doc = client().get("/api/dialogs/" + id + "/taskdoc");
  ASSERT_EQ(doc.status, 200) << doc.body;
  EXPECT_EQ(doc.json().at("path"), "tasks/demo.tsk");
  EXPECT_EQ(doc.json().at("sections").at("goals"), "Ship v1 by Friday.");
  EXPECT_EQ(doc.json().at("sections").at("constraints"), "");
  EXPECT_EQ(doc.json().at("sections").at("progress"), "");

  const auto outside =
      client().post("/api/dialogs", boost::json::value{{"content", "x"}, {"taskDocPath", "../outside.tsk"}});
  EXPECT_EQ(outside.status, 400) << outside.body;
}

}  // namespace
}  // namespace parley::test

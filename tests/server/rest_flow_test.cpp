// Seed 004's flows behind `parley serve`: a flow member's dialog is created and answered over REST,
// read back as its thread (`GET /api/dialogs/{id}/thread`, a sub-thread by `?path=`), and its
// first-level messages are the dialogue's messages in seed 002's records. A subscriber of the flow's
// dialog watches it work: the thread's changes and the main thread's reply as it streams.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <boost/json.hpp>

#include <fstream>

#include "rest_fixture.hpp"
#include "test_users.hpp"
#include "ws_client.hpp"

namespace parley::test {
namespace {

namespace json = boost::json;

// The example team of examples/flows (one member, article_writer, of kind flow), offline.
class flow_rest_fixture : public RestTest {
 protected:
  void start_flows(std::vector<std::string> extra = {}) {
    const auto source = std::filesystem::path(PARLEY_SOURCE_DIR) / "examples/flows";
    team_dir_ = root_ / "flows";
    std::filesystem::copy(source, team_dir_, std::filesystem::copy_options::recursive);
    std::vector<std::string> args{"--team", (team_dir_ / "team.yaml").string(), "--data", data_dir().string()};
    args.insert(args.end(), extra.begin(), extra.end());
    server_ = std::make_unique<server_process>(args);
    ASSERT_TRUE(server_->started()) << server_->output();
  }

  // POST /api/dialogs to the flow member; the reply's body.
  json::value start_flow(const rest_client& as, const std::string& content) {
    const auto reply = as.post("/api/dialogs", json::value{{"memberId", "article_writer"}, {"content", content}});
    EXPECT_EQ(reply.status, 201) << reply.body;
    return reply.json();
  }
};
using RestFlow = flow_rest_fixture;

std::string phase_of(const json::value& thread) {
  return std::string(thread.at("settings").at("briefStatus").at("phase").as_string());
}

TEST_F(RestFlow, AFlowIsStartedAnsweredAndReadAsItsThreadWithNestedSubThreadsAndTheirPhases) {
  start_flows();
  const auto created = start_flow(client(), "Write me an article");
  const std::string id(created.at("dialog").at("id").as_string());
  EXPECT_EQ(created.at("dialog").at("memberId"), "article_writer");
  // The flow ran until it waits for the user: its question, in phase initial_phase.
  const auto& first = created.at("flow");
  EXPECT_EQ(first.at("phase"), "initial_phase");
  EXPECT_EQ(first.at("completed"), false);
  ASSERT_EQ(first.at("thread").at("messages").as_array().size(), 2U);
  EXPECT_EQ(first.at("thread").at("messages").at(1).at("text"),
            "What topic should the article cover, and who will read it?");

  const auto said = client().post("/api/dialogs/" + id + "/messages", json::value{{"content", "Tea, for beginners"}});
  ASSERT_EQ(said.status, 200) << said.body;
  EXPECT_EQ(said.json().at("flow").at("completed"), true);

  const auto main = client().get("/api/dialogs/" + id + "/thread");
  ASSERT_EQ(main.status, 200) << main.body;
  const auto view = main.json();
  EXPECT_EQ(view.at("dialogId"), id.c_str());
  EXPECT_EQ(view.at("path"), "");
  EXPECT_EQ(view.at("phase"), "article_writing");
  EXPECT_EQ(view.at("completed"), true);
  const auto& messages = view.at("thread").at("messages").as_array();
  ASSERT_EQ(messages.size(), 5U);
  EXPECT_EQ(messages[4].at("text"), "Tea for beginners. Tea matters because ... (the article)");
  // The outline's sub-thread inside message 3, the review nested inside its message 3.
  const auto& outline = messages[3].at("meta").at("_thread");
  EXPECT_EQ(phase_of(outline), "completed");
  EXPECT_EQ(phase_of(outline.at("messages").at(3).at("meta").at("_thread")), "completed");

  const auto nested =
      client().get("/api/dialogs/" + id + "/thread?path=messages.3.meta._thread.messages.3.meta._thread");
  ASSERT_EQ(nested.status, 200) << nested.body;
  const auto nested_view = nested.json();
  EXPECT_EQ(nested_view.at("path"), "messages.3.meta._thread.messages.3.meta._thread");
  EXPECT_EQ(nested_view.at("phase"), "completed");
  const auto& review = nested_view.at("thread").at("messages").as_array();
  ASSERT_EQ(review.size(), 2U);
  EXPECT_EQ(review[1].at("text"), "- Missing: a closing summary\n- Brewing should come before choosing cups");

  // A completed flow takes no more messages, and the refusal changes nothing.
  const auto more = client().post("/api/dialogs/" + id + "/messages", json::value{{"content", "more"}});
  EXPECT_EQ(more.status, 409) << more.body;
  EXPECT_EQ(client().get("/api/dialogs/" + id + "/thread").json().at("thread"), view.at("thread"));
}

// A flow's dialog is a root like the others: completed, archived and reopened through the same
// routes, refusing messages while it is not running; a flow that finishes completes its dialog.
TEST_F(RestFlow, AFlowsDialogIsCompletedAndReopenedLikeAnyRootAndCompletesItselfWhenTheFlowFinishes) {
  start_flows();
  const auto created = start_flow(client(), "Write me an article");
  const std::string id(created.at("dialog").at("id").as_string());
  const std::string base = "/api/dialogs/" + id;
  EXPECT_EQ(created.at("dialog").at("status"), "running");
  const auto completed = client().post(base + "/complete", json::object{});
  ASSERT_EQ(completed.status, 200) << completed.body;
  EXPECT_EQ(completed.json().at("dialog").at("status"), "completed");
  const auto thread_before = client().get(base + "/thread").json().at("thread");

  const auto refused = client().post(base + "/messages", json::value{{"content", "Tea, for beginners"}});
  EXPECT_EQ(refused.status, 409) << refused.body;
  EXPECT_NE(refused.body.find("is completed; reopen it to go on"), std::string::npos) << refused.body;
  EXPECT_EQ(client().get(base + "/thread").json().at("thread"), thread_before);
  EXPECT_EQ(client().post(base + "/complete", json::object{}).status, 409);

  const auto reopened = client().post(base + "/reopen", json::object{});
  ASSERT_EQ(reopened.status, 200) << reopened.body;
  EXPECT_EQ(reopened.json().at("dialog").at("status"), "running");
  const auto said = client().post(base + "/messages", json::value{{"content", "Tea, for beginners"}});
  ASSERT_EQ(said.status, 200) << said.body;
  EXPECT_EQ(said.json().at("flow").at("completed"), true);
  EXPECT_EQ(client().get(base).json().at("dialog").at("status"), "completed");
  const auto finished = client().post(base + "/reopen", json::object{});
  EXPECT_EQ(finished.status, 409) << finished.body;
  EXPECT_NE(finished.body.find("its flow has finished"), std::string::npos) << finished.body;
  const auto listed = client().get("/api/dialogs?status=completed").json();
  EXPECT_EQ(listed.at("total"), 1) << listed;
}

TEST_F(RestFlow, ASubscriberSeesTheFlowWorkAndItsMainThreadReplyStreamAsItIsWritten) {
  start_flows();
  const std::string id(start_flow(client(), "Write me an article").at("dialog").at("id").as_string());
  ws_client ws;
  ASSERT_TRUE(ws.connect(server_->port(), ws_client::protocols_with_token(server_->token())));
  ASSERT_TRUE(ws.next_of("welcome"));
  ws.send(json::object{{"type", "subscribe"}, {"dialog", json::object{{"selfId", id}}}});
  ASSERT_TRUE(ws.next_of("resync"));

  const auto said = client().post("/api/dialogs/" + id + "/messages", json::value{{"content", "Tea, for beginners"}});
  ASSERT_EQ(said.status, 200) << said.body;
  std::vector<bool> working;
  std::string streamed;
  while (working.empty() || working.back()) {
    auto packet = ws.next();
    ASSERT_TRUE(packet) << "no packet after " << working.size() << " thread changes";
    EXPECT_EQ(packet->at("dialog").at("selfId"), id.c_str());
    if (packet->at("type") == "flow_thread_evt") working.push_back(packet->at("working").as_bool());
    if (packet->at("type") == "flow_chunk_evt") {
      EXPECT_TRUE(!working.empty() && working.back()) << "a reply streams while the step is under way";
      streamed += packet->at("content").as_string();
    }
  }
  ASSERT_GE(working.size(), 3U) << "the step's start, the thread's changes, its end";
  EXPECT_TRUE(working.front());
  EXPECT_EQ(std::count(working.begin(), working.end(), false), 1) << "the end, once";
  // The main thread's reply is the one that streamed (sub-threads take whole replies, §6.1).
  const auto answer = said.json();
  const auto& messages = answer.at("flow").at("thread").at("messages").as_array();
  EXPECT_EQ(streamed, messages.back().at("text").as_string());
  const auto& outline = messages.at(3).at("meta").at("_thread").at("messages").as_array();
  EXPECT_EQ(streamed.find(std::string(outline.at(1).at("text").as_string())), std::string::npos);
}

// Seed 004 §4.2: "if (task.meta._ui_action === 'retry') { // 如果是retry任务，只移除建议但不应用" — over
// REST, POST …/thread/retry: the waiting suggestion is dropped and the current phase answers again.
TEST_F(RestFlow, ARetryDropsTheWaitingSuggestionAndTheCurrentPhaseAnswersAgain) {
  start_flows();
  const auto created = start_flow(client(), "Write me an article");
  const std::string id(created.at("dialog").at("id").as_string());
  // The YAML agent lists no extra task.
  EXPECT_EQ(json::serialize(created.at("flow").at("operations")), "[]") << json::serialize(created);
  const auto retried = client().post("/api/dialogs/" + id + "/thread/retry", json::value{{"content", "An article"}});
  ASSERT_EQ(retried.status, 200) << retried.body;
  const auto retried_body = retried.json();
  const auto& flow = retried_body.at("flow");
  EXPECT_EQ(json::serialize(flow.at("phase")), "\"initial_phase\"");
  const auto& messages = flow.at("thread").at("messages").as_array();
  ASSERT_EQ(messages.size(), 4U) << json::serialize(flow);
  EXPECT_EQ(json::serialize(messages[3].at("text")), "\"What topic should the article cover, and who will read it?\"");
  const auto unknown = client().post("/api/dialogs/" + id + "/thread/retry", json::value{{"text", "x"}});
  EXPECT_EQ(unknown.status, 400) << unknown.body;
  // loadOperations (§2.1): a task the agent does not list is refused, naming what it lists.
  json::object asked{{"name", "chatPair"}, {"message", "hi"}};
  asked["meta"] = json::object{{"bot", "hello"}};
  const auto task = client().post("/api/dialogs/" + id + "/thread/tasks", json::value(std::move(asked)));
  EXPECT_EQ(task.status, 400) << task.body;
  EXPECT_NE(task.body.find("its loadOperations: none"), std::string::npos) << task.body;
}

TEST_F(RestFlow, ABadPathIsA400NamingItsSegmentAndAPlainDialogHasNoThread) {
  start_flows();
  const auto created = start_flow(client(), "Write me an article");
  const std::string id(created.at("dialog").at("id").as_string());
  const auto thread = [&](const std::string& query) { return client().get("/api/dialogs/" + id + "/thread" + query); };

  const auto not_index = thread("?path=messages.x.meta._thread");
  EXPECT_EQ(not_index.status, 400);
  EXPECT_EQ(code_of(not_index), "bad_field");
  EXPECT_NE(message_of(not_index).find(
                "path: subThreadPath \"messages.x.meta._thread\": segment 2 \"x\" is not a message index"),
            std::string::npos)
      << not_index.body;
  const auto misspelt = thread("?path=msgs.1.meta._thread");
  EXPECT_EQ(misspelt.status, 400);
  EXPECT_NE(message_of(misspelt).find("segment 1 \"msgs\" should be \"messages\""), std::string::npos) << misspelt.body;
  const auto no_sub_thread = thread("?path=messages.1.meta._thread");
  EXPECT_EQ(no_sub_thread.status, 400);
  EXPECT_NE(message_of(no_sub_thread).find("message 1"), std::string::npos) << no_sub_thread.body;
  EXPECT_NE(message_of(no_sub_thread).find("has no sub-thread in meta._thread"), std::string::npos);
  const auto out_of_range = thread("?path=messages.9.meta._thread");
  EXPECT_EQ(out_of_range.status, 400);
  EXPECT_NE(message_of(out_of_range).find("message index 9 is out of range"), std::string::npos) << out_of_range.body;
  const auto unknown = thread("?subThreadPath=messages.1.meta._thread");
  EXPECT_EQ(unknown.status, 400);
  EXPECT_NE(message_of(unknown).find("subThreadPath: unknown parameter"), std::string::npos) << unknown.body;

  EXPECT_EQ(client().get("/api/dialogs/nosuchdialog0000/thread").status, 404);
}

TEST_F(RestFlow, AnotherUsersFlowIsNotFoundOnEveryFlowRoute) {
  const auto users = (root_ / "users.yaml").string();
  std::ofstream(users) << "users:\n  - {id: ann, token: " << kAnn << "}\n  - {id: ben, token: " << kBen << "}\n";
  ::chmod(users.c_str(), 0600);
  start_flows({"--users", users});
  const rest_client ann(server_->port(), kAnn);
  const rest_client ben(server_->port(), kBen);
  const auto created = start_flow(ann, "Write me an article");
  const std::string id(created.at("dialog").at("id").as_string());
  EXPECT_EQ(ann.get("/api/dialogs/" + id + "/thread").status, 200);

  const auto read = ben.get("/api/dialogs/" + id + "/thread");
  EXPECT_EQ(read.status, 404) << read.body;
  EXPECT_EQ(ben.get("/api/dialogs/" + id + "/thread?path=messages.x").status, 404);
  const auto said = ben.post("/api/dialogs/" + id + "/messages", json::value{{"content", "Tea, for beginners"}});
  EXPECT_EQ(said.status, 404) << said.body;
  // Ben's refused message changed nothing: the flow still waits for Ann, two messages in.
  const auto view = ann.get("/api/dialogs/" + id + "/thread").json();
  EXPECT_EQ(view.at("thread").at("messages").as_array().size(), 2U);
  EXPECT_EQ(view.at("phase"), "initial_phase");
}

TEST_F(RestFlow, TheFlowsFirstLevelMessagesAreItsDialoguesMessagesInSeed002sRecords) {
  start_flows();
  const auto created = start_flow(client(), "Write me an article");
  const std::string id(created.at("dialog").at("id").as_string());
  ASSERT_EQ(client().post("/api/dialogs/" + id + "/messages", json::value{{"content", "Tea, for beginners"}}).status,
            200);

  const auto dialogue = client().get("/api/dialogues/" + id).json().at("dialogue");
  EXPECT_EQ(dialogue.at("dialogue_type"), "human_ai");
  EXPECT_EQ(dialogue.at("ai_id"), "article_writer");
  const auto sessions = client().get("/api/dialogues/" + id + "/sessions").json().at("sessions").as_array();
  ASSERT_EQ(sessions.size(), 1U);
  const std::string session(sessions[0].at("id").as_string());
  const auto turns = client().get("/api/sessions/" + session + "/turns").json().at("turns").as_array();
  ASSERT_EQ(turns.size(), 2U);
  std::vector<std::string> said;
  for (const auto& turn : turns) {
    EXPECT_EQ(turn.at("turn_type"), "human_query");
    EXPECT_EQ(turn.at("status"), "responded");
    const std::string turn_id(turn.at("id").as_string());
    const auto turn_messages = client().get("/api/turns/" + turn_id + "/messages").json();
    for (const auto& m : turn_messages.at("messages").as_array()) {
      said.push_back(std::string(m.at("sender_role").as_string()) + ": " + std::string(m.at("content").as_string()));
    }
  }
  // The first level only: the outline and its review stay inside the placeholder's sub-thread.
  EXPECT_EQ(said, (std::vector<std::string>{"human: Write me an article",
                                            "ai: What topic should the article cover, and who will read it?",
                                            "human: Tea, for beginners", "ai: Drafting the outline…",
                                            "ai: Tea for beginners. Tea matters because ... (the article)"}));
}

}  // namespace
}  // namespace parley::test

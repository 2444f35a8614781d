// Live events and input across the nodes of one PostgreSQL (issue 38 item 3, docs/scale-out.md): a
// browser connected to node A watches a tree node B drives and gets its events live and in log
// order, and its list shows the roots B creates; an answer or a message posted on A reaches B,
// which makes it durable once; a client that reconnects with its last seq gets exactly what it
// missed.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "cluster_fixture.hpp"
#include "ws_client.hpp"

namespace parley::test {
namespace {

namespace json = boost::json;
using namespace std::chrono_literals;

constexpr const char* kFinalAnswer = "All done: the worker reported back.";

class LiveAcrossNodes : public ClusterTest {
 protected:
  LiveAcrossNodes() : ClusterTest(2, "slow_team") {}

  std::unique_ptr<ws_client> watch(int node_index, const std::string& dialog_id,
                                   std::optional<std::int64_t> after_seq = std::nullopt,
                                   const std::string& epoch = "") {
    auto ws = std::make_unique<ws_client>();
    EXPECT_TRUE(ws->connect(node(node_index).port(), ws_client::protocols_with_token(kClusterToken)));
    auto welcome = ws->next();  // sent on connect
    EXPECT_TRUE(welcome && welcome->at("type") == "welcome");
    if (welcome) epoch_ = std::string(welcome->at("epoch").as_string());
    json::object subscribe{{"type", "subscribe"}, {"dialog", json::object{{"selfId", dialog_id}}}};
    if (after_seq) {
      subscribe["afterSeq"] = *after_seq;
      subscribe["epoch"] = epoch;
    }
    ws->send(subscribe);
    return ws;
  }

  // The open question of `dialog_id` as node `node_index` lists it, waited for.
  std::string open_question(int node_index, const std::string& dialog_id) {
    const auto deadline = std::chrono::steady_clock::now() + 20s;
    while (std::chrono::steady_clock::now() < deadline) {
      const auto listed = client(node_index).get("/api/questions");
      const auto body = listed.json();  // kept: the loop walks into it
      if (listed.status == 200) {
        for (const auto& q : body.at("questions").as_array()) {
          if (q.at("dialog").at("selfId") == dialog_id.c_str()) return std::string(q.at("id").as_string());
        }
      }
      std::this_thread::sleep_for(100ms);
    }
    ADD_FAILURE() << "no open question in " << dialog_id;
    return {};
  }

  std::string epoch_;
};

bool says_final_answer(const json::object& packet) {
  return packet.at("type") == "generating_finish_evt" && packet.at("saying") == kFinalAnswer;
}

TEST_F(LiveAcrossNodes, ATreeDrivenOnOneNodeIsLiveOnAnotherAndAnAnswerPostedThereReachesItsOwner) {
  // Node 1 creates and drives the tree; its lead asks the human and hands the task to the worker,
  // whose slow reply keeps the tree held by node 1 while the question is open.
  const auto created = client(1).post("/api/dialogs", json::value{{"content", "task (ask and work)"}});
  ASSERT_EQ(created.status, 201) << created.body;
  const std::string root(created.json().at("dialog").at("id").as_string());
  const std::string question = open_question(1, root);
  ASSERT_FALSE(question.empty());

  // A browser on node 0 watches it.
  auto ws = watch(0, root);
  auto resync = ws->next_of("resync");
  ASSERT_TRUE(resync);

  // The answer is posted on node 0, which does not drive the tree: it keeps it for node 1.
  const auto answered =
      client(0).post("/api/dialogs/" + root + "/answer",
                     json::value{{"questionId", question}, {"content", "go ahead"}, {"msgId", "answer-1"}});
  ASSERT_EQ(answered.status, 202) << answered.body;
  EXPECT_EQ(answered.json().at("forwarded"), true) << answered.body;

  // Node 1 takes it and drives the tree to its end; node 0's subscriber sees all of it, live.
  std::vector<json::object> packets;
  bool finished = false;
  while (!finished) {
    auto packet = ws->next(30s);
    ASSERT_TRUE(packet) << "the final answer never reached node 0's subscriber; " << packets.size() << " packets";
    finished = says_final_answer(*packet);
    packets.push_back(std::move(*packet));
  }
  std::int64_t last_log_seq = 0;
  std::int64_t last_seq = 0;
  bool saw_answer = false;
  for (const auto& packet : packets) {
    if (const auto* seq = packet.if_contains("seq")) {
      EXPECT_EQ(seq->as_int64(), last_seq + 1) << json::serialize(packet);
      last_seq = seq->as_int64();
    }
    if (const auto* log_seq = packet.if_contains("logSeq")) {
      EXPECT_GE(log_seq->as_int64(), last_log_seq) << "out of log order: " << json::serialize(packet);
      last_log_seq = log_seq->as_int64();
    }
    saw_answer = saw_answer || packet.at("type") == "question_answered_evt";
  }
  EXPECT_TRUE(saw_answer);

  // The answer is in the log once, though it was posted to a node that does not drive the tree,
  // and posting it again with its msgId changes nothing.
  const auto again =
      client(0).post("/api/dialogs/" + root + "/answer",
                     json::value{{"questionId", question}, {"content", "go ahead"}, {"msgId", "answer-1"}});
  EXPECT_EQ(again.status, 202) << again.body;
  auto log = open_store();
  ASSERT_TRUE(log);
  auto events = log->read_events(root, 0);
  ASSERT_TRUE(events) << events.err().message;
  int answers = 0;
  for (const auto& ev : *events) answers += ev.is<events::question_answered>() ? 1 : 0;
  EXPECT_EQ(answers, 1);
  EXPECT_EQ(count_of("SELECT count(*) FROM forwarded_inputs"), 0) << "delivered input was not dropped";

  // A client that reconnects with the last seq it saw of the middle of the run gets exactly the
  // packets that followed it.
  const std::size_t middle = packets.size() / 2;
  const std::int64_t after = packets[middle].at("seq").as_int64();
  auto resumed = watch(0, root, after, epoch_);
  for (std::size_t i = middle + 1; i < packets.size(); ++i) {
    auto packet = resumed->next(10s);
    ASSERT_TRUE(packet) << "replay stopped before packet " << i;
    EXPECT_EQ(json::serialize(*packet), json::serialize(packets[i]));
  }
}

TEST_F(LiveAcrossNodes, AMessagePostedOnANodeThatDoesNotDriveTheTreeIsDrivenByTheOneThatDoes) {
  // A browser on node 0 shows the list of dialogs.
  auto lists = std::make_unique<ws_client>();
  ASSERT_TRUE(lists->connect(node(0).port(), ws_client::protocols_with_token(kClusterToken)));
  ASSERT_TRUE(lists->next_of("welcome"));
  const auto created = client(1).post("/api/dialogs", json::value{{"content", "task"}});
  ASSERT_EQ(created.status, 201) << created.body;
  const std::string root(created.json().at("dialog").at("id").as_string());
  // The root node 1 created is listed on node 0 as it comes.
  bool listed = false;
  while (!listed) {
    auto packet = lists->next_of("dialog_list_evt", 20s);
    ASSERT_TRUE(packet) << "node 0's list never showed the root node 1 created";
    listed = packet->at("dialog").at("id") == root.c_str();
  }
  // Node 1 holds the tree while the worker's slow reply streams.
  const auto posted = client(0).post("/api/dialogs/" + root + "/messages", json::value{{"content", "one more thing"}});
  ASSERT_EQ(posted.status, 202) << posted.body;
  EXPECT_EQ(posted.json().at("forwarded"), true) << posted.body;
  auto log = open_store();
  ASSERT_TRUE(log);
  // Node 1 makes it durable once, with the msgId node 0 gave it.
  const std::string msg_id(posted.json().at("msgId").as_string());
  const auto deadline = std::chrono::steady_clock::now() + 30s;
  std::optional<input_record> found;
  while (!found && std::chrono::steady_clock::now() < deadline) {
    auto input = log->find_input(msg_id);
    ASSERT_TRUE(input) << input.err().message;
    found = *input;
    if (!found) std::this_thread::sleep_for(100ms);
  }
  ASSERT_TRUE(found) << "the forwarded message never reached the log";
  EXPECT_EQ(found->dialog_id, root);
  EXPECT_EQ(found->content, "one more thing");
  auto events = log->read_events(root, 0);
  ASSERT_TRUE(events) << events.err().message;
  int messages = 0;
  for (const auto& ev : *events) {
    const auto* message = ev.as<events::user_message>();
    messages += message != nullptr && message->content == "one more thing" ? 1 : 0;
  }
  EXPECT_EQ(messages, 1);
}

}  // namespace
}  // namespace parley::test

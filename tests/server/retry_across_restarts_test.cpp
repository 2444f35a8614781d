// Retries that never duplicate, across restarts (issue 19, item 5). A create, a post and an answer
// are sent and the server is killed (SIGKILL) once the log holds them, before the client read any
// reply — the moment a client is left not knowing whether its write was taken. The retry, sent to
// a new server on the same data directory, returns the first result (the same dialog id or
// message id, 2xx); the same msgId with another body is refused with 409 naming msgId; and the
// stored log holds each input once, which `parley check` confirms.
#include <signal.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <boost/json/serialize.hpp>

#include <filesystem>
#include <fstream>

#include "parley/engine/integrity.hpp"
#include "parley/store/store.hpp"
#include "rest_fixture.hpp"
#include "support/fake_http_server.hpp"
#include "ws_client.hpp"

namespace parley::test {
namespace {

namespace json = boost::json;

class retry_across_restarts : public RestTest {
 protected:
  // Writes a request and never reads its reply: the client that lost it. The connection stays
  // open until the server dies, so nothing on the client's side tells the server to give up.
  void send_without_reading(const std::string& target, const json::value& body) {
    auto& socket = unread_.emplace_back(io_);
    socket.connect({boost::asio::ip::make_address("127.0.0.1"), server_->port()});
    const std::string text = json::serialize(body);
    const std::string request = "POST " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(server_->port()) +
                                "\r\nAuthorization: Bearer " + server_->token() +
                                "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(text.size()) +
                                "\r\n\r\n" + text;
    boost::asio::write(socket, boost::asio::buffer(request));
  }

  void kill_and_restart() {
    EXPECT_EQ(server_->terminate(SIGKILL), -1);  // died of the signal
    unread_.clear();
    server_ = std::make_unique<server_process>(
        std::vector<std::string>{"--team", (team_dir_ / "team.yaml").string(), "--data", data_dir().string()});
    ASSERT_TRUE(server_->started()) << server_->output();
  }

  // Stops the server; `parley check` must find nothing wrong with the log it leaves.
  void stop_and_check() {
    EXPECT_EQ(server_->terminate(), 0) << server_->output();
    auto log = open_sqlite_store(data_dir().string());
    ASSERT_TRUE(log) << log.err().message;
    auto report = engine::check_integrity(**log);
    ASSERT_TRUE(report) << report.err().message;
    EXPECT_TRUE(report->problems.empty()) << report->problems.front();
  }

  // The user messages, answers and messages to flows the stored log holds with `msg_id` (the
  // server stopped).
  int stored_inputs_with(const std::string& msg_id) const {
    auto log = open_sqlite_store(data_dir().string());
    EXPECT_TRUE(log) << log.err().message;
    if (!log) return -1;
    auto events = (*log)->read_all_events();
    EXPECT_TRUE(events) << events.err().message;
    if (!events) return -1;
    int count = 0;
    for (const auto& ev : *events) {
      const auto* message = ev.as<events::user_message>();
      const auto* answer = ev.as<events::question_answered>();
      const auto* flow = flow_input_of(ev);
      count += (message != nullptr && message->msg_id == msg_id) || (answer != nullptr && answer->msg_id == msg_id) ||
               (flow != nullptr && flow->msg_id == msg_id);
    }
    return count;
  }

  // The stored projection counts the question answered (the engine lists it as closed as soon as
  // the answer is staged, the store once its commit is durable).
  bool answer_stored(const std::string& sub) const {
    const auto body = dialog(sub);
    return body.is_object() && body.at("dialog").at("openQuestions") == 0;
  }

  // The root delegates the trip; its clerk's question is open and stored. {root, sub, question}.
  std::array<std::string, 3> open_question() {
    const auto root = create_dialog("delegate the trip");
    EXPECT_TRUE(
        eventually([&] { return client().get("/api/questions").json().at("questions").as_array().size() == 1; }));
    const auto questions = client().get("/api/questions").json().at("questions").as_array();
    if (questions.empty()) return {root, "", ""};
    const std::string sub(questions[0].at("dialog").at("selfId").as_string());
    EXPECT_TRUE(eventually([&] { return dialog(sub).at("dialog").at("openQuestions") == 1; }));
    return {root, sub, std::string(questions[0].at("id").as_string())};
  }

  // The media team (tests/server/teams/media) with its captioner on `captioner`, an
  // OpenAI-compatible fake whose answers a test scripts: a caption can be made to take forever.
  void start_media_with_captioner(const parley::testing::fake_http_server& captioner) {
    team_dir_ = root_ / "media";
    std::filesystem::copy(std::filesystem::path(PARLEY_SOURCE_DIR) / "tests/server/teams/media", team_dir_,
                          std::filesystem::copy_options::recursive);
    std::ofstream(team_dir_ / "team.yaml")
        << "version: 1\ndefault_member: lead\nworkspace: workspace\nmedia: {captioner: seer}\nproviders:\n"
           "  offline: {kind: scripted, script: script.yaml}\n"
           "  fake: {kind: openai, base_url: \""
        << captioner.base_url()
        << "/v1\", api_key_env: PARLEY_TEST_NO_KEY}\nmembers:\n"
           "  lead: {name: Lead, persona: You lead., provider: offline, model: scripted}\n"
           "  seer: {name: Seer, persona: You see., provider: fake, model: m, vision: true}\n";
    server_ = std::make_unique<server_process>(
        std::vector<std::string>{"--team", (team_dir_ / "team.yaml").string(), "--data", data_dir().string()});
    ASSERT_TRUE(server_->started()) << server_->output();
  }

  // The example team of examples/flows (article_writer, a flow member) on its scripted model, each
  // character of an answer `delay_ms` apart: slow enough that a step is still running when the
  // server is killed, or (0) as fast as it goes.
  void write_flow_team(int delay_ms) {
    if (team_dir_.empty()) {
      team_dir_ = root_ / "flows";
      std::filesystem::copy(std::filesystem::path(PARLEY_SOURCE_DIR) / "examples/flows", team_dir_,
                            std::filesystem::copy_options::recursive);
    }
    const auto script = team_dir_ / "article_creation" / "script.yaml";
    std::ifstream in(script);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    text = text.substr(text.find("members:"));
    std::ofstream(script) << (delay_ms > 0 ? "chunk_size: 1\ndelay_ms: " + std::to_string(delay_ms) + "\n"
                                           : std::string("chunk_size: 16\n"))
                          << text;
  }

  void start_flows(int delay_ms) {
    write_flow_team(delay_ms);
    server_ = std::make_unique<server_process>(
        std::vector<std::string>{"--team", (team_dir_ / "team.yaml").string(), "--data", data_dir().string()});
    ASSERT_TRUE(server_->started()) << server_->output();
  }

  // A flow started (fast) and waiting for the user's answer, on a server restarted with a model
  // slow enough that the next step is still running when the server is killed. Its dialog id.
  std::string flow_waiting_on_a_slow_model() {
    start_flows(0);
    const auto created =
        client().post("/api/dialogs", json::value{{"memberId", "article_writer"}, {"content", "Write me an article"}});
    EXPECT_EQ(created.status, 201) << created.body;
    if (created.status != 201) return {};
    const auto id = dialog_id_of(created);
    write_flow_team(200);
    restart();
    return id;
  }

  // The flow's main thread as the log holds it.
  json::array thread_messages(const std::string& id) const {
    const auto body = client().get("/api/dialogs/" + id + "/thread").json();
    if (!body.is_object()) return {};
    return body.at("thread").at("messages").as_array();
  }

  static std::int64_t user_turns(const json::array& messages) {
    std::int64_t count = 0;
    for (const auto& m : messages) count += m.at("sender") == "user" ? 1 : 0;
    return count;
  }

  std::string upload_png() {
    const std::string png = std::string("\x89PNG\r\n\x1a\n", 8) + std::string(600, 'p');
    const auto reply = client().request("POST", "/api/uploads", png, {{"Content-Type", "image/png"}});
    EXPECT_EQ(reply.status, 201) << reply.body;
    return reply.status == 201 ? std::string(reply.json().at("upload").at("id").as_string()) : std::string{};
  }

  boost::asio::io_context io_;
  std::vector<boost::asio::ip::tcp::socket> unread_;
};
using RetryAcrossRestarts = retry_across_restarts;

TEST_F(RetryAcrossRestarts, ACreateKilledBeforeItsReplyReturnsTheFirstDialogWhenRetried) {
  start("q4h");
  const json::value body{{"content", "hello"}, {"msgId", "create-1"}};
  send_without_reading("/api/dialogs", body);
  ASSERT_TRUE(eventually([&] { return client().get("/api/dialogs").json().at("total") == 1; }));
  const std::string first(client().get("/api/dialogs").json().at("dialogs").at(0).at("id").as_string());
  kill_and_restart();

  const auto retried = client().post("/api/dialogs", body);
  ASSERT_EQ(retried.status, 201) << retried.body;
  EXPECT_EQ(dialog_id_of(retried), first);
  // The same key in the Idempotency-Key header, for a client that sends no msgId, is the same id.
  const auto keyed =
      client().request("POST", "/api/dialogs", R"({"content":"hello"})", {{"Idempotency-Key", "create-1"}});
  ASSERT_EQ(keyed.status, 201) << keyed.body;
  EXPECT_EQ(dialog_id_of(keyed), first);

  const auto changed = client().post("/api/dialogs", json::value{{"content", "hello there"}, {"msgId", "create-1"}});
  EXPECT_EQ(changed.status, 409) << changed.body;
  EXPECT_EQ(message_of(changed).rfind("msgId: 'create-1' ", 0), 0U) << changed.body;

  EXPECT_EQ(client().get("/api/dialogs").json().at("total"), 1);
  ASSERT_TRUE(eventually_says(first, "ok: hello"));
  EXPECT_EQ(user_messages(messages(first)), 1);
  stop_and_check();
  EXPECT_EQ(stored_inputs_with("create-1"), 1);
}

// A create with an image is one commit too: the server is killed while the captioner describes the
// image — after the upload was taken, before anything of the dialog is durable — and the retry
// makes the dialog once, with its message and caption.
TEST_F(RetryAcrossRestarts, ACreateWithAnAttachmentKilledWhileItIsDescribedMakesOneDialogWhenRetried) {
  parley::testing::fake_http_server captioner;
  captioner.push(parley::testing::fake_response::sse({": describing\n\n"}, parley::testing::fake_ending::never_end));
  // A description is asked for without streaming: the answer is one JSON body.
  captioner.push(parley::testing::fake_response::json(
      R"({"id":"c1","choices":[{"index":0,"message":{"role":"assistant","content":"a red square"},)"
      R"("finish_reason":"stop"}]})"));
  start_media_with_captioner(captioner);
  const auto upload = upload_png();
  ASSERT_FALSE(upload.empty());
  const json::value body{
      {"content", "what is this?"}, {"msgId", "create-media-1"}, {"attachment", json::object{{"uploadId", upload}}}};
  send_without_reading("/api/dialogs", body);
  ASSERT_TRUE(eventually([&] { return captioner.requests().size() == 1; }));
  kill_and_restart();

  const auto retried = client().post("/api/dialogs", body);
  ASSERT_EQ(retried.status, 201) << retried.body;
  const auto id = dialog_id_of(retried);
  const auto again = client().post("/api/dialogs", body);
  ASSERT_EQ(again.status, 201) << again.body;
  EXPECT_EQ(dialog_id_of(again), id);
  EXPECT_EQ(client().get("/api/dialogs").json().at("total"), 1);
  ASSERT_TRUE(eventually_says(id, "lead heard: [image (png, 1 KB)] a red square\nwhat is this?"))
      << json::serialize(messages(id));
  EXPECT_EQ(user_messages(messages(id)), 1);
  EXPECT_EQ(captioner.requests().size(), 2U);  // the cut description, and the retry's
  stop_and_check();
  EXPECT_EQ(stored_inputs_with("create-media-1"), 1);
}

// A flow (seed 004) records the client's msgId with the message that starts it: a create killed
// while the flow's first step runs, retried after the restart, runs what was left of that step and
// answers with the same dialog — never a second one, never the message twice.
TEST_F(RetryAcrossRestarts, AFlowCreateKilledWhileItsStepRunsReturnsTheFirstDialogWhenRetried) {
  start_flows(200);
  const json::value body{{"memberId", "article_writer"}, {"content", "Write me an article"}, {"msgId", "flow-1"}};
  send_without_reading("/api/dialogs", body);
  ASSERT_TRUE(eventually([&] { return client().get("/api/dialogs").json().at("total") == 1; }));
  const std::string first(client().get("/api/dialogs").json().at("dialogs").at(0).at("id").as_string());
  write_flow_team(0);
  kill_and_restart();

  const auto retried = client().post("/api/dialogs", body);
  ASSERT_EQ(retried.status, 201) << retried.body;
  EXPECT_EQ(dialog_id_of(retried), first);
  const auto reply = retried.json();  // kept: `thread` refers into it
  const auto& thread = reply.at("flow").at("thread");
  ASSERT_EQ(thread.at("messages").as_array().size(), 2U) << retried.body;  // the message and the flow's question
  EXPECT_EQ(thread.at("messages").at(1).at("text"), "What topic should the article cover, and who will read it?");
  const auto again = client().post("/api/dialogs", body);
  ASSERT_EQ(again.status, 201) << again.body;
  EXPECT_EQ(dialog_id_of(again), first);
  const auto changed = client().post(
      "/api/dialogs", json::value{{"memberId", "article_writer"}, {"content", "Write a poem"}, {"msgId", "flow-1"}});
  EXPECT_EQ(changed.status, 409) << changed.body;
  EXPECT_EQ(message_of(changed).rfind("msgId: 'flow-1' ", 0), 0U) << changed.body;

  EXPECT_EQ(client().get("/api/dialogs").json().at("total"), 1);
  EXPECT_EQ(thread_messages(first).size(), 2U);
  stop_and_check();
  EXPECT_EQ(stored_inputs_with("flow-1"), 1);
}

// The same for a message posted to a waiting flow: killed while the step it started runs, the
// retry finishes that step and answers with the thread; the message is in it once.
TEST_F(RetryAcrossRestarts, AFlowPostKilledWhileItsStepRunsIsTakenOnceWhenRetried) {
  const auto id = flow_waiting_on_a_slow_model();
  ASSERT_FALSE(id.empty());
  const std::string target = "/api/dialogs/" + id + "/messages";
  const json::value body{{"content", "Tea, for beginners"}, {"msgId", "flow-post-1"}};
  send_without_reading(target, body);
  ASSERT_TRUE(eventually([&] { return user_turns(thread_messages(id)) == 2; }));
  write_flow_team(0);
  kill_and_restart();

  const auto retried = client().post(target, body);
  ASSERT_EQ(retried.status, 200) << retried.body;
  EXPECT_EQ(retried.json().at("msgId"), "flow-post-1");
  EXPECT_EQ(retried.json().at("flow").at("completed"), true) << retried.body;
  const auto messages = thread_messages(id);
  ASSERT_EQ(messages.size(), 5U);
  EXPECT_EQ(user_turns(messages), 2);
  EXPECT_EQ(messages[4].at("text"), "Tea for beginners. Tea matters because ... (the article)");
  // In the running process: the same answer, nothing appended.
  const auto again = client().post(target, body);
  ASSERT_EQ(again.status, 200) << again.body;
  EXPECT_EQ(again.json().at("flow").at("thread").at("messages").as_array().size(), 5U);
  const auto changed = client().post(target, json::value{{"content", "Coffee"}, {"msgId", "flow-post-1"}});
  EXPECT_EQ(changed.status, 409) << changed.body;
  EXPECT_EQ(message_of(changed).rfind("msgId: 'flow-post-1' ", 0), 0U) << changed.body;

  EXPECT_EQ(thread_messages(id).size(), 5U);
  stop_and_check();
  EXPECT_EQ(stored_inputs_with("flow-post-1"), 1);
}

TEST_F(RetryAcrossRestarts, APostKilledBeforeItsReplyIsTakenOnceWhenRetried) {
  start("q4h");
  const auto id = create_dialog("first");
  ASSERT_TRUE(eventually_says(id, "ok: first"));
  const json::value body{{"content", "second"}, {"msgId", "post-1"}};
  send_without_reading("/api/dialogs/" + id + "/messages", body);
  ASSERT_TRUE(eventually([&] { return user_messages(messages(id)) == 2; }));
  kill_and_restart();

  const auto retried = client().post("/api/dialogs/" + id + "/messages", body);
  ASSERT_EQ(retried.status, 202) << retried.body;
  EXPECT_EQ(retried.json().at("msgId"), "post-1");
  const auto changed =
      client().post("/api/dialogs/" + id + "/messages", json::value{{"content", "third"}, {"msgId", "post-1"}});
  EXPECT_EQ(changed.status, 409) << changed.body;
  EXPECT_EQ(message_of(changed).rfind("msgId: 'post-1' ", 0), 0U) << changed.body;

  ASSERT_TRUE(eventually_says(id, "ok: second"));  // the restart drove what the kill interrupted
  EXPECT_TRUE(eventually([&] { return settled(id); }));
  EXPECT_EQ(user_messages(messages(id)), 2);
  stop_and_check();
  EXPECT_EQ(stored_inputs_with("post-1"), 1);
}

TEST_F(RetryAcrossRestarts, AnAnswerIsIdempotentInTheProcessAndAfterAKill) {
  start("q4h");
  const auto opened = open_question();
  const std::string& root = opened[0];
  const std::string& sub = opened[1];
  const std::string& question = opened[2];
  ASSERT_FALSE(question.empty());
  const std::string target = "/api/dialogs/" + sub + "/answer";
  const json::value body{{"questionId", question}, {"content", "Friday"}, {"msgId", "answer-1"}};
  send_without_reading(target, body);
  ASSERT_TRUE(eventually([&] { return answer_stored(sub); }));

  // In the running process: the question is closed, and the retry is the first answer's result.
  const auto again = client().post(target, body);
  ASSERT_EQ(again.status, 202) << again.body;
  EXPECT_EQ(again.json().at("msgId"), "answer-1");
  kill_and_restart();

  const auto retried = client().post(target, body);
  ASSERT_EQ(retried.status, 202) << retried.body;
  EXPECT_EQ(retried.json().at("msgId"), "answer-1");
  const auto changed =
      client().post(target, json::value{{"questionId", question}, {"content", "Monday"}, {"msgId", "answer-1"}});
  EXPECT_EQ(changed.status, 409) << changed.body;
  EXPECT_EQ(message_of(changed).rfind("msgId: 'answer-1' ", 0), 0U) << changed.body;
  // Another id for the answered question is still refused: it was answered once.
  const auto another =
      client().post(target, json::value{{"questionId", question}, {"content", "Friday"}, {"msgId", "answer-2"}});
  EXPECT_EQ(another.status, 409) << another.body;

  EXPECT_TRUE(eventually_says(root, "Trip booked: 【最终完成】\nbooked for Friday"));
  stop_and_check();
  EXPECT_EQ(stored_inputs_with("answer-1"), 1);
}

// The WebSocket's inputs: the packets a browser resends after a reconnect to a restarted server.
TEST_F(RetryAcrossRestarts, WebSocketAnswersAndMessagesResentAfterAKillAreAcknowledgedOnce) {
  start("q4h");
  const auto opened = open_question();
  const std::string& root = opened[0];
  const std::string& sub = opened[1];
  const std::string& question = opened[2];
  ASSERT_FALSE(question.empty());
  json::object answer{{"type", "drive_dialog_by_user_answer"},
                      {"dialog", json::object{{"selfId", sub}}},
                      {"content", "Friday"},
                      {"msgId", "ws-answer-1"},
                      {"questionId", question},
                      {"continuationType", "answer"}};
  {
    ws_client first;
    ASSERT_TRUE(first.connect(server_->port(), ws_client::protocols_with_token(server_->token())));
    first.send(answer);
    ASSERT_TRUE(eventually([&] { return answer_stored(sub); }));
  }
  kill_and_restart();

  ws_client live;
  ASSERT_TRUE(live.connect(server_->port(), ws_client::protocols_with_token(server_->token())));
  live.send(answer);
  const auto acked = live.next_of("ack");
  ASSERT_TRUE(acked);
  EXPECT_EQ(acked->at("ref"), "ws-answer-1");
  answer["content"] = "Monday";
  live.send(answer);
  const auto refused = live.next_of("error");
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->at("ref"), "ws-answer-1");
  EXPECT_EQ(refused->at("message").as_string().subview().substr(0, 20), "msgId: 'ws-answer-1'");
  ASSERT_TRUE(eventually_says(root, "Trip booked: 【最终完成】\nbooked for Friday"));

  const json::object message{{"type", "drive_dlg_by_user_msg"},
                             {"dialog", json::object{{"selfId", root}}},
                             {"content", "and then?"},
                             {"msgId", "ws-message-1"}};
  live.send(message);
  ASSERT_TRUE(live.next_of("ack"));
  ASSERT_TRUE(eventually([&] { return user_messages(messages(root)) == 2; }));
  live.drop();
  kill_and_restart();

  ws_client after;
  ASSERT_TRUE(after.connect(server_->port(), ws_client::protocols_with_token(server_->token())));
  after.send(message);
  const auto message_acked = after.next_of("ack");
  ASSERT_TRUE(message_acked);
  EXPECT_EQ(message_acked->at("ref"), "ws-message-1");
  ASSERT_TRUE(eventually_says(root, "ok: and then?"));
  EXPECT_TRUE(eventually([&] { return settled(root); }));
  EXPECT_EQ(user_messages(messages(root)), 2);
  after.drop();
  stop_and_check();
  EXPECT_EQ(stored_inputs_with("ws-answer-1"), 1);
  EXPECT_EQ(stored_inputs_with("ws-message-1"), 1);
}

// A flow step cut by a crash is run to its end by the next server at start-up, as it re-drives
// the engine's dialogs — nobody has to retry for the flow to finish — and the message is in its
// thread once.
TEST_F(RetryAcrossRestarts, AFlowStepCutByACrashIsFinishedByTheNextServerWithoutARetry) {
  const auto id = flow_waiting_on_a_slow_model();
  ASSERT_FALSE(id.empty());
  send_without_reading("/api/dialogs/" + id + "/messages",
                       json::value{{"content", "Tea, for beginners"}, {"msgId", "cut-1"}});
  ASSERT_TRUE(eventually([&] { return user_turns(thread_messages(id)) == 2; }));
  write_flow_team(0);
  kill_and_restart();

  ASSERT_TRUE(eventually([&] { return thread_messages(id).size() == 5; })) << server_->output();
  // Said when the resumed step has run to its end, which may come just after its message is stored.
  EXPECT_TRUE(eventually([&] {
    return server_->output().find("parley: resumed 1 flow from the log") != std::string::npos;
  })) << server_->output();
  const auto messages = thread_messages(id);
  EXPECT_EQ(user_turns(messages), 2);
  EXPECT_EQ(messages[4].at("text"), "Tea for beginners. Tea matters because ... (the article)");
  EXPECT_EQ(dialog(id).at("dialog").at("status"), "completed");
  stop_and_check();
  EXPECT_EQ(stored_inputs_with("cut-1"), 1);
}

}  // namespace
}  // namespace parley::test

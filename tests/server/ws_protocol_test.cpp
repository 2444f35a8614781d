// Black-box tests of the PubChan: the real `parley serve` on a free port, a Beast WebSocket client,
// the WebSocket test team (tests/server/ws_teams). Every wait has a deadline.
#include <gtest/gtest.h>

#include <boost/json/serialize.hpp>

#include <csignal>
#include <filesystem>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "rest_client.hpp"
#include "server_process.hpp"
#include "ws_client.hpp"

namespace parley::test {
namespace {

namespace json = boost::json;
using namespace std::chrono_literals;

class WsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device device;
    root_ = std::filesystem::temp_directory_path() / ("parley-ws-" + std::to_string(device()));
    std::filesystem::create_directories(root_);
    std::filesystem::copy(std::filesystem::path(PARLEY_SOURCE_DIR) / "tests/server/ws_teams", root_ / "team",
                          std::filesystem::copy_options::recursive);
  }
  void TearDown() override {
    server_.reset();
    std::error_code ec;
    std::filesystem::remove_all(root_, ec);
  }

  void start(std::vector<std::string> extra = {}) {
    std::vector<std::string> args{"--team", (root_ / "team/team.yaml").string(), "--data", (root_ / "data").string()};
    args.insert(args.end(), extra.begin(), extra.end());
    server_ = std::make_unique<server_process>(args);
    ASSERT_TRUE(server_->started()) << server_->output();
  }

  std::unique_ptr<ws_client> connect() {
    auto client = std::make_unique<ws_client>();
    EXPECT_TRUE(client->connect(server_->port(), ws_client::protocols_with_token(server_->token())));
    auto welcome = client->next();
    EXPECT_TRUE(welcome && welcome->at("type") == "welcome");
    if (welcome) epoch_ = std::string(welcome->at("epoch").as_string());
    return client;
  }

  rest_client rest() const { return rest_client(server_->port(), server_->token()); }

  bool settled(const std::string& id) const {
    const auto body = rest().get("/api/dialogs/" + id).json();
    if (!body.is_object()) return false;
    const auto& summary = body.at("dialog");
    return !summary.at("generating").as_bool() && !summary.at("needsDrive").as_bool();
  }

  // A root dialog that has answered "hello" and is idle, so a test sees its next drive whole.
  std::string idle_dialog() {
    const auto reply = rest().post("/api/dialogs", json::value{{"content", "hello"}});
    EXPECT_EQ(reply.status, 201) << reply.body;
    const std::string id(reply.json().at("dialog").at("id").as_string());
    const auto deadline = std::chrono::steady_clock::now() + 20s;
    while (!settled(id) && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(10ms);
    EXPECT_TRUE(settled(id));
    return id;
  }

  static json::object subscribe(const std::string& id) {
    return json::object{{"type", "subscribe"}, {"dialog", json::object{{"selfId", id}}}};
  }
  static json::object say(const std::string& id, const std::string& text, const std::string& msg_id) {
    return json::object{{"type", "drive_dlg_by_user_msg"},
                        {"dialog", json::object{{"selfId", id}}},
                        {"content", text},
                        {"msgId", msg_id}};
  }

  // Packets of `id`'s channel until `last` returns true for one (included); acks and globals skipped.
  static std::vector<json::object> collect(ws_client& client, const std::string& id,
                                           const std::function<bool(const json::object&)>& last) {
    std::vector<json::object> out;
    const auto deadline = std::chrono::steady_clock::now() + 30s;
    while (std::chrono::steady_clock::now() < deadline) {
      auto packet = client.next(5s);
      if (!packet) break;
      const auto* dialog = packet->if_contains("dialog");
      if (!packet->contains("seq") || dialog == nullptr || !dialog->is_object() ||
          dialog->at("selfId").as_string() != id) {
        continue;
      }
      out.push_back(*packet);
      if (last(out.back())) break;
    }
    return out;
  }

  static bool is_final_saying(const json::object& p, std::string_view saying) {
    return p.at("type") == "generating_finish_evt" && p.at("saying").as_string() == saying;
  }

  std::filesystem::path root_;
  std::unique_ptr<server_process> server_;
  std::string epoch_;
};

TEST_F(WsTest, WelcomesOnConnectAndAnswersHello) {
  start();
  ws_client client;
  ASSERT_TRUE(client.connect(server_->port(), ws_client::protocols_with_token(server_->token())));
  EXPECT_EQ(client.accepted_protocol(), "parley.v1");
  auto welcome = client.next();
  ASSERT_TRUE(welcome);
  EXPECT_EQ(welcome->at("type"), "welcome");
  EXPECT_EQ(welcome->at("protocol"), 1);
  EXPECT_TRUE(welcome->at("epoch").is_string());
  EXPECT_EQ(welcome->at("scriptedOffline"), true);
  client.send(json::object{{"type", "hello"}, {"protocol", 1}});
  auto again = client.next();
  ASSERT_TRUE(again);
  EXPECT_EQ(again->at("type"), "welcome");
  EXPECT_EQ(again->at("epoch"), welcome->at("epoch"));
}

TEST_F(WsTest, StreamsAScriptedDialogInOrderWithSeqStrictlyPlusOne) {
  start();
  const auto id = idle_dialog();
  auto client = connect();
  client->send(subscribe(id));
  auto resync = client->next();
  ASSERT_TRUE(resync);
  ASSERT_EQ(resync->at("type"), "resync") << json::serialize(*resync);
  std::int64_t seq = resync->at("seq").as_int64();

  client->send(say(id, "stream please", "m-1"));
  const auto packets = collect(
      *client, id, [](const json::object& p) { return is_final_saying(p, "The answer is five, computed with care."); });
  ASSERT_FALSE(packets.empty());
  std::vector<std::string> types;
  std::string thinking;
  std::string saying;
  for (const auto& p : packets) {
    EXPECT_EQ(p.at("seq").as_int64(), ++seq) << json::serialize(p);
    EXPECT_EQ(p.at("dialog").at("rootId"), id.c_str());
    types.emplace_back(p.at("type").as_string());
    if (p.at("type") == "thinking_chunk_evt") thinking += p.at("content").as_string();
    if (p.at("type") == "saying_chunk_evt") saying += p.at("content").as_string();
  }
  EXPECT_EQ(thinking, "Let me add these numbers.");
  EXPECT_EQ(saying, "The answer is five, computed with care.");
  // The first round: the user's message, thinking streamed, the tool call and its result.
  const std::vector<std::string> first = {"user_message_evt", "generating_start_evt", "thinking_start_evt",
                                          "thinking_chunk_evt"};
  ASSERT_GE(types.size(), first.size());
  EXPECT_TRUE(std::equal(first.begin(), first.end(), types.begin()));
  const auto index = [&](std::string_view type) { return std::find(types.begin(), types.end(), type) - types.begin(); };
  EXPECT_LT(index("thinking_finish_evt"), index("generating_finish_evt"));
  EXPECT_LT(index("generating_finish_evt"), index("tool_call_evt"));
  EXPECT_LT(index("tool_call_evt"), index("tool_result_evt"));
  EXPECT_LT(index("tool_result_evt"), index("saying_start_evt"));
  EXPECT_LT(index("saying_start_evt"), index("saying_chunk_evt"));
  EXPECT_LT(index("saying_chunk_evt"), index("saying_finish_evt"));
  EXPECT_EQ(types.back(), "generating_finish_evt");
  for (const auto& p : packets) {
    if (p.at("type") == "tool_call_evt") {
      EXPECT_EQ(p.at("name"), "calculate");
    }
    if (p.at("type") == "user_message_evt") {
      EXPECT_TRUE(p.contains("logSeq"));
    }
  }
  auto state = client->next_of("dialog_state_evt");
  ASSERT_TRUE(state);
  EXPECT_EQ(state->at("state").at("generating"), false);
}

TEST_F(WsTest, AcksInputOnceDurable) {
  start();
  const auto id = idle_dialog();
  auto client = connect();
  client->send(say(id, "hello again", "m-42"));
  auto ack = client->next_of("ack");
  ASSERT_TRUE(ack);
  EXPECT_EQ(ack->at("ref"), "m-42");
  EXPECT_EQ(ack->at("ok"), true);
}

TEST_F(WsTest, SubdialogQuestionsAndAnAnswerCompleteTheRoot) {
  start();
  const auto id = idle_dialog();
  auto client = connect();
  client->send(subscribe(id));
  client->send(say(id, "delegate it", "m-2"));
  auto created = client->next_of("subdialog_created_evt");
  ASSERT_TRUE(created);
  EXPECT_EQ(created->at("dialog").at("selfId"), id.c_str());
  EXPECT_EQ(created->at("subdialog").at("parentId"), id.c_str());
  const std::string sub(created->at("subdialog").at("id").as_string());
  auto count = client->next_of("questions_count_update");
  ASSERT_TRUE(count);
  EXPECT_EQ(count->at("dialog").at("selfId"), sub.c_str());
  EXPECT_EQ(count->at("previousCount"), 0);
  EXPECT_EQ(count->at("questionCount"), 1);

  const auto questions = rest().get("/api/questions").json();
  ASSERT_TRUE(questions.is_object()) << rest().get("/api/questions").body;
  ASSERT_EQ(questions.at("questions").as_array().size(), 1u);
  const std::string question(questions.at("questions").at(0).at("id").as_string());

  auto answer = json::object{{"type", "drive_dialog_by_user_answer"},
                             {"dialog", json::object{{"selfId", sub}}},
                             {"content", "blue"},
                             {"msgId", "a-1"},
                             {"questionId", "q-nope"},
                             {"continuationType", "answer"}};
  client->send(answer);
  auto refused = client->next_of("error");
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->at("ref"), "a-1");
  EXPECT_EQ(refused->at("message").as_string().subview().substr(0, 36), "questionId: no open question q-nope ");

  answer["questionId"] = question;
  client->send(answer);
  auto ack = client->next_of("ack");
  ASSERT_TRUE(ack);
  EXPECT_EQ(ack->at("ref"), "a-1");
  const auto rest_of_root = collect(*client, id, [](const json::object& p) { return is_final_saying(p, "all done"); });
  ASSERT_FALSE(rest_of_root.empty());
  EXPECT_TRUE(is_final_saying(rest_of_root.back(), "all done"));
  bool result_seen = false;
  for (const auto& p : rest_of_root) result_seen = result_seen || p.at("type") == "tellask_result_evt";
  EXPECT_TRUE(result_seen);
}

TEST_F(WsTest, ReconnectWithAfterSeqAndEpochGetsExactlyTheMissedEvents) {
  start();
  const auto id = idle_dialog();
  auto watcher = connect();  // sees everything
  watcher->send(subscribe(id));
  ASSERT_TRUE(watcher->next_of("resync"));
  auto leaver = connect();
  leaver->send(subscribe(id));
  auto resync = leaver->next_of("resync");
  ASSERT_TRUE(resync);

  leaver->send(say(id, "stream please", "m-3"));
  // The leaver reads a few events, then loses its connection.
  const auto seen = collect(*leaver, id, [](const json::object& p) { return p.at("type") == "thinking_chunk_evt"; });
  ASSERT_FALSE(seen.empty());
  const std::int64_t last_seen = seen.back().at("seq").as_int64();
  leaver->drop();

  const auto all = collect(*watcher, id, [](const json::object& p) {
    return is_final_saying(p, "The answer is five, computed with care.");
  });
  ASSERT_FALSE(all.empty());

  auto back = connect();
  auto resubscribe = subscribe(id);
  resubscribe["afterSeq"] = last_seen;
  resubscribe["epoch"] = epoch_;
  back->send(resubscribe);
  const auto replayed = collect(
      *back, id, [](const json::object& p) { return is_final_saying(p, "The answer is five, computed with care."); });
  std::vector<json::object> missed;
  for (const auto& p : all) {
    if (p.at("seq").as_int64() > last_seen) missed.push_back(p);
  }
  ASSERT_EQ(replayed.size(), missed.size());
  for (std::size_t i = 0; i < missed.size(); ++i) EXPECT_EQ(replayed[i], missed[i]) << i;
  EXPECT_NE(replayed.front().at("type"), "resync");

  // Another epoch (a restarted server): resync at the current seq.
  auto stale = connect();
  auto old = subscribe(id);
  old["afterSeq"] = 2;
  old["epoch"] = "0123456789abcdef";
  stale->send(old);
  auto told = stale->next();
  ASSERT_TRUE(told);
  EXPECT_EQ(told->at("type"), "resync");
  EXPECT_GE(told->at("seq").as_int64(), all.back().at("seq").as_int64());
}

TEST_F(WsTest, BadPacketsGetErrorsNamingTheFieldAndTheConnectionStaysOpen) {
  start();
  const auto id = idle_dialog();  // before connecting: what its creation announces is not a reply here
  auto client = connect();
  const auto error_for = [&](std::string_view text) {
    client->send(text);
    auto reply = client->next();
    return reply ? *reply : json::object{{"type", "<nothing>"}};
  };
  auto reply = error_for("this is not json");
  EXPECT_EQ(reply.at("type"), "error");
  EXPECT_EQ(reply.at("code"), "bad_json");

  reply = error_for(R"({"type":"x"})");
  EXPECT_EQ(reply.at("code"), "bad_field");
  EXPECT_EQ(reply.at("message"), "type: unknown packet type 'x'");

  reply = error_for(R"({"type":"subscribe","dialog":{"selfId":7}})");
  EXPECT_EQ(reply.at("message"), "dialog.selfId: expected a string");
  EXPECT_EQ(reply.at("ref"), "subscribe");

  reply = error_for(R"({"type":"drive_dlg_by_user_msg","dialog":{"selfId":"d"},"content":1,"msgId":"m-9"})");
  EXPECT_EQ(reply.at("message"), "content: expected a string");
  EXPECT_EQ(reply.at("ref"), "m-9");

  reply = error_for(R"({"type":"subscribe","dialog":{"selfId":"no-such-dialog"}})");
  EXPECT_EQ(reply.at("code"), "not_found");

  // Past the protocol table, the input is read into a typed packet: a msgId longer than the REST
  // routes take is refused the same way, naming the field.
  reply = error_for(R"({"type":"drive_dlg_by_user_msg","dialog":{"selfId":")" + id + R"("},"content":"x","msgId":")" +
                    std::string(201, 'm') + "\"}");
  EXPECT_EQ(reply.at("code"), "bad_field");
  EXPECT_EQ(reply.at("message"), "msgId: 201 bytes, over the limit of 200");

  const std::string big = R"({"type":"hello","protocol":1,"pad":")" + std::string(70 << 10, 'x') + "\"}";
  reply = error_for(big);
  EXPECT_EQ(reply.at("code"), "too_large");

  reply = error_for(R"({"type":"hello","protocol":1})");
  EXPECT_EQ(reply.at("type"), "welcome");

  client->send(std::string(2 << 20, 'x'));  // over the 1 MiB frame limit
  EXPECT_EQ(client->wait_closed(), 1009);
}

TEST_F(WsTest, AWrongTokenIsAcceptedThenClosedWith4401) {
  start({"--token", "sesame"});
  ws_client wrong;
  ASSERT_TRUE(wrong.connect(server_->port(), "parley.v1, parley-token.nope"));
  EXPECT_EQ(wrong.accepted_protocol(), "parley.v1");
  EXPECT_EQ(wrong.wait_closed(), 4401);

  ws_client missing;
  ASSERT_TRUE(missing.connect(server_->port(), "parley.v1"));
  EXPECT_EQ(missing.wait_closed(), 4401);

  ws_client by_protocol;
  ASSERT_TRUE(by_protocol.connect(server_->port(), "parley.v1, parley-token.sesame"));
  auto welcome = by_protocol.next();
  ASSERT_TRUE(welcome);
  EXPECT_EQ(welcome->at("type"), "welcome");

  ws_client by_header;
  ASSERT_TRUE(by_header.connect(server_->port(), "parley.v1", "Bearer sesame"));
  welcome = by_header.next();
  ASSERT_TRUE(welcome);
  EXPECT_EQ(welcome->at("type"), "welcome");
}

TEST_F(WsTest, ShutdownClosesEverySocketWith1001) {
  start();
  auto client = connect();
  ::kill(server_->pid(), SIGTERM);  // the exit is awaited below, after the close
  EXPECT_EQ(client->wait_closed(), 1001);
  EXPECT_EQ(server_->exit_status_within(30s), 0);
}

}  // namespace
}  // namespace parley::test

// Black-box: the OpenAI-compatible endpoint answers (docs/server.md, "OpenAI-compatible
// endpoint"). The q4h team's lead answers "ok: <the user message>"; "delegate" sends the clerk a
// Tellask, and the clerk asks the human which day.
#include <gtest/gtest.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/write.hpp>

#include "openai_fixture.hpp"

namespace parley::test {
namespace {

namespace json = boost::json;

TEST_F(OpenAiTest, ModelsListEveryMember) {
  start("q4h");
  const auto reply = client().get("/v1/models");
  ASSERT_EQ(reply.status, 200) << reply.body;
  const auto body = reply.json();
  EXPECT_EQ(body.at("object"), "list");
  std::vector<std::string> ids;
  for (const auto& model : body.at("data").as_array()) {
    ids.emplace_back(model.at("id").as_string());
    EXPECT_EQ(model.at("object"), "model");
    EXPECT_EQ(model.at("owned_by"), "parley");
    EXPECT_GT(model.at("created").as_int64(), 0);
  }
  EXPECT_EQ(ids, (std::vector<std::string>{"parley/lead", "parley/clerk"}));
  EXPECT_EQ(client().get("/v1/models/parley/clerk").json().at("id"), "parley/clerk");
  EXPECT_EQ(client().get("/v1/models/parley/nobody").status, 404);
}

TEST_F(OpenAiTest, AWholeAnswerIsTheRootsSaying) {
  start("q4h");
  const auto reply = chat(ask("lead", "hello there"));
  ASSERT_EQ(reply.status, 200) << reply.body;
  EXPECT_EQ(content_of(reply), "ok: hello there");
  const auto body = reply.json();
  EXPECT_EQ(body.at("object"), "chat.completion");
  EXPECT_EQ(body.at("model"), "parley/lead");
  EXPECT_EQ(std::string(body.at("id").as_string()).rfind("chatcmpl-", 0), 0u);
  EXPECT_EQ(body.at("choices").at(0).at("finish_reason"), "stop");
  EXPECT_EQ(body.at("choices").at(0).at("message").at("role"), "assistant");
  const auto id = reply.header("X-Parley-Dialog-Id");
  const auto dialog = client().get("/api/dialogs/" + id).json();
  ASSERT_TRUE(dialog.is_object()) << id;
  EXPECT_EQ(dialog.at("dialog").at("memberId"), "lead");
  EXPECT_EQ(dialog.at("dialog").at("kind"), "root");
  // Another request is another dialog, with another completion id.
  const auto second = chat(ask("lead", "again"));
  EXPECT_NE(second.header("X-Parley-Dialog-Id"), id);
  EXPECT_NE(second.json().at("id"), body.at("id"));
}

TEST_F(OpenAiTest, EarlierMessagesOpenTheDialogAsATranscript) {
  start("q4h");
  json::array sent{json::object{{"role", "system"}, {"content", "Be brief."}},
                   json::object{{"role", "user"}, {"content", "hi"}},
                   json::object{{"role", "assistant"}, {"content", nullptr}},
                   json::object{{"role", "user"},
                                {"content", json::array{json::object{{"type", "text"}, {"text", "how"}},
                                                        json::object{{"type", "text"}, {"text", "are you?"}}}}}};
  const auto reply = chat(json::object{{"model", "parley/lead"}, {"messages", sent}});
  ASSERT_EQ(reply.status, 200) << reply.body;
  const std::string first =
      "Earlier messages of this conversation:\n\n[system]\nBe brief.\n\n[user]\nhi\n\n[assistant]\n\n"
      "\nThe message to answer:\n\nhow\nare you?";
  const auto transcript = messages(reply.header("X-Parley-Dialog-Id"));
  ASSERT_FALSE(transcript.empty());
  EXPECT_EQ(transcript.front().at("content"), first.c_str());
  EXPECT_EQ(content_of(reply), "ok: " + first);
  // Titled by the message answered, not by the transcript's heading.
  EXPECT_EQ(dialog(reply.header("X-Parley-Dialog-Id")).at("dialog").at("title"), "how");
}

TEST_F(OpenAiTest, TheDialogIdHeaderGoesOnWithTheSameDialog) {
  start("q4h");
  const auto first = chat(ask("lead", "hello there"));
  ASSERT_EQ(first.status, 200) << first.body;
  const auto id = first.header("X-Parley-Dialog-Id");
  // The client sends the whole conversation, as OpenAI clients do; only its last message is new.
  json::array conversation{json::object{{"role", "user"}, {"content", "hello there"}},
                           json::object{{"role", "assistant"}, {"content", "ok: hello there"}},
                           json::object{{"role", "user"}, {"content", "and then?"}}};
  const auto second =
      chat(json::object{{"model", "parley/lead"}, {"messages", conversation}}, {{"X-Parley-Dialog-Id", id}});
  ASSERT_EQ(second.status, 200) << second.body;
  EXPECT_EQ(content_of(second), "ok: and then?");
  EXPECT_EQ(second.header("X-Parley-Dialog-Id"), id);
  EXPECT_EQ(root_dialogs(), 1);
  const auto transcript = messages(id);
  ASSERT_EQ(transcript.size(), 4u);
  EXPECT_EQ(transcript[2].at("role"), "user");
  EXPECT_EQ(transcript[2].at("content"), "and then?");
  EXPECT_EQ(transcript[3].at("content"), "ok: and then?");
  // The dialog is the lead's: another member is refused, naming the model.
  const auto other = chat(ask("clerk", "hi"), {{"X-Parley-Dialog-Id", id}});
  EXPECT_EQ(other.status, 400);
  EXPECT_EQ(error_of(other).at("param"), "model");
}

TEST_F(OpenAiTest, AQuestionForTheHumanEndsTheAnswer) {
  start("q4h");
  const auto reply = chat(ask("lead", "delegate"));
  ASSERT_EQ(reply.status, 200) << reply.body;
  const auto questions = client().get("/api/questions").json().at("questions").as_array();
  ASSERT_EQ(questions.size(), 1u);
  const std::string asker(questions[0].at("dialog").at("selfId").as_string());
  const std::string question_id(questions[0].at("id").as_string());
  EXPECT_EQ(content_of(reply), "[Parley asks: Which day?\nMonday or Friday. — answer with POST /api/dialogs/" + asker +
                                   "/answer, question id " + question_id + "]");
  EXPECT_EQ(reply.json().at("choices").at(0).at("finish_reason"), "stop");
  // Answered as it says, the tree goes on and the root reports the booking.
  const auto root = reply.header("X-Parley-Dialog-Id");
  const auto answered = client().post("/api/dialogs/" + asker + "/answer",
                                      json::value{{"questionId", question_id}, {"content", "Friday"}});
  ASSERT_EQ(answered.status, 202) << answered.body;
  EXPECT_TRUE(eventually_says(root, "Trip booked: 【最终完成】\nbooked for Friday"));
}

TEST_F(OpenAiTest, UsageCountsEveryModelCallOfTheTree) {
  start("q4h");
  const auto reply = chat(ask("lead", "delegate"));
  ASSERT_EQ(reply.status, 200) << reply.body;
  const auto usage = reply.json().at("usage");
  const auto prompt = usage.at("prompt_tokens").as_int64();
  const auto completion = usage.at("completion_tokens").as_int64();
  EXPECT_GT(prompt, 0);
  EXPECT_GT(completion, 0);
  EXPECT_EQ(usage.at("total_tokens").as_int64(), prompt + completion);
  // The only request on this server: its tree's calls are every call the server made — the lead's
  // and the clerk's (a subdialog), as GET /api/usage counts them.
  json::value seen;
  EXPECT_TRUE(eventually([&] {
    seen = client().get("/api/usage").json();
    return seen.at("total").at("inputTokens").as_int64() == prompt &&
           seen.at("total").at("outputTokens").as_int64() == completion;
  })) << json::serialize(seen)
      << " vs " << json::serialize(usage);
  EXPECT_GT(seen.at("byMember").at("clerk").at("inputTokens").as_int64(), 0);
}

TEST_F(OpenAiTest, AStreamSendsTheSayingInChunksThenUsageAndDone) {
  start("q4h");
  auto request = ask("lead", "a streamed answer of some length");
  request["stream"] = true;
  request["stream_options"] = json::object{{"include_usage", true}};
  const auto reply = chat(request);
  ASSERT_EQ(reply.status, 200) << reply.body;
  EXPECT_EQ(reply.header("Content-Type").rfind("text/event-stream", 0), 0u);
  EXPECT_EQ(reply.header("Transfer-Encoding"), "chunked");
  const auto id = reply.header("X-Parley-Dialog-Id");
  EXPECT_FALSE(id.empty());
  const auto events = sse_payloads(reply.body);
  ASSERT_GE(events.size(), 5u) << reply.body;
  EXPECT_EQ(events.back(), "[DONE]");
  const auto opening = json::parse(events.front());
  EXPECT_EQ(opening.at("choices").at(0).at("delta").at("role"), "assistant");
  std::string text;
  int content_chunks = 0;
  int stops = 0;
  for (std::size_t i = 0; i + 2 < events.size(); ++i) {
    const auto chunk = json::parse(events[i]);
    EXPECT_EQ(chunk.at("object"), "chat.completion.chunk");
    EXPECT_EQ(chunk.at("id"), opening.at("id"));
    EXPECT_TRUE(chunk.at("usage").is_null());
    const auto& choice = chunk.at("choices").at(0);
    if (const auto* piece = choice.at("delta").as_object().if_contains("content")) {
      text += piece->as_string();
      content_chunks += piece->as_string().empty() ? 0 : 1;
    }
    stops += choice.at("finish_reason") == "stop" ? 1 : 0;
  }
  EXPECT_EQ(text, "ok: a streamed answer of some length");
  EXPECT_GE(content_chunks, 1);
  EXPECT_EQ(stops, 1);
  const auto usage = json::parse(events[events.size() - 2]);
  EXPECT_TRUE(usage.at("choices").as_array().empty());
  EXPECT_GT(usage.at("usage").at("total_tokens").as_int64(), 0);
  EXPECT_TRUE(eventually_says(id, "ok: a streamed answer of some length"));
}

// The slow team's model says one character every 20 ms: the saying reaches the client in pieces
// as it is said, not at the end.
TEST_F(OpenAiTest, AStreamArrivesAsTheModelSpeaks) {
  start("slow");
  auto request = ask("lead", "talk");
  request["stream"] = true;
  const auto reply = chat(request);
  ASSERT_EQ(reply.status, 200) << reply.body;
  std::string text;
  int pieces = 0;
  for (const auto& event : sse_payloads(reply.body)) {
    if (event == "[DONE]") continue;
    const auto chunk = json::parse(event);
    const auto* piece = chunk.at("choices").at(0).at("delta").as_object().if_contains("content");
    if (piece == nullptr || piece->as_string().empty()) continue;
    text += piece->as_string();
    ++pieces;
  }
  EXPECT_GT(pieces, 1);
  EXPECT_EQ(text.rfind("This answer takes a long time to arrive", 0), 0u) << text;
  EXPECT_TRUE(text.ends_with("until someone stops it or the server shuts down.")) << text;
}

TEST_F(OpenAiTest, AStreamEndsWithTheQuestionForTheHuman) {
  start("q4h");
  auto request = ask("lead", "delegate");
  request["stream"] = true;
  const auto reply = chat(request);
  ASSERT_EQ(reply.status, 200) << reply.body;
  std::string text;
  for (const auto& event : sse_payloads(reply.body)) {
    if (event == "[DONE]") continue;
    const auto chunk = json::parse(event);
    EXPECT_FALSE(chunk.as_object().contains("usage"));  // not asked for
    const auto& delta = chunk.at("choices").at(0).at("delta").as_object();
    if (const auto* piece = delta.if_contains("content")) text += piece->as_string();
  }
  EXPECT_EQ(text.rfind("[Parley asks: Which day?", 0), 0u) << text;
}

// Reads from `socket` until `marker` has arrived; false when the connection ends first.
bool read_until_marker(boost::asio::ip::tcp::socket& socket, std::string& seen, const std::string& marker) {
  boost::system::error_code ec;
  boost::asio::read_until(socket, boost::asio::dynamic_buffer(seen), marker, ec);
  return !ec;
}

TEST_F(OpenAiTest, AClientGoneMidStreamLeavesTheDialogGoingOn) {
  start("slow");
  auto request = ask("lead", "talk");
  request["stream"] = true;
  const std::string body = json::serialize(request);
  boost::asio::io_context io;
  boost::asio::ip::tcp::socket socket(io);
  socket.connect({boost::asio::ip::make_address("127.0.0.1"), server_->port()});
  const std::string head =
      "POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + server_->token() +
      "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n";
  boost::asio::write(socket, boost::asio::buffer(head + body));
  std::string seen;
  // The header, the opening chunk and the saying's first piece (one character); then the client goes.
  ASSERT_TRUE(read_until_marker(socket, seen, R"("content":"T")")) << seen;
  const auto at = seen.find("X-Parley-Dialog-Id: ");
  ASSERT_NE(at, std::string::npos) << seen;
  const auto id = seen.substr(at + 20, seen.find("\r\n", at) - at - 20);
  socket.close();
  // The dialog says all it had to say, and the server goes on serving.
  EXPECT_TRUE(eventually([&] {
    const auto list = messages(id);
    return !list.empty() && list.back().at("role") == "assistant" &&
           std::string(list.back().at("content").as_string()).ends_with("the server shuts down.");
  }));
  EXPECT_EQ(client().get("/v1/models").status, 200);
  EXPECT_EQ(server_->terminate(), 0) << server_->output();  // a clean shutdown after all that
}

}  // namespace
}  // namespace parley::test

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/json.hpp>

#include "parley/core/utf8.hpp"
#include "parley/llm/anthropic/anthropic_provider.hpp"
#include "recording_sink.hpp"
#include "support/fake_http_server.hpp"
#include "support/run_awaitable.hpp"
#include "support/text_contains.hpp"

namespace parley::llm {
namespace {

using namespace std::chrono_literals;
using testing::fake_ending;
using testing::fake_response;
using testing::recording_sink;
using testing::run_awaitable;

std::string event(std::string_view name, std::string_view json_text) {
  return "event: " + std::string(name) + "\ndata: " + std::string(json_text) + "\n\n";
}

std::string block_delta(int index, std::string_view delta_json) {
  return event("content_block_delta", R"({"type":"content_block_delta","index":)" + std::to_string(index) +
                                          R"(,"delta":)" + std::string(delta_json) + "}");
}

std::string block_start(int index, std::string_view block_json) {
  return event("content_block_start", R"({"type":"content_block_start","index":)" + std::to_string(index) +
                                          R"(,"content_block":)" + std::string(block_json) + "}");
}

std::string block_stop(int index) {
  return event("content_block_stop", R"({"type":"content_block_stop","index":)" + std::to_string(index) + "}");
}

const std::string kMessageStart =
    event("message_start",
          R"({"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],)"
          R"("model":"claude-test","stop_reason":null,"usage":{"input_tokens":25,"cache_read_input_tokens":100,)"
          R"("cache_creation_input_tokens":0,"output_tokens":1}}})");

std::string message_end(std::string_view stop_reason, int output_tokens) {
  return event("message_delta", R"({"type":"message_delta","delta":{"stop_reason":")" + std::string(stop_reason) +
                                    R"(","stop_sequence":null},"usage":{"output_tokens":)" +
                                    std::to_string(output_tokens) + "}}") +
         event("message_stop", R"({"type":"message_stop"})");
}

using parley::testing::contains;

class anthropic_provider_test : public ::testing::Test {
 protected:
  anthropic_options options() {
    anthropic_options opts;
    opts.base_url = server_.base_url() + "/v1";
    opts.api_key = "sk-ant-test";
    opts.proxy = http::proxy_settings{};
    opts.retry.max_attempts = 1;
    opts.timeouts = {2'000ms, 5'000ms, 5'000ms};
    return opts;
  }

  model_request simple_request() {
    model_request request;
    request.model = "claude-test";
    request.messages.push_back({role::user, "Hi"});
    return request;
  }

  result<model_response> call(const anthropic_options& opts, const model_request& request) {
    auto provider = make_anthropic_provider(opts);
    EXPECT_EQ(provider->kind(), "anthropic");
    auto answer = run_awaitable(io_, provider->stream(request, sink_, control_));
    EXPECT_TRUE(sink_.violations.empty()) << sink_.violations.front();
    return answer;
  }

  boost::asio::io_context io_;
  testing::fake_http_server server_;
  recording_sink sink_;
  generation_control control_;
};

TEST_F(anthropic_provider_test, streams_thinking_signature_text_and_tool_use) {
  server_.push(fake_response::sse({
      kMessageStart,
      block_start(0, R"({"type":"thinking","thinking":""})"),
      event("ping", R"({"type": "ping"})"),
      block_delta(0, R"({"type":"thinking_delta","thinking":"Let me check"})"),
      block_delta(0, R"({"type":"thinking_delta","thinking":" the file."})"),
      block_delta(0, R"({"type":"signature_delta","signature":"EqQBCgIYAhIM1gbcDa9GJwZA"})"),
      block_stop(0),
      block_start(1, R"({"type":"text","text":""})"),
      block_delta(1, R"({"type":"text_delta","text":"I'll read it."})"),
      block_stop(1),
      block_start(2, R"({"type":"tool_use","id":"toolu_01","name":"read_file","input":{}})"),
      block_delta(2, R"({"type":"input_json_delta","partial_json":""})"),
      block_delta(2, R"({"type":"input_json_delta","partial_json":"{\"path\": "})"),
      block_delta(2, R"({"type":"input_json_delta","partial_json":"\"a.txt\"}"})"),
      block_stop(2),
      message_end("tool_use", 42),
  }));
  auto answer = call(options(), simple_request());
  ASSERT_TRUE(answer) << answer.err().message;
  EXPECT_EQ(answer->thinking, "Let me check the file.");
  EXPECT_EQ(answer->thinking_signature, "EqQBCgIYAhIM1gbcDa9GJwZA");
  EXPECT_EQ(answer->saying, "I'll read it.");
  ASSERT_EQ(answer->tool_calls.size(), 1u);
  EXPECT_EQ(answer->tool_calls[0].id, "toolu_01");
  EXPECT_EQ(answer->tool_calls[0].name, "read_file");
  EXPECT_EQ(answer->tool_calls[0].arguments, R"({"path": "a.txt"})");
  EXPECT_EQ(answer->finish_reason, "tool_calls");
  EXPECT_EQ(answer->usage.input_tokens, 125);
  EXPECT_EQ(answer->usage.cached_tokens, 100);
  EXPECT_EQ(answer->usage.output_tokens, 42);

  const std::vector<std::string> expected = {
      "thinking_start",       "thinking: Let me check",
      "thinking:  the file.", "thinking_finish",
      "saying_start",         "saying: I'll read it.",
      "saying_finish",        R"(tool_call toolu_01 read_file {"path": "a.txt"})"};
  EXPECT_EQ(sink_.events, expected);
}

TEST_F(anthropic_provider_test, stop_reasons_map_to_finish_reasons) {
  for (const auto& [stop_reason, finish_reason] :
       std::vector<std::pair<std::string, std::string>>{{"end_turn", "stop"},
                                                        {"stop_sequence", "stop"},
                                                        {"max_tokens", "length"},
                                                        {"pause_turn", "length"},
                                                        {"refusal", "content_filter"}}) {
    server_.push(fake_response::sse({kMessageStart, block_start(0, R"({"type":"text","text":""})"),
                                     block_delta(0, R"({"type":"text_delta","text":"x"})"), block_stop(0),
                                     message_end(stop_reason, 3)}));
    auto answer = call(options(), simple_request());
    ASSERT_TRUE(answer) << answer.err().message;
    EXPECT_EQ(answer->finish_reason, finish_reason) << stop_reason;
  }
}

TEST_F(anthropic_provider_test, unknown_stop_reason_is_a_clear_error) {
  server_.push(fake_response::sse({kMessageStart, block_start(0, R"({"type":"text","text":""})"),
                                   block_delta(0, R"({"type":"text_delta","text":"x"})"), block_stop(0),
                                   message_end("daydreaming", 3)}));
  auto answer = call(options(), simple_request());
  ASSERT_FALSE(answer);
  EXPECT_EQ(answer.err().code, errc::provider_error);
  EXPECT_EQ(answer.err().message,
            "anthropic: the model ended with stop_reason 'daydreaming', which is none of end_turn, stop_sequence, "
            "max_tokens, tool_use, pause_turn, refusal");
}

TEST_F(anthropic_provider_test, an_image_goes_as_a_base64_block_before_the_words_and_audio_as_a_note) {
  server_.push(fake_response::sse({kMessageStart, message_end("end_turn", 1)}));
  model_request request;
  request.model = "claude-test";
  chat_message look{role::user, "What is this?"};
  look.media.push_back({media_kind::image, "image/jpeg", "jpeg", "/9j/4AAQ"});
  look.media.push_back({media_kind::audio, "audio/mpeg", "mp3", "SUQz"});
  request.messages.push_back(look);
  ASSERT_TRUE(call(options(), request));
  const auto received = server_.requests();
  ASSERT_EQ(received.size(), 1u);
  const auto body = boost::json::parse(received[0].body).as_object();
  const auto expected = boost::json::parse(R"([
      {"type": "image", "source": {"type": "base64", "media_type": "image/jpeg", "data": "/9j/4AAQ"}},
      {"type": "text", "text": "[an audio recording (mp3) this model cannot hear]"},
      {"type": "text", "text": "What is this?"}])");
  EXPECT_EQ(body.at("messages").at(0).at("content"), expected);
}

TEST_F(anthropic_provider_test, an_image_a_tool_read_goes_inside_its_tool_result) {
  server_.push(fake_response::sse({kMessageStart, message_end("end_turn", 1)}));
  model_request request;
  request.model = "claude-test";
  request.messages.push_back({role::user, "Look at the screenshot"});
  chat_message assistant{role::assistant, ""};
  assistant.tool_calls = {{"toolu_a", "read_file", R"({"path":"a.png"})"}};
  request.messages.push_back(assistant);
  chat_message image{role::tool, "'a.png': a PNG image of 8 bytes, given to you as an image"};
  image.tool_call_id = "toolu_a";
  image.media.push_back({media_kind::image, "image/png", "png", "iVBORw0KGgo="});
  request.messages.push_back(image);
  ASSERT_TRUE(call(options(), request));
  const auto received = server_.requests();
  ASSERT_EQ(received.size(), 1u);
  const auto body = boost::json::parse(received[0].body).as_object();
  const auto expected = boost::json::parse(R"([{"type": "tool_result", "tool_use_id": "toolu_a", "content": [
      {"type": "text", "text": "'a.png': a PNG image of 8 bytes, given to you as an image"},
      {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}]}])");
  EXPECT_EQ(body.at("messages").at(2).at("content"), expected);
}

TEST_F(anthropic_provider_test, request_body_merges_tool_results_and_carries_signed_thinking) {
  server_.push(fake_response::sse({kMessageStart, message_end("end_turn", 1)}));
  model_request request;
  request.model = "claude-test";
  request.system_prompt = "You are terse.";
  request.messages.push_back({role::user, "Look at two files"});
  chat_message assistant{role::assistant, "Reading both."};
  assistant.thinking = "Two reads.";
  assistant.thinking_signature = "sig-1";
  assistant.tool_calls = {{"toolu_a", "read_file", R"({"path":"a"})"}, {"toolu_b", "read_file", ""}};
  request.messages.push_back(assistant);
  chat_message first{role::tool, "contents of a"};
  first.tool_call_id = "toolu_a";
  chat_message second{role::tool, "contents of b"};
  second.tool_call_id = "toolu_b";
  request.messages.push_back(first);
  request.messages.push_back(second);
  request.messages.push_back({role::user, "Now summarize"});
  request.tools = std::make_shared<const std::vector<tool_spec>>(std::vector<tool_spec>{
      {"read_file", "Reads a file",
       boost::json::parse(R"({"type":"object","properties":{"path":{"type":"string"}}})").as_object()}});
  request.params = boost::json::parse(R"({"temperature": 0.5})").as_object();
  auto answer = call(options(), request);
  ASSERT_TRUE(answer) << answer.err().message;

  const auto received = server_.requests();
  ASSERT_EQ(received.size(), 1u);
  EXPECT_EQ(received[0].target, "/v1/messages");
  EXPECT_EQ(received[0].header("x-api-key"), "sk-ant-test");
  EXPECT_EQ(received[0].header("anthropic-version"), "2023-06-01");
  EXPECT_TRUE(received[0].header("authorization").empty());

  const auto expected = boost::json::parse(R"({
    "model": "claude-test", "max_tokens": 4096, "temperature": 0.5, "stream": true,
    "system": "You are terse.",
    "messages": [
      {"role": "user", "content": [{"type": "text", "text": "Look at two files"}]},
      {"role": "assistant", "content": [
        {"type": "thinking", "thinking": "Two reads.", "signature": "sig-1"},
        {"type": "text", "text": "Reading both."},
        {"type": "tool_use", "id": "toolu_a", "name": "read_file", "input": {"path": "a"}},
        {"type": "tool_use", "id": "toolu_b", "name": "read_file", "input": {}}]},
      {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "toolu_a", "content": "contents of a"},
        {"type": "tool_result", "tool_use_id": "toolu_b", "content": "contents of b"},
        {"type": "text", "text": "Now summarize"}]}],
    "tools": [{"name": "read_file", "description": "Reads a file",
               "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}}}]
  })");
  EXPECT_EQ(boost::json::parse(received[0].body), expected) << received[0].body;
}

TEST_F(anthropic_provider_test, max_tokens_from_params_wins_and_unsigned_thinking_is_not_sent) {
  server_.push(fake_response::sse({kMessageStart, message_end("end_turn", 1)}));
  auto request = simple_request();
  request.params = boost::json::parse(R"({"max_tokens": 64000})").as_object();
  chat_message assistant{role::assistant, "Hello"};
  assistant.thinking = "unsigned";
  request.messages.push_back(assistant);
  ASSERT_TRUE(call(options(), request));
  const auto body = boost::json::parse(server_.requests().at(0).body).as_object();
  EXPECT_EQ(body.at("max_tokens").as_int64(), 64000);
  const auto& content = body.at("messages").as_array().at(1).at("content").as_array();
  ASSERT_EQ(content.size(), 1u);
  EXPECT_EQ(content[0].at("type").as_string(), "text");
}

TEST_F(anthropic_provider_test, error_event_in_stream_is_reported) {
  server_.push(fake_response::sse(
      {kMessageStart,
       event("error", R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})")}));
  auto answer = call(options(), simple_request());
  ASSERT_FALSE(answer);
  EXPECT_EQ(answer.err().code, errc::provider_error);
  EXPECT_EQ(answer.err().message, "anthropic: error in stream: overloaded_error: Overloaded");
}

TEST_F(anthropic_provider_test, overloaded_status_is_retryable) {
  server_.push(
      fake_response::json(R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})", 529));
  auto answer = call(options(), simple_request());
  ASSERT_FALSE(answer);
  EXPECT_EQ(provider_http_status(answer.err()), 529);
  EXPECT_TRUE(is_retryable(answer.err()));
  EXPECT_TRUE(contains(answer.err().message, "anthropic: HTTP 529")) << answer.err().message;
  EXPECT_TRUE(contains(answer.err().message, "overloaded_error: Overloaded")) << answer.err().message;
}

TEST_F(anthropic_provider_test, non_streaming_response_is_assembled) {
  server_.push(fake_response::json(R"({
    "id": "msg_2", "type": "message", "role": "assistant", "model": "claude-test",
    "content": [
      {"type": "thinking", "thinking": "Quick.", "signature": "sig-2"},
      {"type": "text", "text": "Calling."},
      {"type": "tool_use", "id": "toolu_9", "name": "list_dir", "input": {"path": "."}}],
    "stop_reason": "tool_use",
    "usage": {"input_tokens": 10, "output_tokens": 4}
  })"));
  auto opts = options();
  opts.streaming = false;
  auto answer = call(opts, simple_request());
  ASSERT_TRUE(answer) << answer.err().message;
  EXPECT_EQ(answer->thinking, "Quick.");
  EXPECT_EQ(answer->thinking_signature, "sig-2");
  EXPECT_EQ(answer->saying, "Calling.");
  ASSERT_EQ(answer->tool_calls.size(), 1u);
  EXPECT_EQ(answer->tool_calls[0].arguments, R"({"path":"."})");
  EXPECT_EQ(answer->finish_reason, "tool_calls");
  EXPECT_EQ(answer->usage.input_tokens, 10);
  EXPECT_EQ(answer->usage.output_tokens, 4);
  EXPECT_FALSE(boost::json::parse(server_.requests().at(0).body).as_object().contains("stream"));
}

TEST_F(anthropic_provider_test, stream_without_message_stop_is_an_error) {
  server_.push(fake_response::sse({kMessageStart, block_start(0, R"({"type":"text","text":""})"),
                                   block_delta(0, R"({"type":"text_delta","text":"cut"})")}));
  auto answer = call(options(), simple_request());
  ASSERT_FALSE(answer);
  EXPECT_TRUE(contains(answer.err().message, "stream ended before message_stop")) << answer.err().message;
}

TEST_F(anthropic_provider_test, stop_during_endless_stream_returns_partial_interrupted) {
  server_.push(fake_response::sse({kMessageStart, block_start(0, R"({"type":"text","text":""})"),
                                   block_delta(0, R"({"type":"text_delta","text":"partial"})")},
                                  fake_ending::never_end));
  sink_.on_saying = [&](std::string_view) { boost::asio::post(io_, [&] { control_.stop(); }); };
  auto answer = call(options(), simple_request());
  ASSERT_TRUE(answer) << answer.err().message;
  EXPECT_EQ(answer->finish_reason, "interrupted");
  EXPECT_EQ(answer->saying, "partial");
  const std::vector<std::string> expected = {"saying_start", "saying: partial", "saying_finish"};
  EXPECT_EQ(sink_.events, expected);
}

// Found by fuzz/sse_fuzzer.cpp: the event's name and data were quoted byte for byte; the error is
// logged (drive_failed), and the log takes only UTF-8.
TEST_F(anthropic_provider_test, invalid_event_is_quoted_as_utf8) {
  server_.push(fake_response::sse({kMessageStart, event("content_block_\xFF", "{\"type\": \xE9\x94}")}));
  auto answer = call(options(), simple_request());
  ASSERT_FALSE(answer);
  EXPECT_TRUE(contains(answer.err().message, "invalid JSON in stream event")) << answer.err().message;
  EXPECT_TRUE(is_valid_utf8(answer.err().message)) << answer.err().message;
}

}  // namespace
}  // namespace parley::llm

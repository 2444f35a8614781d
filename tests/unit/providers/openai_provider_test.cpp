#include <gtest/gtest.h>

#include <algorithm>
#include <utility>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/json.hpp>

#include "parley/core/utf8.hpp"
#include "parley/llm/openai/openai_provider.hpp"
#include "provider_fixture.hpp"
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

std::string sse_data(std::string_view json_text) { return "data: " + std::string(json_text) + "\n\n"; }

std::string delta(std::string_view delta_json) {
  return sse_data(R"({"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":)" +
                  std::string(delta_json) + R"(,"finish_reason":null}]})");
}

std::string finish(std::string_view reason) {
  return sse_data(R"({"id":"c1","choices":[{"index":0,"delta":{},"finish_reason":")" + std::string(reason) + R"("}]})");
}

using parley::testing::contains;

class openai_provider_test : public testing::provider_fixture<openai_options, &make_openai_provider> {
 protected:
  static model_request simple_request() { return request_to("gpt-test"); }

  boost::json::object last_body() {
    const auto received = server_.requests();
    EXPECT_FALSE(received.empty());
    return boost::json::parse(received.back().body).as_object();
  }
};

TEST_F(openai_provider_test, streams_thinking_saying_and_parallel_tool_calls) {
  const std::string split_me = delta(R"({"content":" world"})");
  server_.push(fake_response::sse({
      delta(R"({"role":"assistant","reasoning_content":"Let me "})"),
      delta(R"({"reasoning_content":"think."})") + delta(R"({"content":"Hello"})"),
      split_me.substr(0, 20),
      split_me.substr(20),
      delta(
          R"({"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"read_file","arguments":""}}]})"),
      delta(
          R"({"tool_calls":[{"index":1,"id":"call_b","type":"function","function":{"name":"list_dir","arguments":"{\"pa"}}]})"),
      delta(R"({"tool_calls":[{"index":0,"function":{"arguments":"{\"path\":"}}]})"),
      delta(R"({"tool_calls":[{"index":0,"function":{"arguments":"\"a.txt\"}"}}]})"),
      delta(R"({"tool_calls":[{"index":1,"function":{"arguments":"th\":\".\"}"}}]})"),
      finish("tool_calls"),
      sse_data(R"({"id":"c1","choices":[],"usage":{"prompt_tokens":100,"completion_tokens":20,)"
               R"("prompt_tokens_details":{"cached_tokens":64},"completion_tokens_details":{"reasoning_tokens":7}}})"),
      "data: [DONE]\n\n",
  }));
  auto answer = call(options(), simple_request());
  ASSERT_TRUE(answer) << answer.err().message;
  EXPECT_EQ(answer->thinking, "Let me think.");
  EXPECT_EQ(answer->saying, "Hello world");
  EXPECT_EQ(answer->finish_reason, "tool_calls");
  ASSERT_EQ(answer->tool_calls.size(), 2u);
  EXPECT_EQ(answer->tool_calls[0].id, "call_a");
  EXPECT_EQ(answer->tool_calls[0].name, "read_file");
  EXPECT_EQ(answer->tool_calls[0].arguments, R"({"path":"a.txt"})");
  EXPECT_EQ(answer->tool_calls[1].id, "call_b");
  EXPECT_EQ(answer->tool_calls[1].name, "list_dir");
  EXPECT_EQ(answer->tool_calls[1].arguments, R"({"path":"."})");
  EXPECT_EQ(answer->usage.input_tokens, 100);
  EXPECT_EQ(answer->usage.output_tokens, 20);
  EXPECT_EQ(answer->usage.cached_tokens, 64);
  EXPECT_EQ(answer->usage.reasoning_tokens, 7);

  const std::vector<std::string> expected = {"thinking_start",
                                             "thinking: Let me ",
                                             "thinking: think.",
                                             "thinking_finish",
                                             "saying_start",
                                             "saying: Hello",
                                             "saying:  world",
                                             "saying_finish",
                                             R"(tool_call call_a read_file {"path":"a.txt"})",
                                             R"(tool_call call_b list_dir {"path":"."})"};
  EXPECT_EQ(sink_.events, expected);
}

TEST_F(openai_provider_test, alternating_reasoning_and_content_close_segments_in_order) {
  server_.push(
      fake_response::sse({delta(R"({"reasoning":"a"})"), delta(R"({"content":"b"})"), delta(R"({"reasoning":"c"})"),
                          delta(R"({"content":""})"), finish("stop"), "data: [DONE]\n\n"}));
  auto answer = call(options(), simple_request());
  ASSERT_TRUE(answer) << answer.err().message;
  EXPECT_EQ(answer->thinking, "ac");
  EXPECT_EQ(answer->finish_reason, "stop");
  const std::vector<std::string> expected = {"thinking_start", "thinking: a", "thinking_finish",
                                             "saying_start",   "saying: b",   "saying_finish",
                                             "thinking_start", "thinking: c", "thinking_finish"};
  EXPECT_EQ(sink_.events, expected);
}

TEST_F(openai_provider_test, request_body_carries_messages_tools_and_params) {
  server_.push(fake_response::sse({delta(R"({"content":"ok"})"), finish("stop"), "data: [DONE]\n\n"}));
  model_request request;
  request.model = "gpt-test";
  request.system_prompt = "You are terse.";
  request.messages.push_back({role::user, "List files"});
  chat_message assistant{role::assistant};
  assistant.thinking = "not sent back";
  assistant.tool_calls = {{"call_1", "list_dir", R"({"path":"."})"}, {"call_2", "read_file", ""}};
  request.messages.push_back(assistant);
  chat_message tool_result{role::tool, "a.txt\nb.txt"};
  tool_result.tool_call_id = "call_1";
  tool_result.name = "list_dir";
  request.messages.push_back(tool_result);
  request.tools = std::make_shared<const std::vector<tool_spec>>(std::vector<tool_spec>{
      {"list_dir", "Lists a directory",
       boost::json::parse(R"({"type":"object","properties":{"path":{"type":"string"}}})").as_object()}});
  request.params = boost::json::parse(R"({"temperature": 0.2, "max_tokens": 100,
      "response_format": {"type": "json_object"}, "tool_choice": "auto", "stream": false})")
                       .as_object();
  auto answer = call(options(), request);
  ASSERT_TRUE(answer) << answer.err().message;

  const auto received = server_.requests();
  ASSERT_EQ(received.size(), 1u);
  EXPECT_EQ(received[0].target, "/v1/chat/completions");
  EXPECT_EQ(received[0].header("authorization"), "Bearer sk-test");
  EXPECT_EQ(received[0].header("content-type"), "application/json");
  EXPECT_EQ(received[0].header("accept"), "text/event-stream");

  const auto expected = boost::json::parse(R"({
    "model": "gpt-test",
    "temperature": 0.2, "max_tokens": 100, "response_format": {"type": "json_object"}, "tool_choice": "auto",
    "stream": true, "stream_options": {"include_usage": true},
    "messages": [
      {"role": "system", "content": "You are terse."},
      {"role": "user", "content": "List files"},
      {"role": "assistant", "content": null, "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "list_dir", "arguments": "{\"path\":\".\"}"}},
        {"id": "call_2", "type": "function", "function": {"name": "read_file", "arguments": "{}"}}]},
      {"role": "tool", "tool_call_id": "call_1", "content": "a.txt\nb.txt"}],
    "tools": [{"type": "function", "function": {"name": "list_dir", "description": "Lists a directory",
      "parameters": {"type": "object", "properties": {"path": {"type": "string"}}}}}]
  })");
  EXPECT_EQ(boost::json::value(last_body()), expected) << received[0].body;
}

TEST_F(openai_provider_test, images_and_audio_go_as_content_parts_beside_the_words) {
  server_.push(fake_response::sse({delta(R"({"content":"ok"})"), finish("stop"), "data: [DONE]\n\n"}));
  model_request request = simple_request();
  chat_message look{role::user, "What is this?"};
  look.media.push_back({media_kind::image, "image/png", "png", "iVBORw0KGgo="});
  look.media.push_back({media_kind::audio, "audio/wav", "wav", "UklGRg=="});
  request.messages.push_back(look);
  ASSERT_TRUE(call(options(), request));
  const auto expected = boost::json::parse(R"({"role": "user", "content": [
      {"type": "text", "text": "What is this?"},
      {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}},
      {"type": "input_audio", "input_audio": {"data": "UklGRg==", "format": "wav"}}]})");
  EXPECT_EQ(last_body().at("messages").as_array().back(), expected);
  EXPECT_EQ(last_body().at("messages").as_array().at(0).at("content"), "Hi");  // words alone stay a string
}

// Chat Completions takes no image in a tool message: the images read_file gave follow the tool
// messages of their round, in one user message, and the tool messages keep their words.
TEST_F(openai_provider_test, images_of_tool_results_follow_the_tool_messages_in_a_user_message) {
  server_.push(fake_response::sse({delta(R"({"content":"ok"})"), finish("stop"), "data: [DONE]\n\n"}));
  model_request request = simple_request();
  chat_message assistant{role::assistant, ""};
  assistant.tool_calls = {{"call_1", "read_file", R"({"path":"a.png"})"}, {"call_2", "list_dir", "{}"}};
  request.messages.push_back(assistant);
  chat_message image{role::tool, "'a.png': a PNG image of 8 bytes, given to you as an image"};
  image.tool_call_id = "call_1";
  image.media.push_back({media_kind::image, "image/png", "png", "iVBORw0KGgo="});
  chat_message listing{role::tool, "a.png"};
  listing.tool_call_id = "call_2";
  request.messages.push_back(image);
  request.messages.push_back(listing);
  request.messages.push_back({role::user, "And now?"});
  ASSERT_TRUE(call(options(), request));
  const auto body = last_body();
  const auto& messages = body.at("messages").as_array();
  ASSERT_GE(messages.size(), 5U);
  const auto n = messages.size();
  EXPECT_EQ(messages[n - 4], boost::json::parse(R"({"role": "tool", "tool_call_id": "call_1",
      "content": "'a.png': a PNG image of 8 bytes, given to you as an image"})"));
  EXPECT_EQ(messages[n - 3], boost::json::parse(R"({"role": "tool", "tool_call_id": "call_2", "content": "a.png"})"));
  EXPECT_EQ(messages[n - 2], boost::json::parse(R"({"role": "user", "content": [
      {"type": "text", "text": "[the images of the tool results above]"},
      {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}}]})"));
  EXPECT_EQ(messages[n - 1], boost::json::parse(R"({"role": "user", "content": "And now?"})"));
}

// The provider keeps each tool list's text; a list it has not seen (or one made again after the
// old one is gone) must still be sent as it is, never another list's text.
TEST_F(openai_provider_test, each_request_carries_its_own_tool_list) {
  auto provider = make_openai_provider(options());
  const auto make_list = [](const char* name) {
    return std::make_shared<const std::vector<tool_spec>>(
        std::vector<tool_spec>{{name, std::string("Tool ") + name, boost::json::object{}}});
  };
  const auto tool_names = [](const boost::json::object& body) {
    std::vector<std::string> names;
    for (const auto& tool : body.at("tools").as_array()) {
      names.emplace_back(tool.at("function").at("name").as_string());
    }
    return names;
  };
  auto first = make_list("alpha");
  auto second = make_list("beta");
  for (const auto& list : {first, second, first, make_list("gamma")}) {
    server_.push(fake_response::sse({delta(R"({"content":"ok"})"), finish("stop"), "data: [DONE]\n\n"}));
    auto request = simple_request();
    request.tools = list;
    auto answer = run_awaitable(io_, provider->stream(request, sink_, control_));
    ASSERT_TRUE(answer) << answer.err().message;
    EXPECT_EQ(tool_names(last_body()), (std::vector<std::string>{list->front().name}));
  }
  auto none = simple_request();  // no tools: no "tools" key at all
  server_.push(fake_response::sse({delta(R"({"content":"ok"})"), finish("stop"), "data: [DONE]\n\n"}));
  ASSERT_TRUE(run_awaitable(io_, provider->stream(none, sink_, control_)));
  EXPECT_FALSE(last_body().contains("tools"));
}

TEST_F(openai_provider_test, local_server_without_key_gets_no_authorization) {
  server_.push(fake_response::sse({delta(R"({"content":"ok"})"), finish("stop"), "data: [DONE]\n\n"}));
  auto opts = options();
  opts.api_key.clear();
  ASSERT_TRUE(call(opts, simple_request()));
  EXPECT_TRUE(server_.requests().at(0).header("authorization").empty());
}

TEST_F(openai_provider_test, non_streaming_response_is_assembled_and_forwarded) {
  server_.push(fake_response::json(R"({
    "id": "x", "object": "chat.completion",
    "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
      "role": "assistant", "reasoning_content": "Hmm.", "content": "Reading.",
      "tool_calls": [{"id": "call_9", "type": "function", "function": {"name": "read_file", "arguments": "{\"path\":\"x\"}"}}]}}],
    "usage": {"prompt_tokens": 12, "completion_tokens": 5}
  })"));
  auto opts = options();
  opts.streaming = false;
  auto answer = call(opts, simple_request());
  ASSERT_TRUE(answer) << answer.err().message;
  EXPECT_EQ(answer->thinking, "Hmm.");
  EXPECT_EQ(answer->saying, "Reading.");
  ASSERT_EQ(answer->tool_calls.size(), 1u);
  EXPECT_EQ(answer->tool_calls[0].id, "call_9");
  EXPECT_EQ(answer->tool_calls[0].arguments, R"({"path":"x"})");
  EXPECT_EQ(answer->finish_reason, "tool_calls");
  EXPECT_EQ(answer->usage.input_tokens, 12);
  EXPECT_EQ(answer->usage.output_tokens, 5);
  const std::vector<std::string> expected = {"thinking_start",
                                             "thinking: Hmm.",
                                             "thinking_finish",
                                             "saying_start",
                                             "saying: Reading.",
                                             "saying_finish",
                                             R"(tool_call call_9 read_file {"path":"x"})"};
  EXPECT_EQ(sink_.events, expected);
  const auto body = last_body();
  EXPECT_FALSE(body.contains("stream"));
  EXPECT_EQ(server_.requests().at(0).header("accept"), "application/json");
}

TEST_F(openai_provider_test, a_member_that_wants_whole_answers_gets_a_non_streaming_request) {
  server_.push(fake_response::json(R"({"id": "x", "object": "chat.completion",
    "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "Whole."}}]})"));
  auto request = simple_request();
  request.stream = false;
  auto answer = call(options(), request);  // the provider itself would stream
  ASSERT_TRUE(answer) << answer.err().message;
  EXPECT_EQ(answer->saying, "Whole.");
  EXPECT_FALSE(last_body().contains("stream"));
  EXPECT_EQ(server_.requests().at(0).header("accept"), "application/json");
}

TEST_F(openai_provider_test, error_status_becomes_provider_error_with_status_and_message) {
  server_.push(
      fake_response::json(R"({"error":{"message":"The model does not exist","type":"invalid_request_error"}})", 404));
  auto answer = call(options(), simple_request());
  ASSERT_FALSE(answer);
  EXPECT_EQ(answer.err().code, errc::provider_error);
  EXPECT_TRUE(contains(answer.err().message, "openai: HTTP 404")) << answer.err().message;
  EXPECT_TRUE(contains(answer.err().message, "invalid_request_error: The model does not exist"))
      << answer.err().message;
  EXPECT_EQ(provider_http_status(answer.err()), 404);
  EXPECT_FALSE(is_retryable(answer.err()));
}

TEST_F(openai_provider_test, throttling_is_retryable_and_reported_when_retries_run_out) {
  fake_response throttled = fake_response::json(R"({"error":{"message":"Rate limit reached"}})", 429);
  throttled.headers.emplace_back("Retry-After", "0");
  server_.push(throttled);
  server_.push(throttled);
  auto opts = options();
  opts.retry = {2, 1ms, 10ms};
  auto answer = call(opts, simple_request());
  ASSERT_FALSE(answer);
  EXPECT_EQ(provider_http_status(answer.err()), 429);
  EXPECT_TRUE(is_retryable(answer.err()));
  EXPECT_TRUE(contains(answer.err().message, "Rate limit reached"));
  EXPECT_EQ(server_.requests().size(), 2u);
}

TEST_F(openai_provider_test, server_error_then_success_is_retried) {
  fake_response unavailable = fake_response::json(R"({"error":{"message":"busy"}})", 503);
  unavailable.headers.emplace_back("Retry-After", "0");
  server_.push(unavailable);
  server_.push(fake_response::sse({delta(R"({"content":"second try"})"), finish("stop"), "data: [DONE]\n\n"}));
  auto opts = options();
  opts.retry = {3, 1ms, 10ms};
  auto answer = call(opts, simple_request());
  ASSERT_TRUE(answer) << answer.err().message;
  EXPECT_EQ(answer->saying, "second try");
  EXPECT_EQ(server_.requests().size(), 2u);
}

TEST_F(openai_provider_test, stop_while_waiting_to_retry_ends_the_wait) {
  fake_response unavailable = fake_response::json(R"({"error":{"message":"busy"}})", 503);
  unavailable.headers.emplace_back("Retry-After", "30");
  server_.push(unavailable);
  server_.push(fake_response::sse({delta(R"({"content":"too late"})"), finish("stop"), "data: [DONE]\n\n"}));
  auto opts = options();
  opts.retry = {2, 1ms, 30'000ms};
  boost::asio::steady_timer stopper(io_, 100ms);
  stopper.async_wait([&](boost::system::error_code) { control_.stop(); });
  auto answer = call(opts, simple_request());
  ASSERT_TRUE(answer) << answer.err().message;
  EXPECT_EQ(answer->finish_reason, "interrupted");
  EXPECT_TRUE(answer->saying.empty());
  EXPECT_LE(server_.requests().size(), 1u);
}

TEST_F(openai_provider_test, invalid_json_chunk_is_a_clear_error) {
  server_.push(fake_response::sse({delta(R"({"content":"a"})"), "data: {\"choices\": [oops\n\n"}));
  auto answer = call(options(), simple_request());
  ASSERT_FALSE(answer);
  EXPECT_EQ(answer.err().code, errc::provider_error);
  EXPECT_TRUE(contains(answer.err().message, "openai: invalid JSON in stream chunk")) << answer.err().message;
  EXPECT_TRUE(contains(answer.err().message, "[oops")) << answer.err().message;
}

TEST_F(openai_provider_test, overlong_sse_line_is_a_clear_error) {
  server_.push(fake_response::sse({delta(R"({"content":")" + std::string(200, 'x') + R"("})")}));
  auto opts = options();
  opts.sse.max_line_bytes = 64;
  auto answer = call(opts, simple_request());
  ASSERT_FALSE(answer);
  EXPECT_TRUE(contains(answer.err().message, "SSE line longer than 64 bytes")) << answer.err().message;
}

TEST_F(openai_provider_test, error_object_inside_the_stream_is_reported) {
  server_.push(
      fake_response::sse({delta(R"({"content":"a"})"), sse_data(R"({"error":{"message":"upstream overloaded"}})")}));
  auto answer = call(options(), simple_request());
  ASSERT_FALSE(answer);
  EXPECT_TRUE(contains(answer.err().message, "error in stream: upstream overloaded")) << answer.err().message;
}

TEST_F(openai_provider_test, json_error_instead_of_an_event_stream_is_reported) {
  // Some gateways answer 200 with a JSON error even when asked for a stream.
  server_.push(fake_response::json(R"({"error":{"message":"quota exhausted","type":"insufficient_quota"}})"));
  auto answer = call(options(), simple_request());
  ASSERT_FALSE(answer);
  EXPECT_EQ(answer.err().message, "openai: expected an event stream, got: insufficient_quota: quota exhausted");
}

TEST_F(openai_provider_test, mid_stream_disconnect_discards_the_partial_output_and_asks_again) {
  server_.push(fake_response::sse({delta(R"({"content":"Hel"})")}, fake_ending::disconnect));
  server_.push(fake_response::sse({delta(R"({"content":"Hello"})"), finish("stop"), "data: [DONE]\n\n"}));
  auto opts = options();
  opts.retry = {3, 1ms, 10ms};
  auto answer = call(opts, simple_request());
  ASSERT_TRUE(answer) << answer.err().message;
  EXPECT_EQ(answer->saying, "Hello");  // never "HelHello": the first attempt's text is void
  EXPECT_EQ(server_.requests().size(), 2u);
  ASSERT_EQ(sink_.events.size(), 6u);
  EXPECT_EQ(sink_.events[0], "saying_start");
  EXPECT_EQ(sink_.events[1], "saying: Hel");
  EXPECT_TRUE(contains(sink_.events[2], "discard: openai: ")) << sink_.events[2];
  EXPECT_TRUE(contains(sink_.events[2], "closed the connection mid-response")) << sink_.events[2];
  EXPECT_EQ(sink_.events[3], "saying_start");
  EXPECT_EQ(sink_.events[4], "saying: Hello");
  EXPECT_EQ(sink_.events[5], "saying_finish");
}

TEST_F(openai_provider_test, mid_stream_disconnect_on_the_last_attempt_is_an_error) {
  server_.push(fake_response::sse({delta(R"({"content":"Hel"})")}, fake_ending::disconnect));
  server_.push(fake_response::sse({delta(R"({"content":"He"})")}, fake_ending::disconnect));
  auto opts = options();
  opts.retry = {2, 1ms, 10ms};
  auto answer = call(opts, simple_request());
  ASSERT_FALSE(answer);
  EXPECT_EQ(answer.err().code, errc::provider_error);
  EXPECT_TRUE(contains(answer.err().message, "closed the connection mid-response")) << answer.err().message;
  EXPECT_EQ(server_.requests().size(), 2u);
  EXPECT_EQ(std::count_if(sink_.events.begin(), sink_.events.end(),
                          [](const std::string& e) { return e.rfind("discard: ", 0) == 0; }),
            1);
}

TEST_F(openai_provider_test, malformed_stream_is_not_asked_again) {
  // The stream's own content is wrong: asking again would only repeat it.
  server_.push(fake_response::sse({delta(R"({"content":"ok"})"), "data: {not json\n\n"}));
  auto opts = options();
  opts.retry = {3, 1ms, 10ms};
  auto answer = call(opts, simple_request());
  ASSERT_FALSE(answer);
  EXPECT_EQ(server_.requests().size(), 1u);
}

TEST_F(openai_provider_test, unknown_finish_reason_is_a_clear_error) {
  server_.push(fake_response::sse({delta(R"({"content":"half"})"), finish("banana"), "data: [DONE]\n\n"}));
  auto answer = call(options(), simple_request());
  ASSERT_FALSE(answer);
  EXPECT_EQ(answer.err().code, errc::provider_error);
  EXPECT_EQ(answer.err().message,
            "openai: the model ended with finish_reason 'banana', which is none of stop, length, tool_calls, "
            "content_filter");
}

TEST_F(openai_provider_test, compatible_servers_finish_reasons_get_the_engines_names) {
  for (const auto& [given, named] :
       std::vector<std::pair<std::string, std::string>>{{"stop", "stop"},
                                                        {"length", "length"},
                                                        {"content_filter", "content_filter"},
                                                        {"eos_token", "stop"},
                                                        {"stop_sequence", "stop"},
                                                        {"end_turn", "stop"},
                                                        {"model_length", "length"},
                                                        {"max_tokens", "length"}}) {
    server_.push(fake_response::sse({delta(R"({"content":"x"})"), finish(given)}));
    auto answer = call(options(), simple_request());
    ASSERT_TRUE(answer) << given << ": " << answer.err().message;
    EXPECT_EQ(answer->finish_reason, named) << given;
  }
}

TEST_F(openai_provider_test, stream_without_finish_or_done_is_an_error) {
  server_.push(fake_response::sse({delta(R"({"content":"cut"})")}));
  auto answer = call(options(), simple_request());
  ASSERT_FALSE(answer);
  EXPECT_TRUE(contains(answer.err().message, "stream ended before the model finished")) << answer.err().message;
}

TEST_F(openai_provider_test, silence_timeout_ends_a_stalled_stream) {
  server_.push(fake_response::sse({delta(R"({"content":"thinking..."})")}, fake_ending::never_end));
  auto opts = options();
  opts.timeouts.idle = 200ms;
  auto answer = call(opts, simple_request());
  ASSERT_FALSE(answer);
  EXPECT_EQ(answer.err().code, errc::provider_error);
  EXPECT_TRUE(contains(answer.err().message, "no data from")) << answer.err().message;
  EXPECT_TRUE(contains(answer.err().message, "for 200 ms")) << answer.err().message;
}

TEST_F(openai_provider_test, stop_during_endless_stream_returns_partial_interrupted) {
  server_.push(fake_response::sse({delta(R"({"reasoning_content":"hmm"})"), delta(R"({"content":"partial"})")},
                                  fake_ending::never_end));
  sink_.on_saying = [&](std::string_view) { boost::asio::post(io_, [&] { control_.stop(); }); };
  auto answer = call(options(), simple_request());
  ASSERT_TRUE(answer) << answer.err().message;
  EXPECT_EQ(answer->finish_reason, "interrupted");
  EXPECT_EQ(answer->thinking, "hmm");
  EXPECT_EQ(answer->saying, "partial");
  EXPECT_EQ(sink_.events.back(), "saying_finish");
}

TEST_F(openai_provider_test, stop_from_inside_the_sink_delivers_nothing_more) {
  server_.push(fake_response::sse({delta(R"({"content":"a"})") + delta(R"({"content":"b"})")}, fake_ending::never_end));
  sink_.on_saying = [&](std::string_view) { control_.stop(); };
  auto answer = call(options(), simple_request());
  ASSERT_TRUE(answer) << answer.err().message;
  EXPECT_EQ(answer->finish_reason, "interrupted");
  EXPECT_EQ(answer->saying, "a");
}

TEST_F(openai_provider_test, stopped_before_start_sends_nothing) {
  control_.stop();
  auto answer = call(options(), simple_request());
  ASSERT_TRUE(answer) << answer.err().message;
  EXPECT_EQ(answer->finish_reason, "interrupted");
  EXPECT_TRUE(server_.requests().empty());
}

// Found by fuzz/sse_fuzzer.cpp: the chunk was quoted byte for byte, and cut after 200 bytes even
// inside a character; the error is logged (drive_failed), and the log takes only UTF-8.
TEST_F(openai_provider_test, invalid_chunk_is_quoted_as_utf8) {
  std::string long_chunk = "data: {\"choices\": \xFF";
  for (int i = 0; i < 100; ++i) long_chunk += "\xE9\x94\x99";
  server_.push(fake_response::sse({delta(R"({"content":"a"})"), long_chunk + "\n\n"}));
  auto answer = call(options(), simple_request());
  ASSERT_FALSE(answer);
  EXPECT_TRUE(contains(answer.err().message, "invalid JSON in stream chunk")) << answer.err().message;
  EXPECT_TRUE(is_valid_utf8(answer.err().message)) << answer.err().message;
  EXPECT_TRUE(contains(answer.err().message, "\xEF\xBF\xBD")) << answer.err().message;
}

}  // namespace
}  // namespace parley::llm

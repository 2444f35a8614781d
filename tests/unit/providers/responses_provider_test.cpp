#include <gtest/gtest.h>

#include <boost/json.hpp>

#include "parley/llm/remote_options.hpp"
#include "parley/llm/responses/responses_provider.hpp"
#include "parley/llm/responses/responses_reasoning.hpp"
#include "provider_fixture.hpp"
#include "recording_sink.hpp"
#include "responses_events.hpp"
#include "support/fake_http_server.hpp"
#include "support/run_awaitable.hpp"
#include "support/text_contains.hpp"

namespace parley::llm {
namespace {

using namespace std::chrono_literals;
using namespace parley::llm::responses_events;
using parley::testing::contains;
using testing::fake_response;
using testing::recording_sink;
using testing::run_awaitable;

class responses_provider_test : public testing::provider_fixture<responses_options, &make_responses_provider> {
 protected:
  static model_request simple_request() { return request_to("gpt-5"); }
};

TEST_F(responses_provider_test, streams_reasoning_summary_then_text_with_usage_and_keeps_the_reasoning_item) {
  server_.push(fake_response::sse({
      responses_created(),
      responses_event("response.in_progress", R"("response":{"id":"resp_1","status":"in_progress"})"),
      item_added(R"({"type":"reasoning","id":"rs_1","summary":[]})"),
      responses_event(
          "response.reasoning_summary_part.added",
          R"("item_id":"rs_1","output_index":0,"summary_index":0,"part":{"type":"summary_text","text":""})"),
      summary_delta("rs_1", 0, "Reading "),
      summary_delta("rs_1", 0, "the question."),
      summary_delta("rs_1", 1, "Answer briefly."),
      item_done(R"({"type":"reasoning","id":"rs_1","encrypted_content":"gAAAA-enc-1",)"
                R"("summary":[{"type":"summary_text","text":"Reading the question."},)"
                R"({"type":"summary_text","text":"Answer briefly."}]})"),
      item_added(R"({"type":"message","id":"msg_1","status":"in_progress","role":"assistant","content":[]})"),
      text_delta("Hel"),
      text_delta("lo!"),
      responses_event("response.future_event_type", R"("anything":[1,2,3])"),
      responses_completed(R"({"input_tokens":120,"input_tokens_details":{"cached_tokens":100},)"
                          R"("output_tokens":30,"output_tokens_details":{"reasoning_tokens":12},"total_tokens":150})"),
  }));
  auto answer = call(options(), simple_request());
  ASSERT_TRUE(answer) << answer.err().message;
  EXPECT_EQ(answer->thinking, "Reading the question.\n\nAnswer briefly.");
  EXPECT_EQ(answer->saying, "Hello!");
  EXPECT_EQ(answer->finish_reason, "stop");
  EXPECT_EQ(answer->usage.input_tokens, 120);
  EXPECT_EQ(answer->usage.cached_tokens, 100);
  EXPECT_EQ(answer->usage.output_tokens, 30);
  EXPECT_EQ(answer->usage.reasoning_tokens, 12);
  const auto items = responses::decode_reasoning_items(answer->thinking_signature);
  ASSERT_TRUE(items) << answer->thinking_signature;
  const std::vector<responses::reasoning_item> expected_items{
      {"rs_1", "gAAAA-enc-1", {"Reading the question.", "Answer briefly."}}};
  EXPECT_EQ(*items, expected_items);
  const std::vector<std::string> expected = {"thinking_start",
                                             "thinking: Reading ",
                                             "thinking: the question.",
                                             "thinking: \n\n",
                                             "thinking: Answer briefly.",
                                             "thinking_finish",
                                             "saying_start",
                                             "saying: Hel",
                                             "saying: lo!",
                                             "saying_finish"};
  EXPECT_EQ(sink_.events, expected);
  const auto sent = server_.requests().at(0);
  EXPECT_EQ(sent.target, "/v1/responses");
  EXPECT_EQ(sent.header("authorization"), "Bearer sk-test");
}

TEST_F(responses_provider_test, a_function_call_is_announced_when_its_item_is_done) {
  server_.push(fake_response::sse({
      responses_created(),
      item_added(R"({"type":"function_call","id":"fc_1","call_id":"call_A","name":"read_file","arguments":""})"),
      responses_event("response.function_call_arguments.delta", R"("item_id":"fc_1","output_index":0,"delta":"{\"pa")"),
      responses_event("response.function_call_arguments.delta",
                      R"("item_id":"fc_1","output_index":0,"delta":"th\":\"a.txt\"}")"),
      responses_event("response.function_call_arguments.done",
                      R"("item_id":"fc_1","output_index":0,"arguments":"{\"path\":\"a.txt\"}")"),
      item_done(R"({"type":"function_call","id":"fc_1","call_id":"call_A","name":"read_file",)"
                R"("arguments":"{\"path\":\"a.txt\"}","status":"completed"})"),
      responses_completed(),
  }));
  auto answer = call(options(), simple_request());
  ASSERT_TRUE(answer) << answer.err().message;
  ASSERT_EQ(answer->tool_calls.size(), 1u);
  EXPECT_EQ(answer->tool_calls[0].id, "call_A");
  EXPECT_EQ(answer->tool_calls[0].name, "read_file");
  EXPECT_EQ(answer->tool_calls[0].arguments, R"({"path":"a.txt"})");
  EXPECT_EQ(answer->finish_reason, "tool_calls");
  EXPECT_EQ(sink_.events, std::vector<std::string>{R"(tool_call call_A read_file {"path":"a.txt"})"});
}

TEST_F(responses_provider_test, an_incomplete_response_keeps_its_text_and_ends_with_length) {
  server_.push(fake_response::sse({
      responses_created(),
      text_delta("Cut sh"),
      responses_event(
          "response.incomplete",
          R"("response":{"id":"resp_1","status":"incomplete",)"
          R"("incomplete_details":{"reason":"max_output_tokens"},"usage":{"input_tokens":5,"output_tokens":9}})"),
  }));
  auto answer = call(options(), simple_request());
  ASSERT_TRUE(answer) << answer.err().message;
  EXPECT_EQ(answer->saying, "Cut sh");
  EXPECT_EQ(answer->finish_reason, "length");
  EXPECT_EQ(answer->usage.output_tokens, 9);
}

TEST_F(responses_provider_test, a_failed_response_is_an_error_with_the_apis_message) {
  server_.push(fake_response::sse({
      responses_created(),
      text_delta("partial"),
      responses_event("response.failed", R"("response":{"id":"resp_1","status":"failed",)"
                                         R"("error":{"code":"server_error","message":"The model failed."}})"),
  }));
  auto answer = call(options(), simple_request());
  ASSERT_FALSE(answer);
  EXPECT_EQ(answer.err().code, errc::provider_error);
  EXPECT_EQ(answer.err().message, "openai-responses: response failed: server_error: The model failed.");
}

TEST_F(responses_provider_test, an_error_event_is_an_error) {
  server_.push(fake_response::sse(
      {responses_created(),
       responses_event("error", R"("code":"rate_limit_exceeded","message":"Slow down","param":null)")}));
  auto answer = call(options(), simple_request());
  ASSERT_FALSE(answer);
  EXPECT_EQ(answer.err().message, "openai-responses: error in stream: rate_limit_exceeded: Slow down");
}

TEST_F(responses_provider_test, a_malformed_known_event_is_an_error_naming_the_field) {
  server_.push(fake_response::sse(
      {responses_created(), responses_event("response.output_text.delta", R"("item_id":"msg_1","delta":42)")}));
  auto answer = call(options(), simple_request());
  ASSERT_FALSE(answer);
  EXPECT_EQ(answer.err().code, errc::provider_error);
  EXPECT_TRUE(contains(answer.err().message, "'response.output_text.delta.delta'")) << answer.err().message;
  EXPECT_TRUE(contains(answer.err().message, "expected a string")) << answer.err().message;
}

TEST_F(responses_provider_test, arguments_for_an_item_never_added_are_an_error) {
  server_.push(
      fake_response::sse({responses_created(), responses_event("response.function_call_arguments.delta",
                                                               R"("item_id":"fc_9","output_index":0,"delta":"{")")}));
  auto answer = call(options(), simple_request());
  ASSERT_FALSE(answer);
  EXPECT_TRUE(contains(answer.err().message, "item 'fc_9' that was not added")) << answer.err().message;
}

TEST_F(responses_provider_test, a_stream_that_ends_before_completed_is_an_error) {
  server_.push(fake_response::sse({responses_created(), text_delta("cut")}));
  auto answer = call(options(), simple_request());
  ASSERT_FALSE(answer);
  EXPECT_TRUE(contains(answer.err().message, "stream ended before response.completed")) << answer.err().message;
}

TEST_F(responses_provider_test, throttling_and_server_errors_are_retried) {
  fake_response throttled = fake_response::json(R"({"error":{"message":"Rate limit reached","type":"requests"}})", 429);
  throttled.headers.emplace_back("Retry-After", "0");
  fake_response broken = fake_response::json(R"({"error":{"message":"oops","type":"server_error"}})", 500);
  server_.push(throttled);
  server_.push(broken);
  server_.push(fake_response::sse({responses_created(), text_delta("third try"), responses_completed()}));
  auto opts = options();
  opts.retry = {3, 1ms, 10ms};
  auto answer = call(opts, simple_request());
  ASSERT_TRUE(answer) << answer.err().message;
  EXPECT_EQ(answer->saying, "third try");
  EXPECT_EQ(server_.requests().size(), 3u);
}

TEST_F(responses_provider_test, a_bad_request_is_not_retried_and_quotes_the_api) {
  server_.push(fake_response::json(
      R"({"error":{"message":"Unsupported parameter: 'temperature'","type":"invalid_request_error","param":"temperature"}})",
      400));
  auto opts = options();
  opts.retry = {3, 1ms, 10ms};
  auto answer = call(opts, simple_request());
  ASSERT_FALSE(answer);
  EXPECT_EQ(provider_http_status(answer.err()), 400);
  EXPECT_FALSE(is_retryable(answer.err()));
  EXPECT_TRUE(contains(answer.err().message, "openai-responses: HTTP 400")) << answer.err().message;
  EXPECT_TRUE(contains(answer.err().message, "invalid_request_error: Unsupported parameter: 'temperature'"))
      << answer.err().message;
  EXPECT_EQ(server_.requests().size(), 1u);
}

TEST_F(responses_provider_test, a_whole_response_is_assembled) {
  server_.push(fake_response::json(R"({
    "id": "resp_2", "object": "response", "status": "completed",
    "output": [
      {"type": "reasoning", "id": "rs_2", "encrypted_content": "enc-2",
       "summary": [{"type": "summary_text", "text": "Quick."}]},
      {"type": "message", "id": "msg_2", "role": "assistant", "status": "completed",
       "content": [{"type": "output_text", "text": "Listing.", "annotations": []}]},
      {"type": "function_call", "id": "fc_2", "call_id": "call_9", "name": "list_dir", "arguments": "{\"path\":\".\"}"}],
    "usage": {"input_tokens": 10, "output_tokens": 4}
  })"));
  auto opts = options();
  opts.streaming = false;
  auto answer = call(opts, simple_request());
  ASSERT_TRUE(answer) << answer.err().message;
  EXPECT_EQ(answer->thinking, "Quick.");
  EXPECT_EQ(answer->saying, "Listing.");
  ASSERT_EQ(answer->tool_calls.size(), 1u);
  EXPECT_EQ(answer->tool_calls[0].id, "call_9");
  EXPECT_EQ(answer->finish_reason, "tool_calls");
  EXPECT_EQ(answer->usage.input_tokens, 10);
  const auto items = responses::decode_reasoning_items(answer->thinking_signature);
  ASSERT_TRUE(items);
  EXPECT_EQ(items->at(0).encrypted_content, "enc-2");
  EXPECT_FALSE(boost::json::parse(server_.requests().at(0).body).as_object().at("stream").as_bool());
}

}  // namespace
}  // namespace parley::llm

// The Responses API request the provider sends: input items for a tool round trip with the
// reasoning items carried back, images, tools, parameters, and the Codex login's headers.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include <filesystem>
#include <fstream>

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

class responses_request_test : public testing::provider_fixture<responses_options, &make_responses_provider> {
 protected:
  boost::json::object sent_body(std::size_t index = 0) {
    return boost::json::parse(server_.requests().at(index).body).as_object();
  }
};

TEST_F(responses_request_test, a_tool_round_trip_sends_the_call_its_output_and_the_reasoning_items_back) {
  // Turn 1: the model thinks and calls a tool.
  server_.push(fake_response::sse({
      responses_created(),
      item_done(R"({"type":"reasoning","id":"rs_1","encrypted_content":"enc-1",)"
                R"("summary":[{"type":"summary_text","text":"Need the file."}]})"),
      item_added(R"({"type":"function_call","id":"fc_1","call_id":"call_A","name":"read_file","arguments":""})"),
      item_done(R"({"type":"function_call","id":"fc_1","call_id":"call_A","name":"read_file",)"
                R"("arguments":"{\"path\":\"a.txt\"}"})"),
      responses_completed(),
  }));
  model_request request;
  request.model = "gpt-5";
  request.system_prompt = "You are terse.";
  request.messages.push_back({role::user, "What is in a.txt?"});
  auto first = call(options(), request);
  ASSERT_TRUE(first) << first.err().message;

  // Turn 2: the engine sends the assistant turn as logged (thinking, its signature, the call) and
  // the tool's output.
  server_.push(fake_response::sse({responses_created(), text_delta("It says hi."), responses_completed()}));
  chat_message assistant{role::assistant, ""};
  assistant.thinking = first->thinking;
  assistant.thinking_signature = first->thinking_signature;
  assistant.tool_calls = first->tool_calls;
  request.messages.push_back(assistant);
  chat_message output{role::tool, "hi"};
  output.tool_call_id = "call_A";
  output.name = "read_file";
  request.messages.push_back(output);
  auto second = call(options(), request);
  ASSERT_TRUE(second) << second.err().message;

  const auto expected = boost::json::parse(R"({
    "model": "gpt-5", "instructions": "You are terse.",
    "input": [
      {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "What is in a.txt?"}]},
      {"type": "reasoning", "summary": [{"type": "summary_text", "text": "Need the file."}],
       "encrypted_content": "enc-1"},
      {"type": "function_call", "call_id": "call_A", "name": "read_file", "arguments": "{\"path\":\"a.txt\"}"},
      {"type": "function_call_output", "call_id": "call_A", "output": "hi"}],
    "store": false, "include": ["reasoning.encrypted_content"], "stream": true
  })");
  EXPECT_EQ(boost::json::value(sent_body(1)), expected) << server_.requests().at(1).body;
}

TEST_F(responses_request_test, tools_images_and_parameters_have_the_apis_shape) {
  server_.push(fake_response::sse({responses_created(), responses_completed()}));
  model_request request;
  request.model = "gpt-5";
  request.system_prompt = "Base.";
  request.messages.push_back({role::system, "Extra rule."});
  chat_message look{role::user, "What is this?"};
  look.media.push_back({media_kind::image, "image/png", "png", "iVBORw0KGgo="});
  request.messages.push_back(look);
  chat_message assistant{role::assistant, "A logo. Checking the other."};
  assistant.thinking = "unsigned thinking from another provider";
  assistant.thinking_signature = "EqQBCgIYAhIM";  // Anthropic's: not sent here
  assistant.tool_calls = {{"call_B", "read_file", ""}};
  request.messages.push_back(assistant);
  chat_message image{role::tool, "'b.png': a PNG image"};
  image.tool_call_id = "call_B";
  image.media.push_back({media_kind::image, "image/png", "png", "AAAA"});
  request.messages.push_back(image);
  request.tools = std::make_shared<const std::vector<tool_spec>>(std::vector<tool_spec>{
      {"read_file", "Reads a file",
       boost::json::parse(R"({"type":"object","properties":{"path":{"type":"string"}}})").as_object()},
      {"now", "The time", {}}});
  request.params = boost::json::parse(
                       R"({"temperature": 0.2, "max_tokens": 900,
                           "codex": {"reasoning_effort": "high", "reasoning_summary": "auto", "verbosity": "low"}})")
                       .as_object();
  ASSERT_TRUE(call(options(), request));

  const auto expected = boost::json::parse(R"({
    "temperature": 0.2, "max_output_tokens": 900,
    "reasoning": {"effort": "high", "summary": "auto"}, "text": {"verbosity": "low"},
    "model": "gpt-5", "instructions": "Base.\n\nExtra rule.",
    "input": [
      {"type": "message", "role": "user", "content": [
        {"type": "input_image", "image_url": "data:image/png;base64,iVBORw0KGgo="},
        {"type": "input_text", "text": "What is this?"}]},
      {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "A logo. Checking the other."}]},
      {"type": "function_call", "call_id": "call_B", "name": "read_file", "arguments": "{}"},
      {"type": "function_call_output", "call_id": "call_B", "output": [
        {"type": "input_text", "text": "'b.png': a PNG image"},
        {"type": "input_image", "image_url": "data:image/png;base64,AAAA"}]}],
    "store": false, "include": ["reasoning.encrypted_content"], "stream": true,
    "tools": [
      {"type": "function", "name": "read_file", "description": "Reads a file",
       "parameters": {"type": "object", "properties": {"path": {"type": "string"}}}, "strict": false},
      {"type": "function", "name": "now", "description": "The time",
       "parameters": {"type": "object", "properties": {}}, "strict": false}]
  })");
  EXPECT_EQ(boost::json::value(sent_body()), expected) << server_.requests().at(0).body;
}

TEST_F(responses_request_test, a_codex_parameter_of_the_wrong_type_is_refused_before_sending) {
  model_request request;
  request.model = "gpt-5";
  request.messages.push_back({role::user, "Hi"});
  request.params = boost::json::parse(R"({"codex": {"reasoning_effort": 3}})").as_object();
  auto answer = call(options(), request);
  ASSERT_FALSE(answer);
  EXPECT_TRUE(contains(answer.err().message, "model_params.codex.reasoning_effort")) << answer.err().message;
  EXPECT_TRUE(server_.requests().empty());
}

class codex_login_test : public responses_request_test {
 protected:
  void SetUp() override {
    home_ = std::filesystem::temp_directory_path() /
            ("parley-codex-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(home_);
  }
  void TearDown() override { std::filesystem::remove_all(home_); }

  responses_options codex_options() {
    auto opts = options();
    opts.base_url = server_.base_url() + "/backend-api/codex";
    opts.api_key.clear();
    opts.auth = responses_auth::codex_login;
    opts.codex_home = home_;
    return opts;
  }

  std::filesystem::path home_;
};

TEST_F(codex_login_test, the_chatgpt_login_of_codex_cli_signs_the_request) {
  std::ofstream(home_ / "auth.json") << R"({"OPENAI_API_KEY": null, "last_refresh": "2026-12-01T00:00:00Z",
      "tokens": {"id_token": "idt", "access_token": "at-123", "refresh_token": "rt", "account_id": "acct-9"}})";
  server_.push(fake_response::sse({responses_created(), text_delta("ok"), responses_completed()}));
  model_request request;
  request.model = "gpt-5.2";
  request.messages.push_back({role::user, "Hi"});
  auto provider = make_responses_provider(codex_options());
  EXPECT_EQ(provider->kind(), "codex");
  auto answer = run_awaitable(io_, provider->stream(request, sink_, control_));
  ASSERT_TRUE(answer) << answer.err().message;
  const auto sent = server_.requests().at(0);
  EXPECT_EQ(sent.target, "/backend-api/codex/responses");
  EXPECT_EQ(sent.header("authorization"), "Bearer at-123");
  EXPECT_EQ(sent.header("chatgpt-account-id"), "acct-9");
  EXPECT_EQ(sent.header("openai-beta"), "responses=experimental");
}

TEST_F(codex_login_test, without_a_login_the_call_fails_saying_how_to_sign_in_and_sends_nothing) {
  model_request request;
  request.model = "gpt-5.2";
  request.messages.push_back({role::user, "Hi"});
  auto answer = call(codex_options(), request);
  ASSERT_FALSE(answer);
  EXPECT_TRUE(contains(answer.err().message, "codex: cannot read")) << answer.err().message;
  EXPECT_TRUE(contains(answer.err().message, "codex login")) << answer.err().message;
  std::ofstream(home_ / "auth.json") << R"({"OPENAI_API_KEY": "sk-only-a-key", "tokens": null})";
  answer = call(codex_options(), request);
  ASSERT_FALSE(answer);
  EXPECT_TRUE(contains(answer.err().message, "holds no ChatGPT login")) << answer.err().message;
  std::ofstream(home_ / "auth.json") << R"({"tokens": {"access_token": "a\r\nX-Evil: 1"}})";
  answer = call(codex_options(), request);
  ASSERT_FALSE(answer);
  EXPECT_TRUE(contains(answer.err().message, "characters a token has not")) << answer.err().message;
  EXPECT_TRUE(server_.requests().empty());
}

}  // namespace
}  // namespace parley::llm

// Item 4 of issue 26: a Dominds `apiType: google` provider is spoken through Gemini's
// OpenAI-compatible endpoint — `<baseUrl>/v1beta/openai/chat/completions`, the key as a bearer
// token — checked on the wire against a fake HTTP server, through the same assembly the CLI uses.
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <boost/json/parse.hpp>

#include <cstdlib>
#include <string>

#include "parley/config/team.hpp"
#include "parley/engine/assembly.hpp"
#include "support/fake_http_server.hpp"
#include "support/run_awaitable.hpp"
#include "unit/config/temp_tree.hpp"

namespace parley {
namespace {

using testing::fake_response;

class gemini_fixture : public ::testing::Test {
 protected:
  void SetUp() override {
    ::setenv("PARLEY_TEST_GEMINI_KEY", "gm-test-key", 1);
    ::setenv("NO_PROXY", "127.0.0.1", 1);  // the fake server is local whatever proxy the machine has
    ::setenv("no_proxy", "127.0.0.1", 1);
  }
  void TearDown() override { ::unsetenv("PARLEY_TEST_GEMINI_KEY"); }

  config::testing::temp_tree tree_;
  testing::fake_http_server server_;
  boost::asio::io_context io_;
};
using Gemini = gemini_fixture;

class null_sink : public llm::stream_sink {};

TEST_F(Gemini, GoogleApiTypeSpeaksTheOpenaiCompatibleEndpoint) {
  // Dominds' baseUrl for Gemini is the API root; a trailing slash is allowed.
  tree_.write(".minds/llm.yaml", "providers:\n  google:\n    apiType: google\n    baseUrl: " + server_.base_url() +
                                     "/\n    apiKeyEnvVar: PARLEY_TEST_GEMINI_KEY\n    models:\n"
                                     "      gemini-2.5-flash: {context_length: 1048576}\n");
  tree_.write(".minds/team.yaml", "members:\n  alice:\n    provider: google\n    streaming: false\n");
  auto team = config::load_dominds_workspace(tree_.root());
  ASSERT_TRUE(team) << team.err().message;
  auto providers = engine::build_providers(*team);
  ASSERT_TRUE(providers) << providers.err().message;
  const auto found = providers->find("google");
  ASSERT_NE(found, providers->end());
  EXPECT_EQ(found->second->kind(), "openai");

  server_.push(fake_response::json(
      R"({"id":"c1","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant",)"
      R"("content":"Hello from Gemini"},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":3}})"));
  llm::model_request request;
  request.model = team->members[0].model;
  request.stream = false;
  request.messages.push_back({llm::role::user, "Hi"});
  null_sink sink;
  llm::generation_control control;
  auto answer = testing::run_awaitable(io_, found->second->stream(request, sink, control));
  ASSERT_TRUE(answer) << answer.err().message;
  EXPECT_EQ(answer->saying, "Hello from Gemini");
  EXPECT_EQ(answer->finish_reason, "stop");

  const auto received = server_.requests();
  ASSERT_EQ(received.size(), 1U);
  EXPECT_EQ(received[0].method, "POST");
  EXPECT_EQ(received[0].target, "/v1beta/openai/chat/completions");
  EXPECT_EQ(received[0].header("Authorization"), "Bearer gm-test-key");
  const auto body = boost::json::parse(received[0].body).as_object();
  EXPECT_EQ(body.at("model").as_string(), "gemini-2.5-flash");
}

TEST_F(Gemini, ABaseUrlNamingTheOpenaiEndpointIsKept) {
  tree_.write(".minds/llm.yaml",
              "providers:\n  gem:\n    apiType: google\n    baseUrl: https://gw.example/v1beta/openai\n"
              "    models: [g]\n");
  tree_.write(".minds/team.yaml", "members:\n  alice:\n    provider: gem\n");
  auto team = config::load_dominds_workspace(tree_.root());
  ASSERT_TRUE(team) << team.err().message;
  ASSERT_NE(team->find_provider("gem"), nullptr);
  EXPECT_EQ(team->find_provider("gem")->base_url, "https://gw.example/v1beta/openai");
  EXPECT_EQ(team->find_provider("gem")->api_key_env, "GEMINI_API_KEY");
}

}  // namespace
}  // namespace parley

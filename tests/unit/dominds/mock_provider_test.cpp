// Dominds' `apiType: mock` read as the scripted model, with a workspace written the way Dominds'
// own tests write theirs: `.minds/llm.yaml` names a provider `local-mock` whose baseUrl `mock-db`
// is a folder of <model>.yaml databases, relative to the workspace.
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>

#include <string>

#include "parley/config/team.hpp"
#include "parley/engine/assembly.hpp"
#include "support/run_awaitable.hpp"
#include "unit/config/temp_tree.hpp"

namespace parley {
namespace {

class mock_sink : public llm::stream_sink {};

class mock_provider_fixture : public ::testing::Test {
 protected:
  void SetUp() override {
    tree_.write(".minds/llm.yaml",
                "providers:\n  local-mock:\n    name: Local Mock\n    apiType: mock\n    baseUrl: mock-db\n"
                "    apiKeyEnvVar: MOCK_API_KEY\n    models:\n      default:\n        name: Default\n");
    tree_.write(".minds/team.yaml",
                "member_defaults:\n  provider: local-mock\n  model: default\nmembers:\n  pangu: {}\n");
  }

  result<llm::model_response> ask(const std::vector<llm::chat_message>& messages, std::string model = "default") {
    auto team = config::load_dominds_workspace(tree_.root());
    if (!team) return std::move(team).err();
    auto providers = engine::build_providers(*team);
    if (!providers) return std::move(providers).err();
    const auto found = providers->find("local-mock");
    EXPECT_NE(found, providers->end());
    EXPECT_EQ(found->second->kind(), "mock");
    llm::model_request request;
    request.member_id = "pangu";
    request.model = std::move(model);
    request.messages = messages;
    mock_sink sink;
    llm::generation_control control;
    return testing::run_awaitable(io_, found->second->stream(request, sink, control));
  }

  config::testing::temp_tree tree_;
  boost::asio::io_context io_;
};
using DomindsMock = mock_provider_fixture;

TEST_F(DomindsMock, AnEntryAnswersItsMessageByRoleIgnoringCaseAndSurroundingSpace) {
  tree_.write("mock-db/default.yaml", R"(responses:
  # docs/e2e-story-test/basics.md: Step 1
  - message: "Hello"
    role: "user"
    response: "Hi there!"
    thinkingResponse: "A greeting."
    usage: {promptTokens: 11, completionTokens: 3}
  - message: "read the notes"
    role: "user"
    response: ""
    funcCalls:
      - {id: call_1, name: read_file, arguments: {path: notes.md}}
  - message: "notes: sunny"
    role: "tool"
    response: "It is sunny."
)");
  auto hello = ask({{llm::role::user, "  hello \n"}});
  ASSERT_TRUE(hello) << hello.err().message;
  EXPECT_EQ(hello->saying, "Hi there!");
  EXPECT_EQ(hello->thinking, "A greeting.");
  EXPECT_EQ(hello->usage.input_tokens, 11);
  EXPECT_EQ(hello->usage.output_tokens, 3);

  auto call = ask({{llm::role::user, "Read the notes"}});
  ASSERT_TRUE(call) << call.err().message;
  ASSERT_EQ(call->tool_calls.size(), 1U);
  EXPECT_EQ(call->tool_calls[0].id, "call_1");
  EXPECT_EQ(call->tool_calls[0].name, "read_file");
  EXPECT_EQ(call->tool_calls[0].arguments, R"({"path":"notes.md"})");

  llm::chat_message assistant{llm::role::assistant, ""};
  assistant.tool_calls = call->tool_calls;
  llm::chat_message output{llm::role::tool, "notes: sunny"};
  output.tool_call_id = "call_1";
  auto after_tool = ask({{llm::role::user, "Read the notes"}, assistant, output});
  ASSERT_TRUE(after_tool) << after_tool.err().message;
  EXPECT_EQ(after_tool->saying, "It is sunny.");
}

TEST_F(DomindsMock, TheLastEqualEntryWhoseContextHoldsWinsAndNoMatchSaysSo) {
  tree_.write("mock-db/default.yaml", R"(responses:
  - {message: "next", role: "user", response: "first"}
  - {message: "next", role: "user", response: "second", contextContains: ["phase two"]}
)");
  auto plain = ask({{llm::role::user, "next"}});
  ASSERT_TRUE(plain) << plain.err().message;
  EXPECT_EQ(plain->saying, "first");
  auto later = ask({{llm::role::user, "we are in phase two"}, {llm::role::assistant, "ok"}, {llm::role::user, "next"}});
  ASSERT_TRUE(later) << later.err().message;
  EXPECT_EQ(later->saying, "second");
  auto unknown = ask({{llm::role::user, "something else"}});
  ASSERT_TRUE(unknown) << unknown.err().message;
  EXPECT_NE(unknown->saying.find("Mock Response Not Found"), std::string::npos) << unknown->saying;
  EXPECT_NE(unknown->saying.find("default.yaml"), std::string::npos) << unknown->saying;
}

TEST_F(DomindsMock, AMissingDatabaseAnswersNotFoundAndABadOneOrModelIsAnErrorWhenDriven) {
  auto missing = ask({{llm::role::user, "hello"}});
  ASSERT_TRUE(missing) << missing.err().message;
  EXPECT_NE(missing->saying.find("Mock Response Not Found"), std::string::npos);

  tree_.write("mock-db/default.yaml", "responses:\n  - role: user\n    response: no message\n");
  auto bad = ask({{llm::role::user, "hello"}});
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.err().code, errc::config_error);
  EXPECT_NE(bad.err().message.find("default.yaml:2:"), std::string::npos) << bad.err().message;
  EXPECT_NE(bad.err().message.find("message"), std::string::npos) << bad.err().message;

  auto escape = ask({{llm::role::user, "hello"}}, "../secrets");
  ASSERT_FALSE(escape);
  EXPECT_NE(escape.err().message.find("does not name a database file"), std::string::npos) << escape.err().message;
}

}  // namespace
}  // namespace parley

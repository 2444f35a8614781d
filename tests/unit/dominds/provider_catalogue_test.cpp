// Item 3 of issue 26: Parley's built-in provider catalogue stands in for Dominds' own, so a
// workspace names `deepseek` or `openai` without an llm.yaml; `.minds/llm.yaml` overrides a
// provider whole and adds others; an llm.yaml provider Parley cannot use is skipped with one notice.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "parley/config/provider_catalogue.hpp"
#include "parley/config/team.hpp"
#include "unit/config/temp_tree.hpp"

namespace parley::config {
namespace {

using testing::temp_tree;

class provider_catalogue_fixture : public ::testing::Test {
 protected:
  std::string error_of() {
    auto team = load_dominds_workspace(tree_.root());
    if (team) {
      ADD_FAILURE() << "expected an error, the workspace loaded";
      return {};
    }
    return team.err().message;
  }
  std::string file(std::string_view name) const { return (tree_.root() / ".minds" / name).string(); }

  temp_tree tree_;
};
using ProviderCatalogue = provider_catalogue_fixture;

const provider_entry* entry_of(const team_config& team, std::string_view id) {
  for (const auto& entry : team.provider_entries) {
    if (entry.config.id == id) return &entry;
  }
  return nullptr;
}

TEST_F(ProviderCatalogue, EveryBuiltInProviderHasItsFacts) {
  auto providers = builtin_providers();
  ASSERT_TRUE(providers) << providers.err().message;
  ASSERT_GE(providers->size(), 14U);
  for (const auto& entry : *providers) {
    SCOPED_TRACE(entry.config.id);
    EXPECT_FALSE(entry.name.empty());
    EXPECT_FALSE(entry.api_type.empty());
    EXPECT_FALSE(entry.config.api_key_env.empty());
    EXPECT_EQ(entry.origin, "built-in");
    ASSERT_FALSE(entry.config.models.empty());
    ASSERT_EQ(entry.config.model_details.size(), entry.config.models.size());
    for (const auto& model : entry.config.model_details) EXPECT_GT(model.context_window, 0);
    // Usable, or unusable with a reason: never neither.
    EXPECT_NE(entry.config.kind == config::provider_kind::none, entry.unsupported.empty());
  }
}

TEST_F(ProviderCatalogue, DeepseekLoadsWithoutLlmYaml) {
  tree_.write(".minds/team.yaml",
              "members:\n  alice:\n    provider: deepseek\n    model: deepseek-v4-pro\n  bob:\n"
              "    provider: deepseek\n");
  auto team = load_dominds_workspace(tree_.root());
  ASSERT_TRUE(team) << team.err().message;
  // Only the built-in provider a member names is built; the catalogue stays listed.
  ASSERT_EQ(team->providers.size(), 1U);
  const provider_config& deepseek = team->providers[0];
  EXPECT_EQ(deepseek.id, "deepseek");
  EXPECT_EQ(deepseek.kind, config::provider_kind::anthropic);
  // Dominds' base URL is the Anthropic SDK's (before /v1); Parley's adapter appends only /messages.
  EXPECT_EQ(deepseek.base_url, "https://api.deepseek.com/anthropic/v1");
  EXPECT_EQ(deepseek.api_key_env, "DEEPSEEK_API_KEY");
  EXPECT_EQ(team->members[1].model, "deepseek-v4-flash");  // the provider's first model
  const model_info* model = team->find_model(team->members[0]);
  ASSERT_NE(model, nullptr);
  EXPECT_EQ(model->context_window, 1000000);
  EXPECT_GE(team->provider_entries.size(), 14U);
  EXPECT_TRUE(team->problems.empty());
}

TEST_F(ProviderCatalogue, OpenaiAndGeminiMapToChatCompletions) {
  tree_.write(".minds/team.yaml",
              "members:\n  alice:\n    provider: openai\n    model: gpt-5.2\n  bob:\n"
              "    provider: google\n    model: gemini-2.5-pro\n");
  auto team = load_dominds_workspace(tree_.root());
  ASSERT_TRUE(team) << team.err().message;
  const provider_config* openai = team->find_provider("openai");
  ASSERT_NE(openai, nullptr);
  EXPECT_EQ(openai->kind, config::provider_kind::openai);
  EXPECT_EQ(openai->base_url, "https://api.openai.com/v1");
  const provider_config* google = team->find_provider("google");
  ASSERT_NE(google, nullptr);
  EXPECT_EQ(google->kind, config::provider_kind::openai);
  EXPECT_EQ(google->base_url, "https://generativelanguage.googleapis.com/v1beta/openai");
  EXPECT_EQ(google->api_key_env, "GEMINI_API_KEY");
}

TEST_F(ProviderCatalogue, LlmYamlOverridesAProviderWholeAndAddsOthers) {
  tree_.write(".minds/llm.yaml", R"(providers:
  local:
    apiType: openai-compatible
    baseUrl: http://127.0.0.1:1234/v1/
    models: {small: {}}
  deepseek:
    apiType: openai-compatible
    baseUrl: https://gateway.example/v1
    apiKeyEnvVar: GATEWAY_KEY
    models:
      ds-gw: {context_length: 64000}
)");
  tree_.write(".minds/team.yaml", "members:\n  alice:\n    provider: deepseek\n");
  auto team = load_dominds_workspace(tree_.root());
  ASSERT_TRUE(team) << team.err().message;
  EXPECT_EQ(team->members[0].model, "ds-gw");  // the override's models, not the catalogue's
  const provider_config* deepseek = team->find_provider("deepseek");
  ASSERT_NE(deepseek, nullptr);
  EXPECT_EQ(deepseek->kind, config::provider_kind::openai);
  EXPECT_EQ(deepseek->base_url, "https://gateway.example/v1");
  EXPECT_EQ(deepseek->api_key_env, "GATEWAY_KEY");
  EXPECT_EQ(deepseek->models, std::vector<std::string>{"ds-gw"});
  // In place, as Dominds' {...defaults, ...workspace} keeps a replaced key's position.
  auto builtin = builtin_providers();
  ASSERT_TRUE(builtin);
  const auto position = [](const std::vector<provider_entry>& entries, std::string_view id) {
    return std::find_if(entries.begin(), entries.end(), [&](const auto& e) { return e.config.id == id; }) -
           entries.begin();
  };
  EXPECT_EQ(position(team->provider_entries, "deepseek"), position(*builtin, "deepseek"));
  EXPECT_EQ(team->provider_entries.back().config.id, "local");
  EXPECT_EQ(team->provider_entries.back().origin, file("llm.yaml") + ":2:3");
  EXPECT_EQ(team->provider_entries.back().config.base_url, "http://127.0.0.1:1234/v1");
  // llm.yaml's own providers are all built, used or not.
  EXPECT_NE(team->find_provider("local"), nullptr);
}

TEST_F(ProviderCatalogue, UnusableLlmYamlProviderIsSkippedWithOneNotice) {
  tree_.write(".minds/llm.yaml", R"(providers:
  bedrock:
    apiType: aws-bedrock
    models: {titan: {}}
  local:
    apiType: openai-compatible
    models: {small: {}}
)");
  tree_.write(".minds/team.yaml", "members:\n  alice:\n    provider: local\n");
  auto team = load_dominds_workspace(tree_.root());
  ASSERT_TRUE(team) << team.err().message;
  EXPECT_EQ(team->find_provider("bedrock"), nullptr);
  ASSERT_EQ(team->problems.size(), 1U);
  EXPECT_EQ(team->problems[0].text(),
            file("llm.yaml") +
                ":2:3: providers.bedrock: skipped, not usable by Parley: Parley does not speak "
                "apiType 'aws-bedrock' (it speaks: openai, openai-compatible, google, anthropic, "
                "anthropic-compatible, openai-responses, codex or mock)");
  const provider_entry* listed = entry_of(*team, "bedrock");
  ASSERT_NE(listed, nullptr);
  EXPECT_EQ(listed->config.kind, config::provider_kind::none);
}

TEST_F(ProviderCatalogue, CodexSpeaksTheResponsesApiOfChatgptWithCodexCliLogin) {
  tree_.write(".minds/team.yaml", "member_defaults:\n  provider: codex\n  model: gpt-5.2\nmembers:\n  dev: {}\n");
  auto team = load_dominds_workspace(tree_.root());
  ASSERT_TRUE(team) << team.err().message;
  const auto* codex = team->find_provider("codex");
  ASSERT_NE(codex, nullptr);
  EXPECT_EQ(codex->kind, config::provider_kind::codex);
  EXPECT_EQ(codex->base_url, "https://chatgpt.com/backend-api/codex");
  EXPECT_EQ(codex->api_key_env, "CODEX_HOME");
}

TEST_F(ProviderCatalogue, OpenaiResponsesAndMockApiTypesAreSpoken) {
  tree_.write(".minds/llm.yaml", R"(providers:
  responses:
    apiType: openai-responses
    baseUrl: https://gateway.example/v1/
    apiKeyEnvVar: GATEWAY_KEY
    models: {gpt-5: {}}
  local-mock:
    apiType: mock
    baseUrl: mock-db
    apiKeyEnvVar: MOCK_API_KEY
    models: {default: {}}
)");
  tree_.write(".minds/team.yaml", "member_defaults:\n  provider: local-mock\n  model: default\nmembers:\n  dev: {}\n");
  auto team = load_dominds_workspace(tree_.root());
  ASSERT_TRUE(team) << team.err().message;
  const auto* responses = team->find_provider("responses");
  ASSERT_NE(responses, nullptr);
  EXPECT_EQ(responses->kind, config::provider_kind::openai_responses);
  EXPECT_EQ(responses->base_url, "https://gateway.example/v1");
  const auto* mock = team->find_provider("local-mock");
  ASSERT_NE(mock, nullptr);
  EXPECT_EQ(mock->kind, config::provider_kind::mock);
  EXPECT_EQ(mock->script, "mock-db");
}

TEST_F(ProviderCatalogue, UnknownModelNamesTheProvidersModels) {
  tree_.write(".minds/team.yaml", "members:\n  alice:\n    provider: kimi-code\n    model: kimi-for-codin\n");
  EXPECT_EQ(error_of(), file("team.yaml") +
                            ":4:12: members.alice.model: unknown model 'kimi-for-codin' (did you mean "
                            "'kimi-for-coding'?) (expected one of: kimi-for-coding) (the models of provider "
                            "'kimi-code')");
}

TEST_F(ProviderCatalogue, LlmYamlThatIsNotAMappingIsRefusedWithItsPosition) {
  tree_.write(".minds/team.yaml", "members:\n  alice:\n    provider: deepseek\n");
  tree_.write(".minds/llm.yaml", "- providers\n");
  const std::string message = error_of();
  EXPECT_EQ(message.rfind(file("llm.yaml") + ":1:1: ", 0), 0U) << message;
  tree_.write(".minds/llm.yaml", "providers:\n  local: openai\n");
  EXPECT_EQ(error_of(), file("llm.yaml") + ":2:10: providers.local: got 'openai' (expected a mapping)");
  tree_.write(".minds/llm.yaml", "providers:\n  local:\n    baseUrl: http://x\n");
  EXPECT_EQ(error_of(), file("llm.yaml") +
                            ":2:3: providers.local: missing required key 'apiType' (expected the provider's API "
                            "type)");
  tree_.write(".minds/llm.yaml", "providers:\n  local:\n    apiType: openai\n    models: 3\n");
  EXPECT_EQ(error_of(), file("llm.yaml") +
                            ":4:13: providers.local.models: got '3' (expected a mapping of model name to model "
                            "properties, or a list of model names)");
}

}  // namespace
}  // namespace parley::config

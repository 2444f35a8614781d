#include <gtest/gtest.h>

#include <boost/json/serialize.hpp>

#include <string>

#include "parley/config/team.hpp"
#include "team_file_fixture.hpp"

namespace parley::config {
namespace {

using TeamFile = testing::team_file_test;

constexpr std::string_view kFullTeam = R"(version: 1
default_member: helper
workspace: work
limits:
  max_message_bytes: 1024
providers:
  offline:
    kind: scripted
    script: script.yaml
    models: [scripted-1]
  openai:
    kind: openai
    base_url: http://127.0.0.1:8080/v1
    api_key_env: MY_OPENAI_KEY
    models: [gpt-4o-mini, gpt-4o]
  claude:
    kind: anthropic
members:
  lead:
    name: Lead
    persona: "You lead."
    gofor: "planning the release"
    nogo:
      Code: ask the helper
      Money: ask the human
    provider: offline
    model: scripted-1
    model_params:
      temperature: 0.2
      max_tokens: 512
      json: true
      label: "0.5"
      stop: [END, 3]
      extra: {mode: fast, depth: 2}
    tools: [read_file, write_file]
    toolsets: [workspace]
    max_tool_rounds: 8
    max_tellask_depth: 3
    streaming: false
    hidden: true
  helper:
    persona_file: personas/helper.md
    provider: claude
    model: claude-sonnet
)";

TEST_F(TeamFile, FullFileParsesEveryField) {
  tree_.write("personas/helper.md", "You help.\n");
  std::filesystem::create_directories(tree_.root() / "work");
  auto team = load(kFullTeam);
  ASSERT_TRUE(team) << team.err().message;

  EXPECT_EQ(team->source, tree_.root() / "team.yaml");
  EXPECT_EQ(team->base_dir, tree_.root());
  EXPECT_EQ(team->workspace, tree_.root() / "work");
  EXPECT_EQ(team->default_member, "helper");
  EXPECT_EQ(team->limits.max_message_bytes, 1024);

  ASSERT_EQ(team->providers.size(), 3U);
  const provider_config& offline = team->providers[0];
  EXPECT_EQ(offline.id, "offline");
  EXPECT_EQ(offline.kind, config::provider_kind::scripted);
  EXPECT_EQ(offline.script, tree_.root() / "script.yaml");
  EXPECT_EQ(offline.models, std::vector<std::string>{"scripted-1"});
  EXPECT_EQ(offline.base_url, "");
  const provider_config& openai = team->providers[1];
  EXPECT_EQ(openai.kind, config::provider_kind::openai);
  EXPECT_EQ(openai.base_url, "http://127.0.0.1:8080/v1");
  EXPECT_EQ(openai.api_key_env, "MY_OPENAI_KEY");
  EXPECT_EQ(openai.models, (std::vector<std::string>{"gpt-4o-mini", "gpt-4o"}));
  const provider_config& claude = team->providers[2];
  EXPECT_EQ(claude.kind, config::provider_kind::anthropic);
  EXPECT_EQ(claude.base_url, "https://api.anthropic.com/v1");
  EXPECT_EQ(claude.api_key_env, "ANTHROPIC_API_KEY");
  EXPECT_TRUE(claude.models.empty());

  EXPECT_EQ(team->member_ids(), (std::vector<std::string>{"lead", "helper"}));
  const member_config& lead = team->members[0];
  EXPECT_EQ(lead.name, "Lead");
  EXPECT_EQ(lead.persona, "You lead.");
  EXPECT_EQ(lead.provider, "offline");
  EXPECT_EQ(lead.model, "scripted-1");
  EXPECT_EQ(boost::json::serialize(lead.model_params),
            R"({"temperature":2E-1,"max_tokens":512,"json":true,"label":"0.5","stop":["END",3],)"
            R"("extra":{"mode":"fast","depth":2}})");
  EXPECT_TRUE(lead.model_params.at("max_tokens").is_int64());
  EXPECT_TRUE(lead.model_params.at("temperature").is_double());
  EXPECT_TRUE(lead.model_params.at("json").is_bool());
  EXPECT_TRUE(lead.model_params.at("label").is_string());
  EXPECT_EQ(lead.tools, (std::vector<std::string>{"read_file", "write_file"}));
  EXPECT_EQ(lead.toolsets, std::vector<std::string>{"workspace"});
  EXPECT_EQ(lead.max_tool_rounds, 8);
  EXPECT_EQ(lead.max_tellask_depth, 3);
  EXPECT_FALSE(lead.streaming);
  EXPECT_TRUE(lead.hidden);
  EXPECT_EQ(lead.gofor, std::vector<std::string>{"planning the release"});
  EXPECT_EQ(lead.nogo, (std::vector<std::string>{"Code: ask the helper", "Money: ask the human"}));

  const member_config& helper = team->members[1];
  EXPECT_EQ(helper.name, "helper");
  EXPECT_EQ(helper.persona, "You help.\n");
  EXPECT_EQ(helper.provider, "claude");
  EXPECT_EQ(helper.model, "claude-sonnet");
  EXPECT_TRUE(helper.model_params.empty());
  EXPECT_TRUE(helper.tools.empty());
  EXPECT_EQ(helper.max_tool_rounds, 16);
  EXPECT_EQ(helper.max_tellask_depth, 4);
  EXPECT_TRUE(helper.streaming);
  EXPECT_FALSE(helper.hidden);
  EXPECT_TRUE(helper.gofor.empty());
  EXPECT_TRUE(helper.nogo.empty());

  EXPECT_EQ(team->find_member("helper"), &team->members[1]);
  EXPECT_EQ(team->find_member("nobody"), nullptr);
  EXPECT_EQ(team->find_provider("openai"), &team->providers[1]);
  EXPECT_EQ(team->find_provider("nobody"), nullptr);
}

TEST_F(TeamFile, MembersMayBeAListWithIdsAndKeepTheirOrder) {
  auto team = load(R"(providers:
  offline: {kind: scripted, script: script.yaml}
members:
  - id: zed
    persona: Z
    provider: offline
    model: m1
  - id: amy
    name: Amy
    persona: A
    provider: offline
    model: m2
    max_tool_rounds: 2
)");
  ASSERT_TRUE(team) << team.err().message;
  EXPECT_EQ(team->member_ids(), (std::vector<std::string>{"zed", "amy"}));
  EXPECT_EQ(team->default_member, "zed");
  EXPECT_EQ(team->members[0].name, "zed");
  EXPECT_EQ(team->members[1].name, "Amy");
  EXPECT_EQ(team->members[1].model, "m2");
  EXPECT_EQ(team->members[1].max_tool_rounds, 2);
  EXPECT_EQ(team->workspace, tree_.root());
  EXPECT_EQ(team->limits.max_message_bytes, 64 * 1024);
}

TEST_F(TeamFile, ResponsesCodexAndMockKindsTakeTheirDefaults) {
  std::filesystem::create_directories(tree_.root() / "mock-db");
  auto team = load(R"(providers:
  gpt: {kind: openai-responses}
  chatgpt: {kind: codex}
  dominds: {kind: mock, script: mock-db}
members:
  a: {persona: A, provider: gpt, model: gpt-5}
)");
  ASSERT_TRUE(team) << team.err().message;
  const auto* gpt = team->find_provider("gpt");
  ASSERT_NE(gpt, nullptr);
  EXPECT_EQ(gpt->kind, provider_kind::openai_responses);
  EXPECT_EQ(gpt->base_url, "https://api.openai.com/v1");
  EXPECT_EQ(gpt->api_key_env, "OPENAI_API_KEY");
  const auto* chatgpt = team->find_provider("chatgpt");
  ASSERT_NE(chatgpt, nullptr);
  EXPECT_EQ(chatgpt->kind, provider_kind::codex);
  EXPECT_EQ(chatgpt->base_url, "https://chatgpt.com/backend-api/codex");
  EXPECT_EQ(chatgpt->api_key_env, "CODEX_HOME");
  const auto* dominds = team->find_provider("dominds");
  ASSERT_NE(dominds, nullptr);
  EXPECT_EQ(dominds->kind, provider_kind::mock);
  EXPECT_EQ(dominds->script, tree_.root() / "mock-db");
}

}  // namespace
}  // namespace parley::config

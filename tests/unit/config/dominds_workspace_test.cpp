#include <gtest/gtest.h>

#include <boost/json/serialize.hpp>

#include <string>

#include "parley/config/team.hpp"
#include "temp_tree.hpp"

namespace parley::config {
namespace {

using testing::temp_tree;

class DomindsWorkspace : public ::testing::Test {
 protected:
  // The work language (which persona file is read) follows LANG, as in Dominds.
  void SetUp() override { ::setenv("LANG", "C.UTF-8", 1); }
  std::string error_of() {
    auto team = load_dominds_workspace(tree_.root());
    if (team) {
      ADD_FAILURE() << "expected an error, the workspace loaded";
      return {};
    }
    EXPECT_EQ(team.err().code, errc::config_error);
    return team.err().message;
  }

  // The one problem a workspace that loads reports.
  std::string only_problem() {
    auto team = load_dominds_workspace(tree_.root());
    if (!team) {
      ADD_FAILURE() << "expected the workspace to load with a problem: " << team.err().message;
      return {};
    }
    EXPECT_EQ(team->problems.size(), 1U) << ::testing::PrintToString(problem_texts(team->problems));
    return team->problems.empty() ? std::string() : team->problems.front().text();
  }

  std::string at(std::string_view file, std::string_view position) const {
    return (tree_.root() / ".minds" / file).string() + ":" + std::string(position) + ": ";
  }

  temp_tree tree_;
};

constexpr std::string_view kLlmYaml = R"(providers:
  local:
    apiType: openai-compatible
    baseUrl: http://127.0.0.1:1234/v1
    apiKeyEnvVar: LOCAL_KEY
    tech_spec_url: https://example.invalid/spec
    models:
      m-small: {context_length: 8192}
      m-large: {name: Large}
  cloud:
    apiType: anthropic
    models:
      claude-x: {}
      claude-y: {}
)";

TEST_F(DomindsWorkspace, LoadsMembersDefaultsProvidersAndPersonas) {
  tree_.write(".minds/llm.yaml", kLlmYaml);
  tree_.write(".minds/team.yaml", R"(member_defaults:
  provider: local
  model: m-small
  streaming: false
  toolsets: [ws_read]
  nogo: "legal advice"
  model_params:
    max_tokens: 1024
default_responder: bob
shell_specialists: [bob]
members:
  alice:
    name: Alice
    gofor: "Ask her about design"
    icon: "A"
  bob:
    provider: cloud
    model: claude-y
    streaming: true
    toolsets: [os, ws_mod]
    diligence-push-max: 3
    read_dirs: ["src/**"]
  carol:
    gofor:
      - reviews
      - |
        release notes
    nogo:
      When: never on weekends
      RouteTo: "@alice"
)");
  tree_.write(".minds/team/alice/persona.md", "I am Alice.\n");
  tree_.write(".minds/team/bob/persona.md", "Not preferred: persona.en.md is read first.\n");
  tree_.write(".minds/team/bob/persona.en.md", "I am Bob.\n");

  auto team = load_dominds_workspace(tree_.root());
  ASSERT_TRUE(team) << team.err().message;
  EXPECT_EQ(team->workspace, tree_.root());
  // Routing cards: a string, a list or a mapping; member_defaults' nogo where a member has none.
  ASSERT_EQ(team->members.size(), 3U);
  EXPECT_EQ(team->members[0].gofor, std::vector<std::string>{"Ask her about design"});
  EXPECT_EQ(team->members[0].nogo, std::vector<std::string>{"legal advice"});
  EXPECT_EQ(team->members[2].gofor, (std::vector<std::string>{"reviews", "release notes"}));
  EXPECT_EQ(team->members[2].nogo, (std::vector<std::string>{"When: never on weekends", "RouteTo: @alice"}));
  team->members.pop_back();
  EXPECT_EQ(team->base_dir, tree_.root());
  EXPECT_EQ(team->source, tree_.root() / ".minds" / "team.yaml");
  EXPECT_EQ(team->default_member, "bob");

  ASSERT_EQ(team->providers.size(), 2U);
  EXPECT_EQ(team->providers[0].id, "local");
  EXPECT_EQ(team->providers[0].kind, config::provider_kind::openai);
  EXPECT_EQ(team->providers[0].base_url, "http://127.0.0.1:1234/v1");
  EXPECT_EQ(team->providers[0].api_key_env, "LOCAL_KEY");
  EXPECT_EQ(team->providers[0].models, (std::vector<std::string>{"m-small", "m-large"}));
  EXPECT_EQ(team->providers[1].id, "cloud");
  EXPECT_EQ(team->providers[1].kind, config::provider_kind::anthropic);
  EXPECT_EQ(team->providers[1].base_url, "https://api.anthropic.com/v1");
  EXPECT_EQ(team->providers[1].api_key_env, "ANTHROPIC_API_KEY");

  ASSERT_EQ(team->member_ids(), (std::vector<std::string>{"alice", "bob"}));
  const member_config& alice = team->members[0];
  EXPECT_EQ(alice.name, "Alice");
  EXPECT_EQ(alice.persona, "I am Alice.\n");
  EXPECT_EQ(alice.provider, "local");
  EXPECT_EQ(alice.model, "m-small");
  EXPECT_FALSE(alice.streaming);
  EXPECT_EQ(alice.toolsets, std::vector<std::string>{"ws_read"});
  EXPECT_EQ(boost::json::serialize(alice.model_params), R"({"max_tokens":1024})");
  EXPECT_EQ(alice.max_tool_rounds, 1000);  // no Dominds limit: Parley's backstop (docs/team-yaml.md)

  const member_config& bob = team->members[1];
  EXPECT_EQ(bob.name, "bob");
  EXPECT_EQ(bob.persona, "I am Bob.\n");
  EXPECT_EQ(bob.provider, "cloud");
  EXPECT_EQ(bob.model, "claude-y");
  EXPECT_TRUE(bob.streaming);
  EXPECT_EQ(bob.toolsets, (std::vector<std::string>{"os", "ws_mod"}));
  EXPECT_EQ(boost::json::serialize(bob.model_params), R"({"max_tokens":1024})");
}

TEST_F(DomindsWorkspace, ModelListsLanguagePersonasAndFallbacks) {
  tree_.write(".minds/llm.yaml",
              "providers:\n  local:\n    apiType: openai-compatible\n    models: [first-model, second-model]\n");
  tree_.write(".minds/team.yaml", R"(members:
  ghost:
    provider: local
    hidden: true
  carol:
    provider: local
  dave:
)");
  tree_.write(".minds/team/carol/persona.zh.md", "Chinese.\n");
  tree_.write(".minds/team/carol/persona.en.md", "English.\n");
  // `dave:` with no value still needs a provider: member_defaults is absent here.
  EXPECT_EQ(error_of(), at("team.yaml", "7:3") +
                            "members.dave: missing required key 'provider' (expected a provider id here or in "
                            "member_defaults)");

  tree_.write(".minds/team.yaml", R"(member_defaults:
  provider: local
members:
  ghost:
    hidden: true
  carol: {}
  dave:
)");
  auto team = load_dominds_workspace(tree_.root());
  ASSERT_TRUE(team) << team.err().message;
  EXPECT_EQ(team->providers[0].kind, config::provider_kind::openai);
  EXPECT_EQ(team->providers[0].api_key_env, "OPENAI_API_KEY");
  EXPECT_EQ(team->default_member, "carol");  // the first member that is not hidden
  EXPECT_EQ(team->members[0].model, "first-model");
  EXPECT_EQ(team->members[1].persona, "English.\n");
  EXPECT_EQ(team->members[2].persona, "You are a helpful assistant.");  // Dominds' default persona
}

// An apiType Parley does not speak is a problem only for a member that uses the provider (the
// workspace loads; the member fails when driven); it names the provider, its apiType, where it is
// defined, and the types Parley speaks.
TEST_F(DomindsWorkspace, UnknownApiTypeNamesTheAcceptedValues) {
  tree_.write(".minds/llm.yaml", "providers:\n  local:\n    apiType: openai-compatibel\n");
  tree_.write(".minds/team.yaml", "members:\n  alice:\n    provider: local\n    model: m\n");
  EXPECT_EQ(only_problem(), at("team.yaml", "3:15") +
                                "members.alice.provider: provider 'local' (apiType "
                                "'openai-compatibel', defined at " +
                                (tree_.root() / ".minds" / "llm.yaml").string() +
                                ":2:3) cannot be used: Parley does not speak apiType 'openai-compatibel' (did you mean "
                                "'openai-compatible'?) (it speaks: openai, openai-compatible, google, anthropic, "
                                "anthropic-compatible, openai-responses, codex or mock); member 'alice' cannot be "
                                "driven until it names a provider "
                                "Parley can use");
}

TEST_F(DomindsWorkspace, UnknownMemberKeySuggestsTheClosestKey) {
  tree_.write(".minds/llm.yaml", kLlmYaml);
  tree_.write(".minds/team.yaml", "members:\n  alice:\n    provider: local\n    modle: m-small\n");
  EXPECT_EQ(error_of(), at("team.yaml", "4:5") + "members.alice.modle: unknown key 'modle' (did you mean 'model'?)");
}

TEST_F(DomindsWorkspace, UnknownProviderSuggestsTheClosestProvider) {
  tree_.write(".minds/llm.yaml", kLlmYaml);
  tree_.write(".minds/team.yaml", "member_defaults:\n  provider: lcoal\nmembers:\n  alice:\n    model: m-small\n");
  EXPECT_EQ(only_problem(),
            at("team.yaml", "2:13") +
                "member_defaults.provider: unknown provider 'lcoal' (did you mean 'local'?) (expected "
                "one of: google, codex, minimaxi.com-token-plan, minimaxi.com, minimax.io-token-plan, "
                "minimax.io, bigmodel, z.ai, kimi-code, volcano-engine-coding-plan, anthropic, deepseek, "
                "aliyun-bailian, openai, local or cloud); member 'alice' cannot be driven until it "
                "names a provider Parley can use");
}

TEST_F(DomindsWorkspace, ProviderWithoutLlmYaml) {
  tree_.write(".minds/team.yaml", "members:\n  alice:\n    provider: local\n    model: m\n");
  EXPECT_EQ(only_problem(), at("team.yaml", "3:15") +
                                "members.alice.provider: unknown provider 'local' (expected one of: google, codex, "
                                "minimaxi.com-token-plan, minimaxi.com, minimax.io-token-plan, minimax.io, bigmodel, "
                                "z.ai, kimi-code, volcano-engine-coding-plan, anthropic, deepseek, aliyun-bailian or "
                                "openai) (not built in, and .minds/llm.yaml not found); member 'alice' cannot be "
                                "driven until it names a provider Parley can use");
}

TEST_F(DomindsWorkspace, ModelCannotBeChosenWhenTheProviderListsNone) {
  tree_.write(".minds/llm.yaml", "providers:\n  local:\n    apiType: openai\n");
  tree_.write(".minds/team.yaml", "members:\n  alice:\n    provider: local\n");
  EXPECT_EQ(error_of(), at("team.yaml", "2:3") +
                            "members.alice: missing required key 'model' (expected a model name here or in "
                            "member_defaults; provider 'local' lists no models)");
}

TEST_F(DomindsWorkspace, DefaultResponderMustBeAMember) {
  tree_.write(".minds/llm.yaml", kLlmYaml);
  tree_.write(".minds/team.yaml", "default_responder: alcie\nmembers:\n  alice:\n    provider: local\n");
  EXPECT_EQ(error_of(),
            at("team.yaml", "1:20") +
                "default_responder: unknown member 'alcie' (did you mean 'alice'?) (expected one of: alice)");
}

// Dominds' shell_specialists: an id or a list; each must be a member. Only listed (or hidden)
// members are shell specialists; absent, none is.
TEST_F(DomindsWorkspace, ShellSpecialistsAreMembersAndMarkWhoMayHaveShellTools) {
  tree_.write(".minds/llm.yaml", kLlmYaml);
  const std::string members =
      "members:\n  alice: {provider: local}\n  bob: {provider: local}\n"
      "  ops: {provider: local, hidden: true}\n";
  const auto specialists = [&](const std::string& top) {
    tree_.write(".minds/team.yaml", top + members);
    auto team = load_dominds_workspace(tree_.root());
    EXPECT_TRUE(team) << team.err().message;
    std::vector<std::string> ids;
    if (!team) return ids;
    for (const auto& member : team->members) {
      if (member.shell_specialist) ids.push_back(member.id);
    }
    EXPECT_EQ(ids.size(), team->shell_specialists.size() + 1);  // ops, hidden, is exempt
    return ids;
  };
  EXPECT_EQ(specialists("shell_specialists: bob\n"), (std::vector<std::string>{"bob", "ops"}));
  EXPECT_EQ(specialists("shell_specialists: [alice, bob]\n"), (std::vector<std::string>{"alice", "bob", "ops"}));
  EXPECT_EQ(specialists(""), (std::vector<std::string>{"ops"}));
  EXPECT_EQ(specialists("shell_specialists: null\n"), (std::vector<std::string>{"ops"}));
}

// As in Dominds (an error-level problem), an id that is no member is a problem with its line, left
// out; the shape stays an error.
TEST_F(DomindsWorkspace, AShellSpecialistThatIsNoMemberIsAProblemWithItsLineAndId) {
  tree_.write(".minds/llm.yaml", kLlmYaml);
  const std::string members = "members:\n  alice: {provider: local}\n  bob: {provider: local}\n";
  tree_.write(".minds/team.yaml", "shell_specialists: [alice, bbo]\n" + members);
  EXPECT_EQ(only_problem(), at("team.yaml", "1:28") +
                                "shell_specialists[1]: unknown member 'bbo' (did you mean 'bob'?) (expected one of: "
                                "alice or bob) (shell_specialists names the members allowed shell tools): left out");
  tree_.write(".minds/team.yaml", "shell_specialists: carol\n" + members);
  EXPECT_EQ(only_problem(), at("team.yaml", "1:20") +
                                "shell_specialists: unknown member 'carol' (expected one of: alice or bob) "
                                "(shell_specialists names the members allowed shell tools): left out");
  tree_.write(".minds/team.yaml", "shell_specialists: {alice: true}\n" + members);
  EXPECT_EQ(error_of(), at("team.yaml", "1:20") +
                            "shell_specialists: got a mapping (expected a member id or a list of member ids)");
}

TEST_F(DomindsWorkspace, WrongTypeInMemberDefaults) {
  tree_.write(".minds/llm.yaml", kLlmYaml);
  tree_.write(".minds/team.yaml",
              "member_defaults:\n  streaming: sometimes\nmembers:\n  alice:\n    provider: local\n");
  EXPECT_EQ(error_of(),
            at("team.yaml", "2:14") + "member_defaults.streaming: got 'sometimes' (expected true or false)");
}

TEST_F(DomindsWorkspace, SyntaxErrorInLlmYaml) {
  tree_.write(".minds/llm.yaml", "providers:\n  local: [\n");
  tree_.write(".minds/team.yaml", "members:\n  alice:\n    provider: local\n");
  const std::string message = error_of();
  EXPECT_EQ(message.rfind(at("llm.yaml", "3:1") + "YAML syntax error: ", 0), 0U) << message;
}

TEST_F(DomindsWorkspace, FolderWithoutMindsIsNotAWorkspace) {
  EXPECT_EQ(error_of(), tree_.root().string() + ": not a Dominds workspace (" +
                            (tree_.root() / ".minds" / "team.yaml").string() + " not found)");
}

}  // namespace
}  // namespace parley::config

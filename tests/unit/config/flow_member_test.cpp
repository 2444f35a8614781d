// Members of kind flow (seed 004, docs/flows.md): `kind: flow` with an existing `flow` folder; no
// persona needed; `flow` refused for other kinds, unknown kinds refused.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "parley/config/team.hpp"
#include "team_file_fixture.hpp"

namespace parley::config {
namespace {

using FlowMember = testing::team_file_test;

constexpr std::string_view kProviders = R"(providers:
  offline:
    kind: scripted
    script: script.yaml
members:
)";

TEST_F(FlowMember, AFlowMemberNeedsNoPersonaAndResolvesItsFolder) {
  tree_.write("article_creation/ArticleCreationAgent.yaml", "agent: ArticleCreationAgent\n");
  auto team = load(std::string(kProviders) +
                   "  writer: {kind: flow, flow: article_creation, provider: offline, model: scripted-1}\n");
  ASSERT_TRUE(team) << team.err().message;
  const auto* writer = team->find_member("writer");
  ASSERT_NE(writer, nullptr);
  EXPECT_EQ(writer->kind, config::member_kind::flow);
  EXPECT_EQ(writer->flow, tree_.root() / "article_creation");
  EXPECT_TRUE(writer->persona.empty());
}

TEST_F(FlowMember, AMissingFolderAnUnknownKindAndAStrayFlowKeyAreNamed) {
  EXPECT_NE(error_of(std::string(kProviders) + "  writer: {kind: flow, flow: nowhere, provider: offline, model: m}\n")
                .find("members.writer.flow: flow folder " + (tree_.root() / "nowhere").string() + " does not exist"),
            std::string::npos);
  EXPECT_NE(error_of(std::string(kProviders) + "  writer: {kind: flwo, persona: p, provider: offline, model: m}\n")
                .find("members.writer.kind: unknown member kind 'flwo' (expected llm or flow)"),
            std::string::npos);
  EXPECT_NE(error_of(std::string(kProviders) + "  writer: {flow: x, persona: p, provider: offline, model: m}\n")
                .find("key 'flow' applies to members of kind 'flow' only"),
            std::string::npos);
  EXPECT_NE(error_of(std::string(kProviders) + "  writer: {kind: flow, provider: offline, model: m}\n")
                .find("members.writer: missing required key 'flow'"),
            std::string::npos);
  // An llm member still needs its persona.
  EXPECT_NE(error_of(std::string(kProviders) + "  writer: {provider: offline, model: m}\n").find("persona"),
            std::string::npos);
}

}  // namespace
}  // namespace parley::config

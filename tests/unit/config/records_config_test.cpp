// The team file's `records:` (docs/team-yaml.md "Records"): the analyst member and the embeddings
// endpoint. Absent, nothing is analysed; present, every key is checked and an error names the
// file, the line and the field.
#include <gtest/gtest.h>

#include <string>

#include "parley/config/team.hpp"
#include "team_file_fixture.hpp"

namespace parley::config {
namespace {

using RecordsConfig = testing::team_file_test;

// Line 1 is left for the `records:` line each test puts first.
const std::string kRecordsTeam = R"(providers:
  offline: {kind: scripted, script: script.yaml}
  remote: {kind: openai, base_url: "http://127.0.0.1:9/v1", api_key_env: EMBED_KEY}
members:
  lead: {persona: "You lead.", provider: offline, model: scripted}
  reader: {persona: "You read.", provider: offline, model: scripted}
)";

TEST_F(RecordsConfig, AbsentAnalysesNothingAndPresentNamesTheAnalystAndTheEmbeddings) {
  auto none = load(kRecordsTeam);
  ASSERT_TRUE(none) << none.err().message;
  EXPECT_TRUE(none->records.analyst.empty());
  EXPECT_FALSE(none->records.embeddings);
  auto team = load("records: {analyst: reader, embeddings: {provider: remote, model: embed-small, dimensions: 8}}\n" +
                   kRecordsTeam);
  ASSERT_TRUE(team) << team.err().message;
  EXPECT_EQ(team->records.analyst, "reader");
  ASSERT_TRUE(team->records.embeddings);
  EXPECT_EQ(team->records.embeddings->provider, "remote");
  EXPECT_EQ(team->records.embeddings->model, "embed-small");
  EXPECT_EQ(team->records.embeddings->dimensions, 8);
}

TEST_F(RecordsConfig, AnUnknownAnalystIsRefusedAtItsLineWithTheMembersNamed) {
  const auto message = error_of("records: {analyst: nobody}\n" + kRecordsTeam);
  EXPECT_EQ(message.rfind(at("1:20") + "records.analyst:", 0), 0U) << message;
  EXPECT_NE(message.find("nobody"), std::string::npos) << message;
}

TEST_F(RecordsConfig, EmbeddingsNeedAnOpenAiProviderAModelAndDimensions) {
  auto message = error_of("records: {embeddings: {provider: offline, model: m, dimensions: 8}}\n" + kRecordsTeam);
  EXPECT_EQ(message.rfind(at("1:34") + "records.embeddings.provider: provider 'offline' is of kind 'scripted'", 0), 0U)
      << message;
  message = error_of("records: {embeddings: {provider: nowhere, model: m, dimensions: 8}}\n" + kRecordsTeam);
  EXPECT_NE(message.find("records.embeddings.provider:"), std::string::npos) << message;
  message = error_of("records: {embeddings: {provider: remote, dimensions: 8}}\n" + kRecordsTeam);
  EXPECT_NE(message.find("records.embeddings: missing required key 'model'"), std::string::npos) << message;
  message = error_of("records: {embeddings: {provider: remote, model: m}}\n" + kRecordsTeam);
  EXPECT_NE(message.find("records.embeddings: missing required key 'dimensions'"), std::string::npos) << message;
  message = error_of("records: {embeddings: {provider: remote, model: m, dimensions: 0}}\n" + kRecordsTeam);
  EXPECT_NE(message.find("records.embeddings.dimensions: got '0' (expected a positive integer)"), std::string::npos)
      << message;
  message = error_of("records: {embeddings: {provider: remote, model: m, dimensions: 100000}}\n" + kRecordsTeam);
  EXPECT_NE(message.find("records.embeddings.dimensions: got 100000 (expected at most 8192)"), std::string::npos)
      << message;
  message = error_of("records: {embeddings: {provider: remote, model: m, dimensions: 8, size: 3}}\n" + kRecordsTeam);
  EXPECT_NE(message.find("size"), std::string::npos) << message;
  message = error_of("records: {analyst: reader, summariser: lead}\n" + kRecordsTeam);
  EXPECT_NE(message.find("summariser"), std::string::npos) << message;
}

}  // namespace
}  // namespace parley::config

// Providers' `models` as a mapping: context windows, context-health thresholds and prices.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "parley/config/team.hpp"
#include "team_file_fixture.hpp"

namespace parley::config {
namespace {

using ModelTable = testing::team_file_test;

std::string team_with_models(std::string_view models) {
  return std::string(R"(providers:
  offline:
    kind: scripted
    script: script.yaml
    models:
)") + std::string(models) +
         R"(members:
  lead: {persona: "You lead.", provider: offline, model: small}
)";
}

TEST_F(ModelTable, MappingDeclaresWindowThresholdsAndPrices) {
  auto team = load(team_with_models(R"(      small:
        context_window: 8000
        caution: 0.5
        critical: 0.9
        price: {input: 0.15, output: 0.6, cached_input: 0.075}
      plain:
)"));
  ASSERT_TRUE(team) << team.err().message;
  const auto& provider = *team->find_provider("offline");
  EXPECT_EQ(provider.models, (std::vector<std::string>{"small", "plain"}));
  ASSERT_EQ(provider.model_details.size(), 1U);
  const auto* small = team->find_model(*team->find_member("lead"));
  ASSERT_NE(small, nullptr);
  EXPECT_EQ(small->context_window, 8000);
  EXPECT_DOUBLE_EQ(small->caution_ratio, 0.5);
  EXPECT_DOUBLE_EQ(small->critical_ratio, 0.9);
  EXPECT_TRUE(small->priced);
  EXPECT_DOUBLE_EQ(small->input_usd_per_mtok, 0.15);
  EXPECT_DOUBLE_EQ(small->output_usd_per_mtok, 0.6);
  EXPECT_DOUBLE_EQ(small->cached_input_usd_per_mtok, 0.075);
}

TEST_F(ModelTable, CachedInputPriceDefaultsToTheInputPrice) {
  auto team = load(team_with_models("      small: {price: {input: 3, output: 15}}\n"));
  ASSERT_TRUE(team) << team.err().message;
  const auto* small = team->find_model(*team->find_member("lead"));
  ASSERT_NE(small, nullptr);
  EXPECT_DOUBLE_EQ(small->cached_input_usd_per_mtok, 3.0);
  EXPECT_EQ(small->context_window, 0);  // unknown: no context-health checks
}

TEST_F(ModelTable, ListOfNamesDeclaresNoDetails) {
  auto team = load(team_with_models("      - small\n"));
  ASSERT_TRUE(team) << team.err().message;
  EXPECT_EQ(team->find_model(*team->find_member("lead")), nullptr);
}

TEST_F(ModelTable, RatioOutsideZeroToOneIsRefusedWithItsPosition) {
  EXPECT_EQ(error_of(team_with_models("      small: {critical: 1.5}\n")),
            at("6:25") +
                "providers.offline.models.small.critical: got '1.5' (expected a fraction of the context "
                "window between 0 and 1)");
}

TEST_F(ModelTable, CautionAboveCriticalIsRefused) {
  const auto message = error_of(team_with_models("      small: {caution: 0.9, critical: 0.8}\n"));
  EXPECT_NE(message.find("providers.offline.models.small.caution: caution (0.9) is above critical (0.8)"),
            std::string::npos)
      << message;
}

TEST_F(ModelTable, UnknownModelKeyGetsAHint) {
  const auto message = error_of(team_with_models("      small: {context_windw: 100}\n"));
  EXPECT_NE(message.find("unknown key 'context_windw'"), std::string::npos) << message;
  EXPECT_NE(message.find("did you mean 'context_window'"), std::string::npos) << message;
}

TEST_F(ModelTable, PriceNeedsInputAndOutputAndNonNegativeNumbers) {
  EXPECT_NE(error_of(team_with_models("      small: {price: {input: 1}}\n")).find("missing required key 'output'"),
            std::string::npos);
  const auto negative = error_of(team_with_models("      small: {price: {input: -1, output: 2}}\n"));
  EXPECT_NE(negative.find("providers.offline.models.small.price.input: got '-1' (expected a price in USD per million "
                          "tokens (a number >= 0))"),
            std::string::npos)
      << negative;
  const auto text = error_of(team_with_models("      small: {price: {input: cheap, output: 2}}\n"));
  EXPECT_NE(text.find("got 'cheap'"), std::string::npos) << text;
}

TEST_F(ModelTable, CriticalContextRoundsIsAPositiveLimit) {
  auto team = load("limits: {critical_context_rounds: 5}\n" + team_with_models("      - small\n"));
  ASSERT_TRUE(team) << team.err().message;
  EXPECT_EQ(team->limits.critical_context_rounds, 5);
  EXPECT_NE(error_of("limits: {critical_context_rounds: 0}\n" + team_with_models("      - small\n"))
                .find("limits.critical_context_rounds: got '0' (expected a positive integer)"),
            std::string::npos);
}

TEST_F(ModelTable, DomindsContextLengthIsTheWindowAndOtherKeysAreKept) {
  tree_.write(".minds/llm.yaml", R"(providers:
  local:
    apiType: openai
    baseUrl: http://127.0.0.1:1/v1
    models:
      big-model: {name: Big, context_length: 128000, output_length: 4096}
      other: some text
)");
  tree_.write(".minds/team.yaml", "members:\n  alice: {provider: local, model: big-model}\n");
  auto team = load_dominds_workspace(tree_.root());
  ASSERT_TRUE(team) << team.err().message;
  const auto* model = team->find_model(*team->find_member("alice"));
  ASSERT_NE(model, nullptr);
  EXPECT_EQ(model->context_window, 128000);
  EXPECT_FALSE(model->priced);
}

}  // namespace
}  // namespace parley::config

// Usage and cost summed from the log per dialog, member and team.
#include <gtest/gtest.h>

#include "parley/engine/described_text.hpp"
#include "parley/engine/usage_report.hpp"
#include "support/typed_events.hpp"

namespace parley::engine {
namespace {

config::team_config priced_team() {
  config::team_config team;
  config::provider_config provider;
  provider.id = "remote";
  config::model_info big;
  big.id = "big";
  big.priced = true;
  big.input_usd_per_mtok = 2.0;
  big.output_usd_per_mtok = 10.0;
  big.cached_input_usd_per_mtok = 0.5;
  provider.model_details.push_back(big);
  team.providers.push_back(provider);
  config::member_config lead;
  lead.id = "lead";
  lead.provider = "remote";
  lead.model = "big";
  team.members.push_back(lead);
  config::member_config helper = lead;
  helper.id = "helper";
  helper.model = "unpriced";
  team.members.push_back(helper);
  return team;
}

event created(std::string dialog, std::string member) {
  return test::typed_event(dialog, dialog, 1, event_type::dialog_created, {{"memberId", member}}, 0);
}

event finished(std::string dialog, std::int64_t seq, boost::json::object usage, std::string model = {}) {
  boost::json::object payload{{"usage", std::move(usage)}};
  if (!model.empty()) payload["model"] = model;
  return test::typed_event(dialog, dialog, seq, event_type::generation_finished, std::move(payload), 0);
}

TEST(UsageReport, PricesFreshAndCachedInputAndOutputPerMillionTokens) {
  const std::vector<event> log{
      created("d1", "lead"),
      finished("d1", 2, {{"inputTokens", 1'000'000}, {"outputTokens", 100'000}, {"cachedTokens", 400'000}}, "big"),
  };
  const auto report = summarize_usage(log, priced_team());
  // 600k fresh × $2 + 400k cached × $0.5 + 100k out × $10, per million.
  EXPECT_DOUBLE_EQ(report.team.cost_usd, 1.2 + 0.2 + 1.0);
  EXPECT_EQ(report.team.unpriced_calls, 0);
  EXPECT_EQ(report.by_dialog.at("d1").cached_tokens, 400'000);
}

TEST(UsageReport, SumsPerDialogMemberAndTeamAndCountsUnpricedCalls) {
  const std::vector<event> log{
      created("d1", "lead"),
      created("d2", "helper"),
      finished("d1", 2, {{"inputTokens", 100}, {"outputTokens", 10}}, "big"),
      finished("d2", 2, {{"inputTokens", 50}, {"outputTokens", 5}, {"reasoningTokens", 3}}),
      finished("d1", 3, {{"inputTokens", 200}, {"outputTokens", 20}}),  // no model recorded: the member's
  };
  const auto report = summarize_usage(log, priced_team());
  EXPECT_EQ(report.team.calls, 3);
  EXPECT_EQ(report.team.input_tokens, 350);
  EXPECT_EQ(report.team.output_tokens, 35);
  EXPECT_EQ(report.team.reasoning_tokens, 3);
  EXPECT_EQ(report.team.unpriced_calls, 1);
  EXPECT_EQ(report.by_member.at("lead").calls, 2);
  EXPECT_EQ(report.by_member.at("helper").unpriced_calls, 1);
  EXPECT_DOUBLE_EQ(report.by_dialog.at("d1").cost_usd, (300 * 2.0 + 30 * 10.0) / 1e6);
  EXPECT_EQ(describe_usage(report.by_dialog.at("d2")), "50 in / 5 out (3 reasoning) tokens, 1 call");
  EXPECT_EQ(describe_usage(report.by_dialog.at("d1")), "300 in / 30 out tokens, 2 calls, $0.0009");
}

// The CLI says usage in the team's language (issue 43 item 7); the numbers and the cost as they are.
TEST(UsageReport, DescribedInChineseWithTheSameFigures) {
  usage_totals totals;
  totals.calls = 3;
  totals.input_tokens = 1234;
  totals.cached_tokens = 200;
  totals.output_tokens = 567;
  totals.reasoning_tokens = 12;
  totals.cost_usd = 0.0123;
  totals.unpriced_calls = 1;
  EXPECT_EQ(describe_usage_in(totals, "en"), describe_usage(totals));
  EXPECT_EQ(describe_usage(totals),
            "1234 in (200 cached) / 567 out (12 reasoning) tokens, 3 calls, $0.0123 (+1 unpriced)");
  EXPECT_EQ(describe_usage_in(totals, "zh"),
            "输入 1234（缓存 200） / 输出 567（推理 12） 个令牌，调用 3 次，$0.0123（另有 1 次未计价）");
  totals = usage_totals{};
  totals.calls = 1;
  totals.unpriced_calls = 1;
  EXPECT_EQ(describe_usage_in(totals, "zh"), "输入 0 / 输出 0 个令牌，调用 1 次");
}

}  // namespace
}  // namespace parley::engine

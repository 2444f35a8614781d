// Token usage and cost, summed from the log's generation_finished events per dialog, member and
// team. Prices come from the team's model declarations (USD per million tokens); the model of each
// call is the one recorded with it, so a later change of a member's model does not reprice the past.
#pragma once

#include <boost/json/object.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "parley/config/team.hpp"
#include "parley/model/event.hpp"

namespace parley::engine {

struct usage_totals {
  std::int64_t calls = 0;
  std::int64_t input_tokens = 0;   // includes cached input
  std::int64_t output_tokens = 0;  // includes reasoning
  std::int64_t cached_tokens = 0;
  std::int64_t reasoning_tokens = 0;
  double cost_usd = 0.0;
  std::int64_t unpriced_calls = 0;  // calls of models without a declared price: cost is a lower bound

  void add(const usage_totals& other);
};

struct usage_report {
  usage_totals team;
  std::map<std::string, usage_totals, std::less<>> by_member;
  std::map<std::string, usage_totals, std::less<>> by_dialog;
};

// One model call's usage, priced by the model `member_id` called (its provider's declaration first).
usage_totals usage_of_call(const config::team_config& team, std::string_view member_id, std::string_view model,
                           const events::token_usage& usage);

// `events` in any order that keeps each dialog's dialog_created before its generations (the log's).
usage_report summarize_usage(const std::vector<event>& events, const config::team_config& team);

boost::json::object usage_to_json(const usage_totals& totals);
// "$0.0123"
std::string format_usd(double usd);
// "1234 in (200 cached) / 567 out (12 reasoning) tokens, 3 calls, $0.0123"
std::string describe_usage(const usage_totals& totals);

}  // namespace parley::engine

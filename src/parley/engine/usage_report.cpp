#include "parley/engine/usage_report.hpp"

#include <cstdio>

#include "parley/core/json.hpp"
#include "parley/core/messages.hpp"
#include "parley/engine/described_text.hpp"

namespace parley::engine {
namespace {

constexpr double kPerMillion = 1e6;

// The member's own provider first (the same model name may be priced differently elsewhere).
const config::model_info* find_model(const config::team_config& team, std::string_view member_id,
                                     std::string_view model) {
  if (const auto* member = team.find_member(member_id)) {
    if (const auto* provider = team.find_provider(member->provider)) {
      for (const auto& info : provider->model_details) {
        if (info.id == model) return &info;
      }
    }
  }
  for (const auto& provider : team.providers) {
    for (const auto& info : provider.model_details) {
      if (info.id == model) return &info;
    }
  }
  return nullptr;
}

usage_totals call_usage(const events::token_usage& usage, const config::model_info* model) {
  usage_totals call;
  call.calls = 1;
  call.input_tokens = usage.input_tokens;
  call.output_tokens = usage.output_tokens;
  call.cached_tokens = usage.cached_tokens;
  call.reasoning_tokens = usage.reasoning_tokens;
  if (model == nullptr || !model->priced) {
    call.unpriced_calls = 1;
    return call;
  }
  const auto fresh_input = static_cast<double>(call.input_tokens - call.cached_tokens);
  call.cost_usd = (fresh_input * model->input_usd_per_mtok +
                   static_cast<double>(call.cached_tokens) * model->cached_input_usd_per_mtok +
                   static_cast<double>(call.output_tokens) * model->output_usd_per_mtok) /
                  kPerMillion;
  return call;
}

}  // namespace

usage_totals usage_of_call(const config::team_config& team, std::string_view member_id, std::string_view model,
                           const events::token_usage& usage) {
  return call_usage(usage, find_model(team, member_id, model));
}

void usage_totals::add(const usage_totals& other) {
  calls += other.calls;
  input_tokens += other.input_tokens;
  output_tokens += other.output_tokens;
  cached_tokens += other.cached_tokens;
  reasoning_tokens += other.reasoning_tokens;
  cost_usd += other.cost_usd;
  unpriced_calls += other.unpriced_calls;
}

usage_report summarize_usage(const std::vector<event>& events, const config::team_config& team) {
  usage_report report;
  std::map<std::string, std::string, std::less<>> member_of;  // dialog id → member id
  for (const auto& ev : events) {
    if (const auto* created = ev.as<events::dialog_created>()) {
      member_of[ev.dialog_id] = created->member_id;
      continue;
    }
    const auto* finished = ev.as<events::generation_finished>();
    if (finished == nullptr) continue;
    const auto member = member_of.find(ev.dialog_id);
    const std::string member_id = member == member_of.end() ? std::string() : member->second;
    std::string model = finished->model.value_or("");
    if (model.empty()) {  // logged before calls recorded their model, or closed by recovery
      if (const auto* config = team.find_member(member_id)) model = config->model;
    }
    const auto call = usage_of_call(team, member_id, model, finished->usage);
    report.team.add(call);
    report.by_member[member_id].add(call);
    report.by_dialog[ev.dialog_id].add(call);
  }
  return report;
}

boost::json::object usage_to_json(const usage_totals& totals) {
  return boost::json::object{{"calls", totals.calls},
                             {"inputTokens", totals.input_tokens},
                             {"outputTokens", totals.output_tokens},
                             {"cachedTokens", totals.cached_tokens},
                             {"reasoningTokens", totals.reasoning_tokens},
                             {"costUsd", totals.cost_usd},
                             {"unpricedCalls", totals.unpriced_calls}};
}

std::string format_usd(double usd) {
  char text[32];
  std::snprintf(text, sizeof text, "$%.4f", usd);
  return text;
}

std::string describe_usage(const usage_totals& totals) { return describe_usage_in(totals, "en"); }

std::string describe_usage_in(const usage_totals& totals, std::string_view language) {
  const auto part = [&](msg id, std::int64_t n) {
    return n > 0 ? say(id, language, {{"n", std::to_string(n)}}) : std::string();
  };
  const std::string calls = totals.calls == 1
                                ? say(msg::usage_call_one, language)
                                : say(msg::usage_call_many, language, {{"n", std::to_string(totals.calls)}});
  std::string text = say(msg::usage_tokens, language,
                         {{"in", std::to_string(totals.input_tokens)},
                          {"cached", part(msg::usage_cached, totals.cached_tokens)},
                          {"out", std::to_string(totals.output_tokens)},
                          {"reasoning", part(msg::usage_reasoning, totals.reasoning_tokens)},
                          {"calls", calls}});
  if (totals.unpriced_calls < totals.calls) {
    text += say(msg::usage_cost, language, {{"cost", format_usd(totals.cost_usd)}});
    text += part(msg::usage_unpriced, totals.unpriced_calls);
  }
  return text;
}

}  // namespace parley::engine

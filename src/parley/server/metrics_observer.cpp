#include "parley/server/metrics_observer.hpp"

#include <array>
#include <string_view>

#include "parley/engine/engine.hpp"
#include "parley/engine/usage_report.hpp"

namespace parley::server {
namespace {

using clock = std::chrono::steady_clock;
using type = metrics::exposition::type;

constexpr std::array<std::string_view, 3> kCallLabels{"member", "model", "finish_reason"};
constexpr std::array<std::string_view, 3> kTokenLabels{"member", "model", "kind"};
constexpr std::array<std::string_view, 2> kModelLabels{"member", "model"};
constexpr std::array<std::string_view, 1> kToolLabels{"tool"};
constexpr std::array<std::string_view, 1> kMemberLabels{"member"};
constexpr std::array<std::string_view, 4> kTokenKinds{"input", "output", "cached", "reasoning"};

// A tool the model named but no member has (a hallucinated name) is counted under this label, so
// that model output cannot add series without bound.
constexpr std::string_view kUnknownTool = "(unknown)";

double seconds_since(clock::time_point start) { return std::chrono::duration<double>(clock::now() - start).count(); }

}  // namespace

std::string_view metrics_observer::member_of(const event& ev,
                                             const std::optional<std::string>& generating_member) const {
  if (generating_member && !generating_member->empty()) return *generating_member;  // a group's speaker
  if (const auto* dialog = engine_.find(ev.dialog_id)) return dialog->row().member_id;
  return {};
}

std::string_view metrics_observer::tool_label(std::string_view member_id, std::string_view tool) const {
  if (const auto* spec = engine_.members().dialog_spec(tool)) return spec->name;
  if (const auto* member = engine_.members().find(member_id)) {
    for (const auto& spec : member->tool_specs) {
      if (spec.name == tool) return spec.name;
    }
  }
  return kUnknownTool;
}

metrics_observer::model_series& metrics_observer::series_of(std::string_view member, std::string_view model) {
  key_buffer_.assign(member);
  key_buffer_ += '\x1f';
  key_buffer_ += model;
  auto found = series_.find(key_buffer_);
  if (found == series_.end()) {
    auto series = std::make_unique<model_series>();
    series->member = metrics::label_value(member);
    series->model = metrics::label_value(model);
    found = series_.emplace(key_buffer_, std::move(series)).first;
  }
  return *found->second;
}

void metrics_observer::count_call(const event& ev, const events::generation_finished& finished) {
  const std::string_view member = member_of(ev, finished.member_id);
  std::string_view model = finished.model ? std::string_view(*finished.model) : std::string_view();
  if (model.empty()) {
    if (const auto* config = engine_.team().find_member(member)) model = config->model;
  }
  const auto priced = engine::usage_of_call(engine_.team(), member, model, finished.usage);
  const auto open = open_.find(ev.dialog_id);
  std::lock_guard lock(mutex_);
  model_series& series = series_of(member, model);
  auto reason = series.calls.find(finished.finish_reason);
  if (reason == series.calls.end()) {
    reason = series.calls.emplace(metrics::label_value(finished.finish_reason), 0.0).first;
  }
  reason->second += 1;
  const auto& usage = finished.usage;
  const std::int64_t counts[] = {usage.input_tokens, usage.output_tokens, usage.cached_tokens, usage.reasoning_tokens};
  for (std::size_t i = 0; i < kTokenKinds.size(); ++i) series.tokens[i] += static_cast<double>(counts[i]);
  if (priced.unpriced_calls == 0) series.cost = series.cost.value_or(0.0) + priced.cost_usd;
  // A generation closed by recovery after a restart has no start in this process: no duration.
  if (open != open_.end()) {
    series.call_seconds.observe(seconds_since(open->second.started));
    if (open->second.first_token_seconds) series.first_token_seconds.observe(*open->second.first_token_seconds);
    open_.erase(open);
  }
}

void metrics_observer::on_event(const event& ev) {
  if (ev.is<events::generation_started>()) {
    open_.insert_or_assign(ev.dialog_id, open_generation{clock::now(), std::nullopt});
  } else if (const auto* finished = ev.as<events::generation_finished>()) {
    count_call(ev, *finished);
  } else if (ev.is<events::drive_failed>()) {
    // A drive that failed mid-call (the provider refused or broke) ends its generation unrecorded.
    drive_failures_.add({metrics::label_value(member_of(ev, std::nullopt))});
    open_.erase(ev.dialog_id);
  } else if (const auto* result = ev.as<events::tool_result>()) {
    const std::string_view tool = tool_label(member_of(ev, std::nullopt), result->name);
    std::lock_guard lock(mutex_);
    auto found = tools_.find(tool);
    if (found == tools_.end()) found = tools_.emplace(metrics::label_value(tool), tool_figures{}).first;
    found->second.calls += 1;
    if (!result->ok) found->second.errors += 1;
  }
}

void metrics_observer::on_stream(const engine::stream_event& ev) {
  if (ev.kind == engine::stream_kind::discard) return;
  const auto open = open_.find(ev.dialog_id);
  if (open == open_.end() || open->second.first_token_seconds) return;
  open->second.first_token_seconds = seconds_since(open->second.started);
}

void metrics_observer::write(metrics::exposition& out) const {
  std::lock_guard lock(mutex_);
  out.family("parley_model_calls_total", type::counter, "Model calls that ended, by member, model and finish reason.");
  for (const auto& [key, series] : series_) {
    for (const auto& [reason, count] : series->calls) {
      out.sample("parley_model_calls_total", kCallLabels, {series->member, series->model, reason}, count);
    }
  }
  out.family("parley_model_tokens_total", type::counter,
             "Tokens of ended model calls by member, model and kind (input includes cached, output includes "
             "reasoning).");
  for (const auto& [key, series] : series_) {
    for (std::size_t i = 0; i < kTokenKinds.size(); ++i) {
      if (series->tokens[i] == 0) continue;
      out.sample("parley_model_tokens_total", kTokenLabels,
                 {series->member, series->model, std::string(kTokenKinds[i])}, series->tokens[i]);
    }
  }
  out.family("parley_model_cost_usd_total", type::counter,
             "Cost in US dollars of model calls whose model has a declared price, by member and model.");
  for (const auto& [key, series] : series_) {
    if (series->cost)
      out.sample("parley_model_cost_usd_total", kModelLabels, {series->member, series->model}, *series->cost);
  }
  out.family("parley_model_call_duration_seconds", type::histogram,
             "From a model call's start to its end, by member and model.");
  for (const auto& [key, series] : series_) {
    out.histogram_samples("parley_model_call_duration_seconds", kModelLabels, {series->member, series->model},
                          series->call_seconds.snapshot());
  }
  out.family("parley_model_time_to_first_token_seconds", type::histogram,
             "From a model call's start to its first streamed token, by member and model.");
  for (const auto& [key, series] : series_) {
    const auto figures = series->first_token_seconds.snapshot();
    if (figures.count == 0) continue;
    out.histogram_samples("parley_model_time_to_first_token_seconds", kModelLabels, {series->member, series->model},
                          figures);
  }
  out.family("parley_drive_failures_total", type::counter,
             "Drives that failed (a model call the provider refused or broke off, a write the store refused), by "
             "member.");
  for (const auto& [labels, value] : drive_failures_.snapshot()) {
    out.sample("parley_drive_failures_total", kMemberLabels, labels, value);
  }
  out.family("parley_tool_calls_total", type::counter,
             "Tool calls by tool (a name no member has counts as (unknown)).");
  for (const auto& [tool, figures] : tools_) out.sample("parley_tool_calls_total", kToolLabels, {tool}, figures.calls);
  out.family("parley_tool_errors_total", type::counter, "Tool calls that failed, by tool.");
  for (const auto& [tool, figures] : tools_) {
    if (figures.errors > 0) out.sample("parley_tool_errors_total", kToolLabels, {tool}, figures.errors);
  }
}

}  // namespace parley::server

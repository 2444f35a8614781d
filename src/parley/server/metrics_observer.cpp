#include "parley/server/metrics_observer.hpp"

#include <array>
#include <string_view>

#include "parley/engine/engine.hpp"
#include "parley/engine/usage_report.hpp"

namespace parley::server {
namespace {

using clock = std::chrono::steady_clock;

constexpr std::array<std::string_view, 3> kCallLabels{"member", "model", "finish_reason"};
constexpr std::array<std::string_view, 3> kTokenLabels{"member", "model", "kind"};
constexpr std::array<std::string_view, 2> kModelLabels{"member", "model"};
constexpr std::array<std::string_view, 1> kToolLabels{"tool"};
constexpr std::array<std::string_view, 1> kMemberLabels{"member"};

// A tool the model named but no member has (a hallucinated name) is counted under this label, so
// that model output cannot add series without bound.
constexpr std::string_view kUnknownTool = "(unknown)";

double seconds_since(clock::time_point start) { return std::chrono::duration<double>(clock::now() - start).count(); }

template <std::size_t N>
void write_counters(metrics::exposition& out, std::string_view name, std::string_view help,
                    const std::array<std::string_view, N>& label_names, const metrics::counter_family& family) {
  out.family(name, metrics::exposition::type::counter, help);
  for (const auto& [labels, value] : family.snapshot()) out.sample(name, label_names, labels, value);
}

template <std::size_t N>
void write_histograms(metrics::exposition& out, std::string_view name, std::string_view help,
                      const std::array<std::string_view, N>& label_names, const metrics::histogram_family& family) {
  out.family(name, metrics::exposition::type::histogram, help);
  for (const auto& [labels, figures] : family.snapshot()) out.histogram_samples(name, label_names, labels, figures);
}

}  // namespace

std::string metrics_observer::member_of(const event& ev, const std::optional<std::string>& generating_member) const {
  if (generating_member && !generating_member->empty()) return *generating_member;  // a group's speaker
  if (const auto* dialog = engine_.find(ev.dialog_id)) return dialog->row().member_id;
  return {};
}

std::string metrics_observer::tool_label(const std::string& member_id, const std::string& tool) const {
  if (engine_.members().dialog_spec(tool) != nullptr) return tool;
  if (const auto* member = engine_.members().find(member_id)) {
    for (const auto& spec : member->tool_specs) {
      if (spec.name == tool) return metrics::label_value(tool);
    }
  }
  return std::string(kUnknownTool);
}

void metrics_observer::on_event(const event& ev) {
  if (ev.is<events::generation_started>()) {
    open_[ev.dialog_id] = open_generation{clock::now(), std::nullopt};
    return;
  }
  if (const auto* finished = ev.as<events::generation_finished>()) {
    const std::string member = member_of(ev, finished->member_id);
    std::string model = finished->model.value_or("");
    if (model.empty()) {
      if (const auto* config = engine_.team().find_member(member)) model = config->model;
    }
    const metrics::label_values by_model{metrics::label_value(member), metrics::label_value(model)};
    calls_.add({by_model[0], by_model[1], metrics::label_value(finished->finish_reason)});
    const auto& usage = finished->usage;
    const std::pair<std::string_view, std::int64_t> kinds[] = {{"input", usage.input_tokens},
                                                               {"output", usage.output_tokens},
                                                               {"cached", usage.cached_tokens},
                                                               {"reasoning", usage.reasoning_tokens}};
    for (const auto& [kind, count] : kinds) {
      if (count > 0) tokens_.add({by_model[0], by_model[1], std::string(kind)}, static_cast<double>(count));
    }
    const auto priced = engine::usage_of_call(engine_.team(), member, model, usage);
    if (priced.unpriced_calls == 0) cost_.add(by_model, priced.cost_usd);
    // A generation closed by recovery after a restart has no start in this process: no duration.
    if (const auto open = open_.find(ev.dialog_id); open != open_.end()) {
      call_seconds_.observe(by_model, seconds_since(open->second.started));
      if (open->second.first_token_seconds) first_token_seconds_.observe(by_model, *open->second.first_token_seconds);
      open_.erase(open);
    }
    return;
  }
  if (ev.is<events::drive_failed>()) {
    // A drive that failed mid-call (the provider refused or broke) ends its generation unrecorded.
    drive_failures_.add({metrics::label_value(member_of(ev, std::nullopt))});
    open_.erase(ev.dialog_id);
    return;
  }
  if (const auto* result = ev.as<events::tool_result>()) {
    const std::string tool = tool_label(member_of(ev, std::nullopt), result->name);
    tool_calls_.add({tool});
    if (!result->ok) tool_errors_.add({tool});
  }
}

void metrics_observer::on_stream(const engine::stream_event& ev) {
  if (ev.kind == engine::stream_kind::discard) return;
  const auto open = open_.find(ev.dialog_id);
  if (open == open_.end() || open->second.first_token_seconds) return;
  open->second.first_token_seconds = seconds_since(open->second.started);
}

void metrics_observer::write(metrics::exposition& out) const {
  write_counters(out, "parley_model_calls_total", "Model calls that ended, by member, model and finish reason.",
                 kCallLabels, calls_);
  write_counters(out, "parley_model_tokens_total",
                 "Tokens of ended model calls by member, model and kind (input includes cached, output includes "
                 "reasoning).",
                 kTokenLabels, tokens_);
  write_counters(out, "parley_model_cost_usd_total",
                 "Cost in US dollars of model calls whose model has a declared price, by member and model.",
                 kModelLabels, cost_);
  write_histograms(out, "parley_model_call_duration_seconds",
                   "From a model call's start to its end, by member and model.", kModelLabels, call_seconds_);
  write_histograms(out, "parley_model_time_to_first_token_seconds",
                   "From a model call's start to its first streamed token, by member and model.", kModelLabels,
                   first_token_seconds_);
  write_counters(out, "parley_drive_failures_total",
                 "Drives that failed (a model call the provider refused or broke off, a write the store refused), "
                 "by member.",
                 kMemberLabels, drive_failures_);
  write_counters(out, "parley_tool_calls_total", "Tool calls by tool (a name no member has counts as (unknown)).",
                 kToolLabels, tool_calls_);
  write_counters(out, "parley_tool_errors_total", "Tool calls that failed, by tool.", kToolLabels, tool_errors_);
}

}  // namespace parley::server

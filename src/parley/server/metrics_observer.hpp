// What `GET /metrics` says of the team's work, counted as the engine tells it (engine_observer):
// model calls, tokens and cost by member and model, each call's duration and time to its first
// streamed token, tool calls and failed tool calls by tool. Runs on the engine's executor, like
// every observer; a scrape reads the families under their own locks.
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <string>

#include "parley/core/metrics.hpp"
#include "parley/engine/observer.hpp"

namespace parley::engine {
class engine;
}

namespace parley::server {

class metrics_observer final : public engine::engine_observer {
 public:
  explicit metrics_observer(const engine::engine& team_engine) : engine_(team_engine) {}

  void on_event(const event& ev) override;
  void on_stream(const engine::stream_event& ev) override;

  // Appends this observer's families to `out`.
  void write(metrics::exposition& out) const;

 private:
  struct open_generation {
    std::chrono::steady_clock::time_point started;
    std::optional<double> first_token_seconds;  // observed with the call's model once it ends
  };
  std::string member_of(const event& ev, const std::optional<std::string>& generating_member) const;
  std::string tool_label(const std::string& member_id, const std::string& tool) const;

  const engine::engine& engine_;
  // By dialog id (a dialog runs one generation at a time); found by the chunk's string_view, so a
  // streamed chunk costs no allocation.
  std::map<std::string, open_generation, std::less<>> open_;
  metrics::counter_family calls_;                  // member, model, finish_reason
  metrics::counter_family tokens_;                 // member, model, kind
  metrics::counter_family cost_;                   // member, model
  metrics::histogram_family call_seconds_;         // member, model
  metrics::histogram_family first_token_seconds_;  // member, model
  metrics::counter_family drive_failures_;         // member
  metrics::counter_family tool_calls_;             // tool
  metrics::counter_family tool_errors_;            // tool
};

}  // namespace parley::server

// What `GET /metrics` says of the team's work, counted as the engine tells it (engine_observer):
// model calls, tokens and cost by member and model, each call's duration and time to its first
// streamed token, tool calls and failed tool calls by tool. Runs on the engine's executor, like
// every observer; a scrape reads the families under their own locks.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

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
  // One member's calls of one model: found once per call by a key built in a reused buffer, so that
  // counting a call allocates nothing once its series exist (the per-call cost is what
  // bench/README.md "What metrics and traces cost" measures).
  struct model_series {
    std::string member;  // label values, made valid once
    std::string model;
    std::map<std::string, double, std::less<>> calls;  // by finish reason
    double tokens[4] = {};                             // input, output, cached, reasoning
    std::optional<double> cost;                        // set once a priced call came
    metrics::histogram call_seconds;
    metrics::histogram first_token_seconds;
  };
  struct tool_figures {
    double calls = 0;
    double errors = 0;
  };

  std::string_view member_of(const event& ev, const std::optional<std::string>& generating_member) const;
  std::string_view tool_label(std::string_view member_id, std::string_view tool) const;
  model_series& series_of(std::string_view member, std::string_view model);  // under mutex_
  void count_call(const event& ev, const events::generation_finished& finished);

  const engine::engine& engine_;
  // By dialog id (a dialog runs one generation at a time); found by the chunk's string_view, so a
  // streamed chunk costs no allocation.
  std::map<std::string, open_generation, std::less<>> open_;
  mutable std::mutex mutex_;  // the figures below: updated on the loop, read by a scrape
  std::string key_buffer_;
  std::map<std::string, std::unique_ptr<model_series>, std::less<>> series_;  // by member '\x1f' model
  std::map<std::string, tool_figures, std::less<>> tools_;
  metrics::counter_family drive_failures_;  // member
};

}  // namespace parley::server

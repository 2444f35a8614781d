// The dialog tree as a trace (OpenTelemetry GenAI semantic conventions): per drive of a dialog an
// `invoke_agent {member}` span, under it a `chat {model}` span per model call and an
// `execute_tool {tool}` span per tool call; a subdialog's drive hangs under the Tellask call that
// made it. Built from what the engine tells its observers, on the engine's executor; each span is
// handed to `sink` once it ends (otlp_exporter queues it and never blocks).
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>

#include "parley/engine/observer.hpp"
#include "parley/server/trace_span.hpp"

namespace parley::engine {
class engine;
}

namespace parley::server {

struct span_recorder_options {
  // Message content (the model's saying, tool arguments and results) on the spans: off by default,
  // since traces often go where the conversation should not.
  bool capture_content = false;
};

class span_recorder final : public engine::engine_observer {
 public:
  using sink = std::function<void(trace_span&&)>;
  span_recorder(const engine::engine& team_engine, span_recorder_options options, sink on_span)
      : engine_(team_engine), options_(options), sink_(std::move(on_span)) {}

  void on_event(const event& ev) override;
  void on_drive_finished(std::string_view dialog_id) override;

 private:
  struct open_dialog {
    trace_span agent;
    std::string member;
    std::optional<trace_span> chat;
    std::map<std::string, trace_span, std::less<>> tools;  // by call id
  };

  open_dialog& drive_of(const event& ev);
  void start_chat(open_dialog& dialog, const event& ev);
  void finish_chat(open_dialog& dialog, const event& ev, const events::generation_finished& finished);
  void finish_tool(open_dialog& dialog, std::string_view call_id, bool ok, const std::string& content);
  void end(trace_span& span);
  std::string member_of(std::string_view dialog_id) const;
  std::string provider_of(const std::string& member_id) const;

  const engine::engine& engine_;
  span_recorder_options options_;
  sink sink_;
  std::map<std::string, open_dialog, std::less<>> open_;  // by dialog id, while it is driven
  // Members of dialogs just created: their first input comes before the engine lists them.
  std::map<std::string, std::string, std::less<>> created_members_;
};

}  // namespace parley::server

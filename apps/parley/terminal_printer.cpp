#include "terminal_printer.hpp"

#include <unistd.h>

#include <cstdio>

#include "parley/core/json.hpp"

namespace parley::cli {
namespace {

constexpr const char* kDim = "\x1b[2m";
constexpr const char* kCyan = "\x1b[36m";
constexpr const char* kReset = "\x1b[0m";

std::string shorten(std::string text, std::size_t max) {
  for (auto& c : text) {
    if (c == '\n') c = ' ';
  }
  if (text.size() > max) text = text.substr(0, max) + "…";
  return text;
}

}  // namespace

terminal_printer::terminal_printer(bool quiet) : quiet_(quiet), colour_(isatty(STDOUT_FILENO) != 0) {}

void terminal_printer::write(const std::string& text) const {
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
}

void terminal_printer::label(std::string_view dialog_id) {
  if (dialog_id == last_dialog_ || !namer_) return;
  last_dialog_ = std::string(dialog_id);
  write(std::string(colour_ ? kCyan : "") + namer_(dialog_id) + ":" + (colour_ ? kReset : "") + "\n");
}

void terminal_printer::on_stream(const engine::stream_event& ev) {
  if (quiet_) return;
  using engine::stream_kind;
  if (ev.kind == stream_kind::thinking_start || ev.kind == stream_kind::saying_start) label(ev.dialog_id);
  switch (ev.kind) {
    case stream_kind::thinking_start:
      write(colour_ ? kDim : "(thinking) ");
      break;
    case stream_kind::thinking_chunk:
    case stream_kind::saying_chunk:
      write(std::string(ev.text));
      break;
    case stream_kind::thinking_finish:
      write(colour_ ? std::string(kReset) + "\n" : "\n");
      break;
    case stream_kind::saying_start:
      break;
    case stream_kind::saying_finish:
      write("\n");
      break;
    case stream_kind::discard:
      write(std::string(colour_ ? kReset : "") + "\n[connection lost: " + std::string(ev.text) +
            "; what was shown above is discarded and the model is asked again]\n");
      break;
  }
}

void terminal_printer::on_event(const event& ev) {
  if (quiet_) return;
  if (ev.type == event_type::generation_finished) {
    if (const auto* calls = json_array_at(ev.payload, "toolCalls")) {
      for (const auto& call : *calls) {
        if (!call.is_object()) continue;
        const auto& obj = call.get_object();
        write(std::string(colour_ ? kCyan : "") + "→ " + json_string_or(obj, "name") + " " +
              shorten(json_string_or(obj, "arguments"), 120) + (colour_ ? kReset : "") + "\n");
      }
    }
    if (json_bool_or(ev.payload, "interrupted")) write("[generation interrupted]\n");
  } else if (ev.type == event_type::tool_result) {
    const bool ok = json_bool_or(ev.payload, "ok", true);
    write(std::string(colour_ ? kCyan : "") + (ok ? "← " : "← error: ") +
          shorten(json_string_or(ev.payload, "content"), 160) + (colour_ ? kReset : "") + "\n");
  } else if (ev.type == event_type::drive_failed) {
    write("[drive failed: " + json_string_or(ev.payload, "message") + "]\n");
  }
}

}  // namespace parley::cli

#include "terminal_printer.hpp"
#include "cli_messages.hpp"

#include <unistd.h>

#include <cstdio>

#include "marker_tags.hpp"
#include "parley/core/json.hpp"
#include "terminal_guard.hpp"

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

// The colours are the CLI's own sequences: written around the guard that escapes everything else
// (terminal_guard.hpp), and only to a terminal.
void terminal_printer::colour(const char* sequence) const {
  if (colour_) write_terminal_control(sequence);
}

void terminal_printer::label(std::string_view dialog_id) {
  if (dialog_id == last_dialog_ || !namer_) return;
  last_dialog_ = std::string(dialog_id);
  colour(kCyan);
  write(namer_(dialog_id) + ":");
  colour(kReset);
  write("\n");
}

void terminal_printer::on_stream(const engine::stream_event& ev) {
  if (quiet_) return;
  using engine::stream_kind;
  if (ev.kind == stream_kind::thinking_start || ev.kind == stream_kind::saying_start) label(ev.dialog_id);
  switch (ev.kind) {
    case stream_kind::thinking_start:
      if (colour_) {
        colour(kDim);
      } else {
        write(say_cli(msg::stream_thinking));
      }
      break;
    case stream_kind::thinking_chunk:
      write(std::string(ev.text));
      break;
    case stream_kind::saying_chunk:
      say(ev.text);
      break;
    case stream_kind::thinking_finish:
      colour(kReset);
      write("\n");
      break;
    case stream_kind::saying_start:
      holding_ = true;
      held_.clear();
      break;
    case stream_kind::saying_finish:
      if (holding_) write(tag_markers(held_));
      holding_ = false;
      write("\n");
      break;
    case stream_kind::discard:
      holding_ = false;
      colour(kReset);
      write("\n" + say_cli(msg::stream_connection_lost, {{"reason", ev.text}}) + "\n");
      break;
  }
}

// A saying's first bytes are held back while they may still be a seed marker, which is shown as
// its tag (marker_tags.hpp); once they cannot be, the rest streams as it comes.
void terminal_printer::say(std::string_view text) {
  if (!holding_) {
    write(std::string(text));
    return;
  }
  held_ += text;
  if (may_become_marker(held_)) return;
  holding_ = false;
  write(tag_markers(held_));
  held_.clear();
}

void terminal_printer::on_event(const event& ev) {
  if (quiet_) return;
  if (const auto* finished = ev.as<events::generation_finished>()) {
    for (const auto& call : finished->tool_calls) {
      colour(kCyan);
      write("→ " + call.name + " " + shorten(call.arguments, 120));
      colour(kReset);
      write("\n");
    }
    if (finished->interrupted) write(say_cli(msg::stream_interrupted) + "\n");
  } else if (const auto* result = ev.as<events::tool_result>()) {
    colour(kCyan);
    write((result->ok ? std::string("← ") : say_cli(msg::stream_tool_error)) +
          shorten(tag_markers(result->content), 160));
    colour(kReset);
    write("\n");
  } else if (const auto* failed = ev.as<events::drive_failed>()) {
    write(say_cli(msg::stream_drive_failed, {{"error", failed->message}}) + "\n");
  }
}

}  // namespace parley::cli

#include "transcript_text.hpp"

#include <cstdio>
#include <string>

#include "cli_messages.hpp"
#include "cli_text.hpp"
#include "marker_tags.hpp"
#include "parley/core/time.hpp"

namespace parley::cli {
namespace {

// As `parley run` shows them: one "→ name arguments" line per call.
void print_tool_calls(const std::vector<events::tool_call_record>& calls) {
  for (const auto& call : calls) std::printf("  → %s %s\n", call.name.c_str(), call.arguments.c_str());
}

}  // namespace

void print_transcript_line(const message_row& row) {
  if (row.role == events::message_role::user) {
    const std::string_view origin = row.origin ? events::to_wire(*row.origin) : std::string_view();
    std::printf("[%s] %.*s:\n%s", format_iso8601_ms(row.ts_ms).c_str(), static_cast<int>(origin.size()), origin.data(),
                indented(tag_markers(row.content), "  ").c_str());
  } else if (row.role == events::message_role::assistant) {
    if (!row.thinking.empty()) {
      std::printf("%s\n%s", say_cli(msg::transcript_thinking).c_str(), indented(row.thinking, "    ").c_str());
    }
    if (!row.content.empty()) std::printf("%s", indented(tag_markers(row.content), "  ").c_str());
    print_tool_calls(row.tool_calls);
    if (row.interrupted) std::printf("%s\n", say_cli(msg::transcript_interrupted).c_str());
  } else {
    // A result keeps its lines (a file, a listing), indented under the call's name.
    const std::string head =
        say_cli(row.ok ? msg::transcript_tool_result : msg::transcript_tool_error, {{"tool", row.tool_name}});
    std::printf("%s\n%s", head.c_str(), indented(tag_markers(row.content), "      ").c_str());
  }
}

}  // namespace parley::cli

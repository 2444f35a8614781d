#include "transcript_text.hpp"

#include <boost/json/serialize.hpp>

#include <cstdio>
#include <string>

#include "cli_text.hpp"
#include "parley/core/json.hpp"
#include "parley/core/time.hpp"

namespace parley::cli {
namespace {

// As `parley run` shows them: one "→ name arguments" line per call.
void print_tool_calls(const std::string& calls_json) {
  const auto calls = parse_json(calls_json);
  if (!calls || !calls->is_array()) return;
  for (const auto& call : calls->as_array()) {
    if (!call.is_object()) continue;
    const auto& c = call.as_object();
    const auto* args = c.if_contains("arguments");
    const std::string shown_args = args == nullptr     ? ""
                                   : args->is_string() ? std::string(args->as_string())
                                                       : boost::json::serialize(*args);
    std::printf("  → %s %s\n", json_string_or(c, "name").c_str(), shown_args.c_str());
  }
}

}  // namespace

void print_transcript_line(const message_row& row) {
  if (row.role == "user") {
    std::printf("[%s] %s:\n%s", format_iso8601_ms(row.ts_ms).c_str(), row.origin.c_str(),
                indented(row.content, "  ").c_str());
  } else if (row.role == "assistant") {
    if (!row.thinking.empty()) std::printf("  (thinking)\n%s", indented(row.thinking, "    ").c_str());
    if (!row.content.empty()) std::printf("%s", indented(row.content, "  ").c_str());
    if (!row.tool_calls_json.empty()) print_tool_calls(row.tool_calls_json);
    if (row.interrupted) std::printf("  [interrupted]\n");
  } else {
    // A result keeps its lines (a file, a listing), indented under the call's name.
    std::printf("  ← %s%s:\n%s", row.ok ? "" : "error from ", row.tool_name.c_str(),
                indented(row.content, "      ").c_str());
  }
}

}  // namespace parley::cli

// One finished span of the dialog tree's trace (OpenTelemetry's data model, the GenAI semantic
// conventions' names), as span_recorder builds it and otlp_exporter sends it.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace parley::server {

using trace_id = std::array<std::uint8_t, 16>;
using span_id = std::array<std::uint8_t, 8>;

// A trace per root dialog, and span ids from what the log names (a dialog, a call id, an event's
// seq): the same after a restart, so a subdialog resumed by another process still hangs under the
// call that made it.
trace_id trace_id_of(std::string_view root_id);
span_id span_id_of(std::string_view kind, std::string_view dialog_id, std::string_view key);

enum class span_kind { internal = 1, client = 3 };

// Keys are the conventions' names, string literals: a span's dozen attributes allocate only their
// values.
struct span_attribute {
  std::string_view key;
  std::variant<std::string, std::int64_t, std::vector<std::string>> value;
};

struct trace_span {
  trace_id trace{};
  span_id id{};
  std::optional<span_id> parent;
  std::string name;
  span_kind kind = span_kind::internal;
  std::uint64_t start_ns = 0;  // Unix epoch
  std::uint64_t end_ns = 0;
  std::vector<span_attribute> attributes;
  bool error = false;
  std::string status_message;  // with `error`

  void set(std::string_view key, std::string value) { attributes.push_back({key, std::move(value)}); }
  void set(std::string_view key, std::int64_t value) { attributes.push_back({key, value}); }
  void set(std::string_view key, std::vector<std::string> values) { attributes.push_back({key, std::move(values)}); }
};

// Now, in nanoseconds since the Unix epoch.
std::uint64_t unix_nanos_now();

}  // namespace parley::server

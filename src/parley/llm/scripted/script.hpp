// The in-memory form of a scripted-model script (docs/scripted-model.md). Private to
// llm/scripted: it pulls in <regex>, so the public header only forward-declares scripted_script.
#pragma once

#include <boost/json/value.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include "parley/core/result.hpp"

namespace parley::llm::scripted_detail {

// Text with `{{placeholder}}`s, split once at load so expanding it is a walk over parts.
struct text_template {
  enum class part_kind { literal, last_user, last_tool, member, round, capture, last_user_media };
  struct part {
    part_kind kind = part_kind::literal;
    std::string text;         // literal text
    std::size_t capture = 0;  // capture group index
  };
  std::string source;  // the text as written; emitted as is when there are no placeholders
  std::vector<part> parts;
  bool has_placeholders() const noexcept;
  // The highest {{capture.N}} used, or -1.
  long max_capture() const noexcept;
};

// Splits `text` into parts; fails with a message naming the unknown placeholder.
result<text_template> parse_text_template(std::string_view text);
text_template literal_template(std::string text);

// What placeholders expand to for one request.
struct template_context {
  std::string_view last_user;
  std::string_view last_tool;
  std::string_view member;
  std::int64_t round = 0;
  const std::vector<std::string>* captures = nullptr;  // group 0 = the whole match
  // The media the last user message carries, as "image/png 1234 bytes" (what a vision model got).
  std::string last_user_media;
};

// The expansion of `tmpl`: a view of its own text when it has no placeholders (no copy),
// otherwise of `scratch`, which it overwrites.
std::string_view expand_template(const text_template& tmpl, const template_context& ctx, std::string& scratch);

// Where a condition looks.
enum class condition_target { last_user, last_tool, last_message, system, dialog };

struct text_condition {
  condition_target target = condition_target::last_user;
  std::string needle;               // substring conditions
  std::optional<std::regex> regex;  // regex conditions (ECMAScript, search semantics)
};

struct tool_call_item {
  std::string name;
  std::string id;  // empty: "call_<round>_<index>"
  // The arguments text: arguments_text as written, or the `arguments` map serialized at load.
  text_template text;
  // `arguments` whose string values hold placeholders: expanded per call, then serialized.
  bool templated_json = false;
  boost::json::value arguments;
};

struct usage_item {
  // A negative value means "estimate it" (characters / 4).
  std::int64_t input_tokens = -1;
  std::int64_t output_tokens = -1;
  std::int64_t cached_tokens = 0;
  std::int64_t reasoning_tokens = 0;
};

struct emit_item {
  enum class kind { thinking, saying, tool_call, usage };
  emit_item::kind what = kind::saying;
  text_template text;  // thinking / saying
  tool_call_item call;
  usage_item usage;
};

struct script_rule {
  std::vector<text_condition> conditions;
  std::optional<std::int64_t> round;
  // Index into `conditions` of the first regex condition as written; it provides {{capture.N}}.
  int capture_condition = -1;
  std::vector<emit_item> emits;
  int line = 0;  // 1-based line of the rule, for diagnostics
};

}  // namespace parley::llm::scripted_detail

namespace parley::llm {

struct scripted_script {
  using script_rule = scripted_detail::script_rule;

  static constexpr std::size_t kDefaultChunkSize = 16;
  std::string source;                          // file name (or the name given to parse_scripted_script)
  std::size_t chunk_size = kDefaultChunkSize;  // characters per chunk; 0 = whole text
  std::int64_t delay_ms = 0;
  std::map<std::string, std::vector<script_rule>, std::less<>> members;
  std::optional<std::vector<script_rule>> fallback;  // "*"

  // The rules that apply to `member_id`, or nullptr when neither it nor "*" has any.
  const std::vector<script_rule>* rules_for(std::string_view member_id) const;
};

}  // namespace parley::llm

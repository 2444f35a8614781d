#include "parley/config/priming_scripts.hpp"

#include <boost/json/parse.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <optional>
#include <string_view>
#include <system_error>

#include "parley/config/yaml_reader.hpp"

namespace parley::config {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;

// A script is text a user edits; anything bigger is not one.
constexpr std::uintmax_t kPrimingMaxFileBytes = std::uintmax_t{1024} * 1024;

constexpr std::array<std::string_view, 19> kPrimingRecordTypes{
    "agent_thought_record",      "agent_words_record",
    "ui_only_markdown_record",   "runtime_guide_record",
    "func_call_record",          "tellask_call_record",
    "web_search_call_record",    "tool_result_image_ingest_record",
    "user_image_ingest_record",  "human_text_record",
    "func_result_record",        "tellask_result_record",
    "sideDialog_request_record", "tellask_reply_resolution_record",
    "tellask_anchor_record",     "tellask_callee_record",
    "tellask_carryover_record",  "gen_start_record",
    "gen_finish_record"};

// The record field a Markdown block's body becomes (Dominds' getRecordMarkdownTextField); empty:
// the type takes no body.
std::string_view priming_text_field(std::string_view type) {
  if (type == "sideDialog_request_record") return "tellaskContent";
  if (type == "tellask_carryover_record") return "response";
  for (const std::string_view with_content :
       {"agent_thought_record", "agent_words_record", "ui_only_markdown_record", "runtime_guide_record",
        "human_text_record", "func_result_record", "tellask_result_record"}) {
    if (type == with_content) return "content";
  }
  return {};
}

// A record's fields as JavaScript would see them after YAML or JSON parsing: enough to check types.
enum class priming_value { string, integer, boolean, other };
struct priming_field {
  priming_value kind = priming_value::other;
  std::string text;
};
using priming_fields = std::map<std::string, priming_field, std::less<>>;

error priming_error(const std::string& label, std::size_t line, std::string_view what) {
  return make_error(errc::config_error, label + ":" + std::to_string(line) + ": " + std::string(what));
}

// The YAML reader's "LABEL:LINE:COLUMN: problem", said as Dominds says it, the position first.
error priming_yaml_error(const std::string& label, const error& failed) {
  const std::string& message = failed.message;
  const auto after_position = message.find(": ", label.size());
  if (!message.starts_with(label) || after_position == std::string::npos) {
    return make_error(errc::config_error, label + ": Invalid priming frontmatter: " + message);
  }
  return make_error(errc::config_error, message.substr(0, after_position + 2) +
                                            "Invalid priming frontmatter: " + message.substr(after_position + 2));
}

bool priming_whole_number(std::string_view text) {
  if (text.starts_with('-') || text.starts_with('+')) text.remove_prefix(1);
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// yaml's core schema, as Dominds' YAML parser reads a scalar: quoted is a string, plain may be a
// number, a boolean or null.
priming_field priming_yaml_field(const YAML::Node& node) {
  if (!node.IsScalar()) return {};
  const std::string& text = node.Scalar();
  if (node.Tag() == "!") return {priming_value::string, text};
  if (priming_whole_number(text)) return {priming_value::integer, text};
  if (text == "true" || text == "false") return {priming_value::boolean, text};
  if (text == "null" || text == "~" || text.empty()) return {};
  const bool numeric = text.find_first_not_of("0123456789.eE+-") == std::string::npos && text != "." && text != "-";
  return {numeric ? priming_value::other : priming_value::string, text};
}

priming_field priming_json_field(const json::value& value) {
  if (value.is_string()) return {priming_value::string, std::string(value.as_string())};
  if (value.is_int64()) return {priming_value::integer, std::to_string(value.as_int64())};
  if (value.is_uint64()) return {priming_value::integer, std::to_string(value.as_uint64())};
  if (value.is_double()) {
    const double d = value.as_double();
    if (d == static_cast<double>(static_cast<std::int64_t>(d))) return {priming_value::integer, std::to_string(d)};
  }
  if (value.is_bool()) return {priming_value::boolean, value.as_bool() ? "true" : "false"};
  return {};
}

struct priming_text {
  std::vector<std::string> lines;  // the file's lines, CRLF read as LF
  std::size_t body_first = 0;      // index of the first line after the top frontmatter
  std::string frontmatter;         // its YAML, with blank lines before it so positions are the file's
};

priming_text split_priming_text(const std::string& raw) {
  priming_text out;
  std::string line;
  for (std::size_t i = 0; i <= raw.size(); ++i) {
    if (i == raw.size() || raw[i] == '\n') {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      out.lines.push_back(std::move(line));
      line.clear();
    } else {
      line += raw[i];
    }
  }
  if (out.lines.empty() || out.lines[0] != "---") return out;
  for (std::size_t i = 1; i < out.lines.size(); ++i) {
    if (out.lines[i] != "---") continue;
    out.frontmatter = "\n";
    for (std::size_t j = 1; j < i; ++j) out.frontmatter += out.lines[j] + "\n";
    out.body_first = i + 1;
    break;
  }
  return out;
}

result<void> check_priming_reminder(const std::string& label, const YAML::Node& item, const std::string& at) {
  const auto line = static_cast<std::size_t>(item.Mark().line + 1);
  if (!item.IsMap()) return priming_error(label, line, at + " must be an object");
  const auto field = [&](const char* key) { return item[key] ? priming_yaml_field(item[key]) : priming_field{}; };
  const auto given = [&](const char* key) { return static_cast<bool>(item[key]) && !item[key].IsNull(); };
  const priming_field content = field("content");
  if (content.kind != priming_value::string) return priming_error(label, line, at + ".content must be a string");
  if (content.text.find_first_not_of(" \t\n") == std::string::npos) {
    return priming_error(label, line, at + ".content must be a non-empty string");
  }
  for (const char* key : {"id", "createdAt"}) {
    if (given(key) && field(key).kind != priming_value::string) {
      return priming_error(label, line, at + "." + key + " must be a string when provided");
    }
  }
  if (given("ownerName") && (field("ownerName").kind != priming_value::string || field("ownerName").text.empty())) {
    return priming_error(label, line, at + ".ownerName must be a non-empty string when provided");
  }
  if (given("echoback") && field("echoback").kind != priming_value::boolean) {
    return priming_error(label, line, at + ".echoback must be a boolean when provided");
  }
  const std::pair<const char*, std::vector<std::string_view>> enums[] = {
      {"scope", {"dialog", "task", "agent", "runtime"}},
      {"renderMode", {"plain", "markdown"}},
      {"priority", {"high", "medium", "low"}}};
  for (const auto& [key, allowed] : enums) {
    if (!given(key)) continue;
    const priming_field value = field(key);
    if (std::find(allowed.begin(), allowed.end(), value.text) == allowed.end() || value.kind != priming_value::string) {
      std::string names;
      for (const auto name : allowed) names += (names.empty() ? "" : " | ") + std::string(name);
      return priming_error(label, line, at + "." + key + " must be " + names + " when provided");
    }
  }
  return ok();
}

result<void> check_priming_frontmatter(const std::string& label, const priming_text& text) {
  if (text.body_first == 0) return ok();
  auto node = detail::parse_yaml_text(label, text.frontmatter);
  if (!node) return priming_yaml_error(label, node.err());
  if (!node->IsMap()) return ok();  // Dominds reads anything else as no frontmatter
  const YAML::Node reminders = (*node)["reminders"];
  if (!reminders || reminders.IsNull()) return ok();
  if (!reminders.IsSequence()) {
    return priming_error(label, static_cast<std::size_t>(reminders.Mark().line + 1),
                         "top-level frontmatter.reminders must be an array when provided");
  }
  for (std::size_t i = 0; i < reminders.size(); ++i) {
    PARLEY_TRY(check_priming_reminder(label, reminders[i], "frontmatter.reminders[" + std::to_string(i) + "]"));
  }
  return ok();
}

std::string_view priming_trimmed(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())) != 0) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())) != 0) text.remove_suffix(1);
  return text;
}

// `### record <type>`: the type, lower-cased; nullopt for any other line.
std::optional<std::string> priming_heading(std::string_view line) {
  if (!line.starts_with("###")) return std::nullopt;
  std::string_view rest = line.substr(3);
  if (rest.empty() || (rest.front() != ' ' && rest.front() != '\t')) return std::nullopt;
  rest = priming_trimmed(rest);
  if (rest.size() < 7) return std::nullopt;
  std::string word(rest.substr(0, 6));
  std::transform(word.begin(), word.end(), word.begin(), [](char c) { return static_cast<char>(std::tolower(c)); });
  if (word != "record" || (rest[6] != ' ' && rest[6] != '\t')) return std::nullopt;
  std::string type(priming_trimmed(rest.substr(7)));
  const bool word_chars = !type.empty() && std::all_of(type.begin(), type.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
  });
  if (!word_chars) return std::nullopt;
  std::transform(type.begin(), type.end(), type.begin(), [](char c) { return static_cast<char>(std::tolower(c)); });
  return type;
}

// The record type as Dominds names it (its heading match is case-insensitive, its names are not
// all lower case: sideDialog_request_record).
std::optional<std::string_view> priming_record_type(std::string_view lowered) {
  for (const auto type : kPrimingRecordTypes) {
    std::string low(type);
    std::transform(low.begin(), low.end(), low.begin(), [](char c) { return static_cast<char>(std::tolower(c)); });
    if (low == lowered) return type;
  }
  return std::nullopt;
}

struct priming_block {
  std::string content;
  std::size_t first_line = 0;  // index of the block's first content line
  std::size_t next = 0;        // index after the block
};

result<priming_block> read_priming_block(const std::string& label, const priming_text& text, std::size_t at,
                                         std::size_t heading_line, std::string_view type) {
  while (at < text.lines.size() && priming_trimmed(text.lines[at]).empty()) ++at;
  priming_block block;
  const std::string_view opening = at < text.lines.size() ? std::string_view(text.lines[at]) : std::string_view{};
  const char fence_char = opening.empty() ? '\0' : opening.front();
  const std::size_t fence_len = (fence_char == '`' || fence_char == '~') ? opening.find_first_not_of(fence_char) : 0;
  const std::size_t run = fence_len == std::string_view::npos ? opening.size() : fence_len;
  const bool fenced = run >= 3 && opening.substr(run).find_first_of("`~") == std::string_view::npos;
  if (!fenced) {
    block.first_line = at;
    for (; at < text.lines.size() && !priming_heading(text.lines[at]); ++at) block.content += text.lines[at] + "\n";
    block.next = at;
    return block;
  }
  const std::string fence(opening.substr(0, run));
  block.first_line = at + 1;
  for (std::size_t i = at + 1; i < text.lines.size(); ++i) {
    if (priming_trimmed(text.lines[i]) == fence) {
      block.next = i + 1;
      return block;
    }
    block.content += text.lines[i] + "\n";
  }
  return priming_error(label, heading_line + 1,
                       "Priming block is missing closing fence for 'record " + std::string(type) + "'");
}

result<priming_fields> priming_json_record_fields(const std::string& label, std::size_t line,
                                                  std::string_view content) {
  if (priming_trimmed(content).empty())
    return priming_error(label, line, "func_call_record block must be a non-empty JSON object");
  std::error_code ec;
  const json::value parsed = json::parse(content, ec);
  if (ec) return priming_error(label, line, "func_call_record block must be valid JSON: " + ec.message());
  if (!parsed.is_object()) return priming_error(label, line, "func_call_record block must be a JSON object");
  priming_fields fields;
  for (const auto& [key, value] : parsed.as_object()) fields[std::string(key)] = priming_json_field(value);
  const auto type = fields.find("type");
  if (type != fields.end() && type->second.text != "func_call_record") {
    return priming_error(
        label, line,
        "func_call_record JSON type mismatch: expected 'func_call_record', got '" + type->second.text + "'");
  }
  return fields;
}

result<priming_fields> priming_markdown_record_fields(const std::string& label, std::size_t heading_line,
                                                      std::string_view type, const priming_block& block) {
  priming_text inner = split_priming_text(block.content);
  priming_fields fields;
  if (inner.body_first != 0) {
    auto node = detail::parse_yaml_text(label, std::string(block.first_line, '\n') + inner.frontmatter);
    if (!node) return priming_yaml_error(label, node.err());
    if (node->IsMap()) {
      for (const auto& item : *node) fields[item.first.as<std::string>("")] = priming_yaml_field(item.second);
    }
  }
  if (fields.contains("type")) {
    return priming_error(label, heading_line,
                         "record(" + std::string(type) + ") markdown block must not define 'type' in frontmatter");
  }
  std::string body;
  for (std::size_t i = inner.body_first; i < inner.lines.size(); ++i) body += inner.lines[i] + "\n";
  const std::string_view text_field = priming_text_field(type);
  if (text_field.empty() && !priming_trimmed(body).empty()) {
    return priming_error(label, heading_line,
                         "record(" + std::string(type) + ") does not accept markdown body content");
  }
  if (!text_field.empty()) fields[std::string(text_field)] = {priming_value::string, body};
  if (type == "human_text_record" && !fields.contains("grammar"))
    fields["grammar"] = {priming_value::string, "markdown"};
  return fields;
}

// The fields Dominds requires of the record types checked here (the header says which).
result<void> check_priming_record_fields(const std::string& label, std::size_t line, std::string_view type,
                                         const priming_fields& fields) {
  const std::string at = "record(" + std::string(type) + ").";
  const auto kind_of = [&](std::string_view key) {
    const auto found = fields.find(key);
    return found == fields.end() ? std::optional<priming_field>{} : std::optional<priming_field>{found->second};
  };
  const auto genseq = kind_of("genseq");
  if (!genseq || genseq->kind != priming_value::integer || genseq->text.starts_with('-')) {
    return priming_error(label, line, at + "genseq must be a non-negative integer");
  }
  std::vector<std::string_view> names;
  if (type == "human_text_record") names = {"msgId"};
  if (type == "func_call_record" || type == "func_result_record") names = {"id", "name"};
  for (const auto name : names) {
    const auto value = kind_of(name);
    if (!value || value->kind != priming_value::string)
      return priming_error(label, line, at + std::string(name) + " must be a string");
    if (priming_trimmed(value->text).empty())
      return priming_error(label, line, at + std::string(name) + " must be a non-empty string");
  }
  if (type == "func_call_record") {
    const auto raw = kind_of("rawArgumentsText");
    if (!raw || raw->kind != priming_value::string)
      return priming_error(label, line, at + "rawArgumentsText must be a string");
  }
  if (type == "human_text_record") {
    const auto grammar = kind_of("grammar");
    if (!grammar || grammar->text != "markdown") return priming_error(label, line, at + "grammar must be 'markdown'");
  }
  return ok();
}

result<void> check_priming_body(const std::string& label, const priming_text& text) {
  std::size_t at = text.body_first;
  while (at < text.lines.size()) {
    const auto heading = priming_heading(text.lines[at]);
    if (!heading) {
      ++at;
      continue;
    }
    const std::size_t heading_line = at;
    const auto type = priming_record_type(*heading);
    if (!type) return priming_error(label, at + 1, "Unsupported priming record heading type '" + *heading + "'");
    auto block = read_priming_block(label, text, at + 1, heading_line, *type);
    if (!block) return std::move(block).err();
    at = block->next;
    auto fields = *type == "func_call_record" ? priming_json_record_fields(label, heading_line + 1, block->content)
                                              : priming_markdown_record_fields(label, heading_line + 1, *type, *block);
    if (!fields) return std::move(fields).err();
    PARLEY_TRY(check_priming_record_fields(label, heading_line + 1, *type, *fields));
  }
  return ok();
}

// Dominds' path rule: individual/<member>/<slug...> or team_shared/<slug...>.
result<void> check_priming_path(const std::string& label, const fs::path& relative) {
  std::vector<std::string> parts;
  for (const auto& part : relative) parts.push_back(part.string());
  if (!parts.empty() && parts[0] == "individual" && parts.size() >= 3) return ok();
  if (!parts.empty() && parts[0] == "team_shared" && parts.size() >= 2) return ok();
  if (!parts.empty() && (parts[0] == "individual" || parts[0] == "team_shared")) {
    return make_error(errc::config_error,
                      label + ": Invalid " + parts[0] + " priming script path: " + relative.generic_string());
  }
  return make_error(errc::config_error, label + ": Unsupported priming scope in path: " + relative.generic_string());
}

result<void> check_priming_file(const fs::path& file, const std::string& label, const fs::path& relative) {
  PARLEY_TRY(check_priming_path(label, relative));
  std::error_code ec;
  if (fs::file_size(file, ec) > kPrimingMaxFileBytes) return make_error(errc::limit_exceeded, label + ": over 1 MiB");
  auto raw = detail::read_text_file(file);
  if (!raw) return std::move(raw).err();
  const priming_text text = split_priming_text(*raw);
  PARLEY_TRY(check_priming_frontmatter(label, text));
  return check_priming_body(label, text);
}

std::vector<fs::path> priming_files(const fs::path& root) {
  std::vector<fs::path> files;
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return files;
  for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->symlink_status(ec).type() != fs::file_type::regular) continue;  // as Dominds: files, not links
    std::string name = it->path().filename().string();
    std::transform(name.begin(), name.end(), name.begin(), [](char c) { return static_cast<char>(std::tolower(c)); });
    if (name.ends_with(".md")) files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

priming_report validate_priming_scripts(const fs::path& workspace) {
  priming_report report;
  const fs::path root = workspace / ".minds" / "priming";
  for (const auto& file : priming_files(root)) {
    ++report.checked;
    const fs::path relative = file.lexically_relative(root);
    std::string label = (fs::path(".minds") / "priming" / relative).generic_string();
    fs::path shown = relative;
    shown.replace_extension();
    if (auto checked = check_priming_file(file, label, shown); !checked) {
      report.issues.push_back({std::move(label), checked.err().message});
    }
  }
  return report;
}

std::vector<problem> priming_problems(const fs::path& workspace) {
  const priming_report report = validate_priming_scripts(workspace);
  if (report.checked == 0) return {};
  problem found;
  found.file = (workspace / ".minds" / "priming").string();
  found.what = "priming";
  found.why = std::to_string(report.checked) + " startup script(s) under .minds/priming/";
  if (!report.issues.empty()) {
    found.why +=
        " (" + std::to_string(report.issues.size()) + " invalid: team_mgmt_validate_priming_scripts names them)";
  }
  found.why += "; Parley does not replay priming scripts: its dialogs start without them";
  return {found};
}

}  // namespace parley::config

// Reads a script from YAML into scripted_script, checking everything that can be checked before
// the first request: keys, types, regexes, placeholders and capture group numbers.
#include <boost/json/serialize.hpp>

#include <fstream>
#include <optional>
#include <sstream>

#include "parley/config/yaml_scalar_utf8.hpp"
#include "parley/core/file_text.hpp"
#include "parley/core/utf8.hpp"
#include "parley/core/vocabulary.hpp"
#include "parley/llm/scripted/script.hpp"
#include "parley/llm/scripted/script_yaml.hpp"
#include "parley/llm/scripted/scripted_provider.hpp"

namespace parley::llm {

using namespace scripted_detail;  // NOLINT(google-build-using-namespace): the script model this file works on

namespace {

const std::vector<std::string> kRootKeys{"chunk_size", "delay_ms", "members"};
const std::vector<std::string> kRuleKeys{"when", "emit"};
// An emit item is a mapping with one key, its kind.
constexpr name_table<emit_item::kind, 4> kEmitKinds{{{emit_item::kind::thinking, "thinking"},
                                                     {emit_item::kind::saying, "saying"},
                                                     {emit_item::kind::tool_call, "tool_call"},
                                                     {emit_item::kind::usage, "usage"}}};
const std::vector<std::string> kEmitKeys = [] {
  std::vector<std::string> keys;
  for (const auto& entry : kEmitKinds) keys.emplace_back(entry.second);
  return keys;
}();
const std::vector<std::string> kToolCallKeys{"name", "arguments", "arguments_text", "id"};
const std::vector<std::string> kUsageKeys{"input_tokens", "output_tokens", "cached_tokens", "reasoning_tokens"};

struct condition_key {
  std::string name;
  condition_target target;
  bool regex;
};

const std::vector<condition_key> kConditions{
    {"last_user", condition_target::last_user, false},
    {"last_user_regex", condition_target::last_user, true},
    {"last_tool", condition_target::last_tool, false},
    {"last_tool_regex", condition_target::last_tool, true},
    {"last_message", condition_target::last_message, false},
    {"last_message_regex", condition_target::last_message, true},
    {"system", condition_target::system, false},
    {"system_regex", condition_target::system, true},
    {"dialog_has", condition_target::dialog, false},
};

std::vector<std::string> when_keys() {
  std::vector<std::string> keys{"round"};
  for (const auto& c : kConditions) keys.push_back(c.name);
  return keys;
}

class script_parser {
 public:
  explicit script_parser(std::string source) : reader_(std::move(source)) {}

  result<std::shared_ptr<const scripted_script>> parse(std::string_view yaml_text);

 private:
  result<void> parse_root(const yaml_field& root, scripted_script& out);
  result<std::vector<script_rule>> parse_rules(const yaml_field& at);
  result<script_rule> parse_rule(const yaml_field& at);
  result<void> parse_when(const yaml_field& at, script_rule& rule);
  result<emit_item> parse_emit(const yaml_field& at, const script_rule& rule);
  result<tool_call_item> parse_tool_call(const yaml_field& at, const script_rule& rule);
  result<usage_item> parse_usage(const yaml_field& at);
  result<text_template> parse_text(const yaml_field& at, const script_rule& rule);
  result<bool> check_argument_strings(const yaml_field& at, const script_rule& rule);

  yaml_reader reader_;
};

result<std::shared_ptr<const scripted_script>> script_parser::parse(std::string_view yaml_text) {
  // What a script says becomes model output, which the log stores as JSON text: UTF-8 only.
  if (const auto bad = first_invalid_utf8(yaml_text)) {
    const text_position at = position_of(yaml_text, *bad);
    return reader_.fail_at(static_cast<int>(at.line), static_cast<int>(at.column), "",
                           describe_invalid_utf8(yaml_text, *bad) + " (save the script as UTF-8)");
  }
  // YAML has no NUL, and yaml-cpp turns the bytes around one into text that is not UTF-8 (or
  // reads the whole file as UTF-16 or UTF-32), which would then be streamed as model output.
  if (const auto nul = yaml_text.find('\0'); nul != std::string_view::npos) {
    const text_position at = position_of(yaml_text, nul);
    return reader_.fail_at(static_cast<int>(at.line), static_cast<int>(at.column), "",
                           "a NUL byte at offset " + std::to_string(nul) + " (a script is text)");
  }
  YAML::Node root;
  try {
    root = YAML::Load(std::string(yaml_text));
  } catch (const YAML::ParserException& e) {
    // yaml-cpp quotes the offending byte alone, which may be half of a UTF-8 character.
    return reader_.fail_at(e.mark.line, e.mark.column, "", "invalid YAML: " + repair_utf8(e.msg).text);
  }
  if (const auto bad = config::scalar_not_utf8(std::string(yaml_text))) {
    return reader_.fail_at(bad->line, bad->column, "", config::kYamlEscapeProblem);
  }
  if (!root.IsDefined() || root.IsNull()) {
    return reader_.fail_at(0, 0, "", "the script is empty; expected a map with 'members'");
  }
  auto script = std::make_shared<scripted_script>();
  script->source = reader_.source();
  PARLEY_TRY(parse_root(yaml_field{YAML::Node(YAML::NodeType::Undefined), root, ""}, *script));
  return std::shared_ptr<const scripted_script>(std::move(script));
}

result<void> script_parser::parse_root(const yaml_field& root, scripted_script& out) {
  PARLEY_TRY(reader_.check_map(root, kRootKeys));
  for (auto it = root.value.begin(); it != root.value.end(); ++it) {
    const yaml_field entry = root.child(it->first, it->second);
    const std::string& key = it->first.Scalar();
    if (key == "chunk_size") {
      auto size = reader_.integer(entry, 0);
      if (!size) return std::move(size).err();
      out.chunk_size = static_cast<std::size_t>(*size);
    } else if (key == "delay_ms") {
      auto delay = reader_.integer(entry, 0);
      if (!delay) return std::move(delay).err();
      out.delay_ms = *delay;
    }
  }
  auto members = reader_.require(root, "members");
  if (!members) return std::move(members).err();
  if (!members->value.IsMap()) return reader_.fail(*members, "expected a map of member id to a list of rules");
  if (members->value.size() == 0) return reader_.fail(*members, "expected at least one member (or '*')");
  for (auto it = members->value.begin(); it != members->value.end(); ++it) {
    const yaml_field member = members->child(it->first, it->second);
    if (!it->first.IsScalar()) return reader_.fail_at_key(member, "member ids must be text");
    auto rules = parse_rules(member);
    if (!rules) return std::move(rules).err();
    const std::string& id = it->first.Scalar();
    const bool duplicate = id == "*" ? out.fallback.has_value() : out.members.contains(id);
    if (duplicate) return reader_.fail_at_key(member, "duplicate member '" + id + "'");
    if (id == "*") {
      out.fallback = std::move(rules).value();
    } else {
      out.members.emplace(id, std::move(rules).value());
    }
  }
  return ok();
}

result<std::vector<script_rule>> script_parser::parse_rules(const yaml_field& at) {
  PARLEY_TRY(reader_.check_sequence(at));
  if (at.value.size() == 0) return reader_.fail(at, "expected at least one rule");
  std::vector<script_rule> rules;
  rules.reserve(at.value.size());
  for (std::size_t i = 0; i < at.value.size(); ++i) {
    auto rule = parse_rule(at.item(i, at.value[i]));
    if (!rule) return std::move(rule).err();
    rules.push_back(std::move(rule).value());
  }
  return rules;
}

result<script_rule> script_parser::parse_rule(const yaml_field& at) {
  PARLEY_TRY(reader_.check_map(at, kRuleKeys));
  script_rule rule;
  rule.line = at.value.Mark().line + 1;
  // `when` first whatever the key order: the emits' {{capture.N}} are checked against its regexes.
  for (auto it = at.value.begin(); it != at.value.end(); ++it) {
    if (it->first.Scalar() == "when") PARLEY_TRY(parse_when(at.child(it->first, it->second), rule));
  }
  auto emit = reader_.require(at, "emit");
  if (!emit) return std::move(emit).err();
  PARLEY_TRY(reader_.check_sequence(*emit));
  rule.emits.reserve(emit->value.size());
  for (std::size_t i = 0; i < emit->value.size(); ++i) {
    auto item = parse_emit(emit->item(i, emit->value[i]), rule);
    if (!item) return std::move(item).err();
    rule.emits.push_back(std::move(item).value());
  }
  return rule;
}

result<void> script_parser::parse_when(const yaml_field& at, script_rule& rule) {
  static const std::vector<std::string> keys = when_keys();
  PARLEY_TRY(reader_.check_map(at, keys));
  for (auto it = at.value.begin(); it != at.value.end(); ++it) {
    const yaml_field entry = at.child(it->first, it->second);
    const std::string& key = it->first.Scalar();
    if (key == "round") {
      auto round = reader_.integer(entry, 1);
      if (!round) return std::move(round).err();
      rule.round = *round;
      continue;
    }
    const auto spec =
        std::find_if(kConditions.begin(), kConditions.end(), [&](const auto& c) { return c.name == key; });
    auto value = reader_.text(entry);
    if (!value) return std::move(value).err();
    text_condition condition;
    condition.target = spec->target;
    if (!spec->regex) {
      condition.needle = std::move(value).value();
      rule.conditions.push_back(std::move(condition));
      continue;
    }
    try {
      condition.regex.emplace(*value, std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
      return reader_.fail(entry, "invalid regex '" + *value + "': " + e.what());
    }
    if (rule.capture_condition < 0) rule.capture_condition = static_cast<int>(rule.conditions.size());
    rule.conditions.push_back(std::move(condition));
  }
  return ok();
}

result<text_template> script_parser::parse_text(const yaml_field& at, const script_rule& rule) {
  auto text = reader_.text(at);
  if (!text) return std::move(text).err();
  auto tmpl = parse_text_template(*text);
  if (!tmpl) return reader_.fail(at, tmpl.err().message);
  const long capture = tmpl->max_capture();
  if (capture < 0) return tmpl;
  const std::string used = "'{{capture." + std::to_string(capture) + "}}'";
  if (rule.capture_condition < 0) {
    return reader_.fail(at, used +
                                " needs a regex condition (last_user_regex, last_tool_regex, "
                                "last_message_regex or system_regex) in this rule's 'when'");
  }
  const auto groups = rule.conditions[static_cast<std::size_t>(rule.capture_condition)].regex->mark_count();
  if (static_cast<std::size_t>(capture) > groups) {
    return reader_.fail(at, used + " but the rule's first regex has " + std::to_string(groups) + " capture group" +
                                (groups == 1 ? "" : "s"));
  }
  return tmpl;
}

result<emit_item> script_parser::parse_emit(const yaml_field& at, const script_rule& rule) {
  PARLEY_TRY(reader_.check_map(at, kEmitKeys));
  if (at.value.size() != 1) {
    if (at.value.size() == 0) return reader_.fail(at, "an emit item needs one of: thinking, saying, tool_call, usage");
    auto it = at.value.begin();
    const std::string first = it->first.Scalar();
    const std::string second = (++it)->first.Scalar();
    return reader_.fail(at, "an emit item has exactly one kind, this one has both '" + first + "' and '" + second +
                                "'; put each in its own list item");
  }
  const auto entry_it = at.value.begin();
  const yaml_field entry = at.child(entry_it->first, entry_it->second);
  const std::string& kind = entry_it->first.Scalar();
  emit_item item;
  // check_map above refused any other key.
  item.what = lookup_name(kEmitKinds, kind).value_or(emit_item::kind::usage);
  switch (item.what) {
    case emit_item::kind::thinking:
    case emit_item::kind::saying: {
      auto text = parse_text(entry, rule);
      if (!text) return std::move(text).err();
      item.text = std::move(text).value();
      break;
    }
    case emit_item::kind::tool_call: {
      auto call = parse_tool_call(entry, rule);
      if (!call) return std::move(call).err();
      item.call = std::move(call).value();
      break;
    }
    case emit_item::kind::usage: {
      auto usage = parse_usage(entry);
      if (!usage) return std::move(usage).err();
      item.usage = usage.value();
      break;
    }
  }
  return item;
}

// Checks the placeholders in every string of an `arguments` map; true when there are any.
result<bool> script_parser::check_argument_strings(const yaml_field& at, const script_rule& rule) {
  if (at.value.IsScalar()) {
    auto tmpl = parse_text(at, rule);
    if (!tmpl) return std::move(tmpl).err();
    return tmpl->has_placeholders();
  }
  bool any = false;
  if (at.value.IsSequence()) {
    for (std::size_t i = 0; i < at.value.size(); ++i) {
      auto found = check_argument_strings(at.item(i, at.value[i]), rule);
      if (!found) return std::move(found).err();
      any = any || *found;
    }
  } else if (at.value.IsMap()) {
    for (auto it = at.value.begin(); it != at.value.end(); ++it) {
      auto found = check_argument_strings(at.child(it->first, it->second), rule);
      if (!found) return std::move(found).err();
      any = any || *found;
    }
  }
  return any;
}

result<tool_call_item> script_parser::parse_tool_call(const yaml_field& at, const script_rule& rule) {
  PARLEY_TRY(reader_.check_map(at, kToolCallKeys));
  auto name = reader_.require(at, "name");
  if (!name) return std::move(name).err();
  tool_call_item call;
  auto name_text = reader_.text(*name);
  if (!name_text) return std::move(name_text).err();
  if (name_text->empty()) return reader_.fail(*name, "the tool name is empty");
  call.name = std::move(name_text).value();
  call.text = literal_template("{}");
  for (auto it = at.value.begin(); it != at.value.end(); ++it) {
    const yaml_field entry = at.child(it->first, it->second);
    const std::string& key = it->first.Scalar();
    if (key == "id") {
      auto id = reader_.text(entry);
      if (!id) return std::move(id).err();
      call.id = std::move(id).value();
    } else if (key == "arguments_text") {
      if (at.value["arguments"].IsDefined()) {
        return reader_.fail_at_key(entry, "give either 'arguments' (a map) or 'arguments_text' (raw text), not both");
      }
      auto text = parse_text(entry, rule);
      if (!text) return std::move(text).err();
      call.text = std::move(text).value();
    } else if (key == "arguments") {
      if (!entry.value.IsMap()) return reader_.fail(entry, "expected a map (it becomes the JSON arguments object)");
      auto json = reader_.to_json(entry);
      if (!json) return std::move(json).err();
      auto templated = check_argument_strings(entry, rule);
      if (!templated) return std::move(templated).err();
      call.templated_json = *templated;
      if (call.templated_json) {
        call.arguments = std::move(json).value();
      } else {
        call.text = literal_template(boost::json::serialize(*json));
      }
    }
  }
  return call;
}

result<usage_item> script_parser::parse_usage(const yaml_field& at) {
  PARLEY_TRY(reader_.check_map(at, kUsageKeys));
  usage_item usage;
  for (auto it = at.value.begin(); it != at.value.end(); ++it) {
    auto count = reader_.integer(at.child(it->first, it->second), 0);
    if (!count) return std::move(count).err();
    const std::string& key = it->first.Scalar();
    if (key == "input_tokens") usage.input_tokens = *count;
    if (key == "output_tokens") usage.output_tokens = *count;
    if (key == "cached_tokens") usage.cached_tokens = *count;
    if (key == "reasoning_tokens") usage.reasoning_tokens = *count;
  }
  return usage;
}

}  // namespace

const std::vector<script_rule>* scripted_script::rules_for(std::string_view member_id) const {
  if (const auto it = members.find(member_id); it != members.end()) return &it->second;
  return fallback ? &*fallback : nullptr;
}

result<std::shared_ptr<const scripted_script>> parse_scripted_script(std::string_view yaml_text,
                                                                     std::string_view source_name) {
  script_parser parser{std::string(source_name)};
  try {
    return parser.parse(yaml_text);
  } catch (const std::exception& e) {
    // yaml-cpp conversions can still throw on odd documents (and allocation can fail anywhere):
    // report it, never let it out.
    return make_error(errc::config_error, std::string(source_name) + ": cannot read the script: " + e.what());
  }
}

result<std::shared_ptr<const scripted_script>> load_scripted_script(const std::filesystem::path& file) {
  auto text = read_regular_file(file, errc::config_error);
  if (!text) return std::move(text).err();
  return parse_scripted_script(*text, file.string());
}

}  // namespace parley::llm

#include "parley/llm/scripted/dominds_mock.hpp"

#include <boost/json/serialize.hpp>

#include <algorithm>
#include <cctype>

#include "parley/core/file_text.hpp"
#include "parley/core/utf8.hpp"
#include "parley/llm/scripted/script.hpp"
#include "parley/llm/scripted/script_yaml.hpp"
#include "parley/llm/scripted/scripted_provider.hpp"

namespace parley::llm {

using namespace scripted_detail;  // NOLINT(google-build-using-namespace): the script model this file builds

namespace {

// Dominds compares the trimmed, lower-cased texts: the same as a case-insensitive regex of the
// entry's text, anchored, with any surrounding white space.
std::regex mock_message_regex(std::string_view message) {
  std::string pattern = "^\\s*";
  std::size_t begin = 0;
  std::size_t end = message.size();
  while (begin < end && std::isspace(static_cast<unsigned char>(message[begin])) != 0) ++begin;
  while (end > begin && std::isspace(static_cast<unsigned char>(message[end - 1])) != 0) --end;
  for (const char c : message.substr(begin, end - begin)) {
    if (std::string_view("\\^$.|?*+()[]{}/").find(c) != std::string_view::npos) pattern += '\\';
    pattern += c;
  }
  pattern += "\\s*$";
  return std::regex(pattern, std::regex::ECMAScript | std::regex::icase);
}

result<std::string> optional_mock_text(const yaml_reader& reader, const yaml_field& entry, const char* key) {
  const YAML::Node node = entry.value[key];
  if (!node.IsDefined() || node.IsNull()) return std::string();
  return reader.text(entry.child(YAML::Node(key), node));
}

result<void> add_mock_calls(const yaml_reader& reader, const yaml_field& entry, script_rule& rule) {
  const YAML::Node calls = entry.value["funcCalls"];
  if (!calls.IsDefined() || calls.IsNull()) return ok();
  const yaml_field list = entry.child(YAML::Node("funcCalls"), calls);
  PARLEY_TRY(reader.check_sequence(list));
  for (std::size_t i = 0; i < calls.size(); ++i) {
    const yaml_field at = list.item(i, calls[i]);
    auto name_field = reader.require(at, "name");
    if (!name_field) return std::move(name_field).err();
    auto name = reader.text(*name_field);
    if (!name) return std::move(name).err();
    if (name->empty()) return reader.fail(*name_field, "the tool name is empty");
    emit_item item;
    item.what = emit_item::kind::tool_call;
    item.call.name = std::move(*name);
    auto id = optional_mock_text(reader, at, "id");
    if (!id) return std::move(id).err();
    item.call.id = std::move(*id);
    item.call.text = literal_template("{}");
    if (const YAML::Node args = calls[i]["arguments"]; args.IsDefined() && !args.IsNull()) {
      const yaml_field args_at = at.child(YAML::Node("arguments"), args);
      // A string is the arguments' JSON text as written; anything else is the arguments value.
      if (args.IsScalar() && args.Tag() != "?") {
        auto text = reader.text(args_at);
        if (!text) return std::move(text).err();
        item.call.text = literal_template(std::move(*text));
      } else {
        auto json = reader.to_json(args_at);
        if (!json) return std::move(json).err();
        item.call.text = literal_template(boost::json::serialize(*json));
      }
    }
    rule.emits.push_back(std::move(item));
  }
  return ok();
}

result<void> add_mock_usage(const yaml_reader& reader, const yaml_field& entry, script_rule& rule) {
  const YAML::Node usage = entry.value["usage"];
  if (!usage.IsDefined() || usage.IsNull()) return ok();
  emit_item item;
  item.what = emit_item::kind::usage;
  const yaml_field at = entry.child(YAML::Node("usage"), usage);
  const std::pair<const char*, std::int64_t*> counts[] = {{"promptTokens", &item.usage.input_tokens},
                                                          {"completionTokens", &item.usage.output_tokens},
                                                          {"reasoningTokens", &item.usage.reasoning_tokens}};
  for (const auto& [key, into] : counts) {
    const YAML::Node value = usage[key];
    if (!value.IsDefined() || value.IsNull()) continue;
    auto count = reader.integer(at.child(YAML::Node(key), value), 0);
    if (!count) return std::move(count).err();
    *into = *count;
  }
  rule.emits.push_back(std::move(item));
  return ok();
}

void add_mock_text(script_rule& rule, emit_item::kind what, std::string text) {
  if (text.empty()) return;
  emit_item item;
  item.what = what;
  item.text = literal_template(std::move(text));
  rule.emits.push_back(std::move(item));
}

// One entry; nullopt for an entry without a role, which Dominds' lookup never finds either.
result<std::optional<script_rule>> read_mock_entry(const yaml_reader& reader, const yaml_field& at) {
  if (!at.value.IsMap()) return reader.fail(at, "expected a mapping with message, role and response");
  auto message_field = reader.require(at, "message");
  if (!message_field) return std::move(message_field).err();
  auto message = reader.text(*message_field);
  if (!message) return std::move(message).err();
  auto role = optional_mock_text(reader, at, "role");
  if (!role) return std::move(role).err();
  if (role->empty()) return std::optional<script_rule>();
  if (*role != "user" && *role != "tool")
    return reader.fail(at.child(YAML::Node("role"), at.value["role"]), "expected user or tool");
  script_rule rule;
  rule.line = at.value.Mark().line + 1;
  // The last input is the request's last message: a user message, or a tool's output.
  const condition_target target = *role == "user" ? condition_target::last_user : condition_target::last_tool;
  rule.conditions.push_back(text_condition{target, {}, mock_message_regex(*message)});
  rule.conditions.push_back(text_condition{condition_target::last_message, {}, mock_message_regex(*message)});
  if (const YAML::Node needed = at.value["contextContains"]; needed.IsDefined() && !needed.IsNull()) {
    const yaml_field list = at.child(YAML::Node("contextContains"), needed);
    PARLEY_TRY(reader.check_sequence(list));
    for (std::size_t i = 0; i < needed.size(); ++i) {
      auto text = reader.text(list.item(i, needed[i]));
      if (!text) return std::move(text).err();
      rule.conditions.push_back(text_condition{condition_target::dialog, std::move(*text), std::nullopt});
    }
  }
  auto thinking = optional_mock_text(reader, at, "thinkingResponse");
  auto saying = optional_mock_text(reader, at, "response");
  if (!thinking) return std::move(thinking).err();
  if (!saying) return std::move(saying).err();
  add_mock_text(rule, emit_item::kind::thinking, std::move(*thinking));
  add_mock_text(rule, emit_item::kind::saying, std::move(*saying));
  PARLEY_TRY(add_mock_calls(reader, at, rule));
  PARLEY_TRY(add_mock_usage(reader, at, rule));
  return std::optional<script_rule>(std::move(rule));
}

script_rule mock_not_found_rule(std::string_view source_name) {
  script_rule rule;
  add_mock_text(rule, emit_item::kind::saying,
                "🤖 **Mock Response Not Found**\n\nNo mock response for the last message.\n\nDatabase: `" +
                    std::string(source_name) + "`");
  return rule;
}

result<std::shared_ptr<const scripted_script>> read_mock_database(std::string_view yaml_text,
                                                                  std::string_view source_name) {
  const yaml_reader reader{std::string(source_name)};
  if (const auto bad = first_invalid_utf8(yaml_text)) {
    return reader.fail_at(0, 0, "", describe_invalid_utf8(yaml_text, *bad) + " (save the database as UTF-8)");
  }
  YAML::Node root;
  try {
    root = YAML::Load(std::string(yaml_text));
  } catch (const YAML::ParserException& e) {
    return reader.fail_at(e.mark.line, e.mark.column, "", "invalid YAML: " + repair_utf8(e.msg).text);
  }
  const yaml_field root_at{YAML::Node(YAML::NodeType::Undefined), root, ""};
  if (!root.IsMap()) return reader.fail_at(0, 0, "", "expected a mapping with 'responses'");
  auto responses = reader.require(root_at, "responses");
  if (!responses) return std::move(responses).err();
  PARLEY_TRY(reader.check_sequence(*responses));
  std::vector<script_rule> rules;
  for (std::size_t i = responses->value.size(); i-- > 0;) {
    auto rule = read_mock_entry(reader, responses->item(i, responses->value[i]));
    if (!rule) return std::move(rule).err();
    if (*rule) rules.push_back(std::move(**rule));
  }
  rules.push_back(mock_not_found_rule(source_name));
  auto script = std::make_shared<scripted_script>();
  script->source = std::string(source_name);
  script->fallback = std::move(rules);
  return std::shared_ptr<const scripted_script>(std::move(script));
}

// A model names a file in the folder: a plain file name, nothing that leaves the folder.
bool is_mock_model_name(std::string_view model) {
  if (model.empty() || model == "." || model == "..") return false;
  return std::none_of(model.begin(), model.end(), [](char c) { return c == '/' || c == '\\' || c == '\0'; });
}

}  // namespace

result<std::shared_ptr<const scripted_script>> parse_dominds_mock(std::string_view yaml_text,
                                                                  std::string_view source_name) {
  try {
    return read_mock_database(yaml_text, source_name);
  } catch (const std::exception& e) {
    return make_error(errc::config_error, std::string(source_name) + ": cannot read the mock database: " + e.what());
  }
}

result<std::shared_ptr<const scripted_script>> dominds_mock_provider::script_for(std::string_view model) {
  if (!is_mock_model_name(model)) {
    return make_error(errc::config_error, "mock: model '" + utf8_excerpt(model, 80) +
                                              "' does not name a database file (a plain file name is needed)");
  }
  const std::filesystem::path file = folder_ / (std::string(model) + ".yaml");
  std::error_code ec;
  const auto written = std::filesystem::last_write_time(file, ec);
  parley::lock_guard lock(mutex_);
  if (const auto found = scripts_.find(model); found != scripts_.end() && !ec && found->second.written == written) {
    return found->second.script;
  }
  // As in Dominds, a missing database answers every message with the not-found text.
  auto text = ec ? result<std::string>(std::string("responses: []\n")) : read_regular_file(file, errc::config_error);
  if (!text) return std::move(text).err();
  auto script = parse_dominds_mock(*text, file.string());
  if (!script) return std::move(script).err();
  scripts_[std::string(model)] = loaded{ec ? std::filesystem::file_time_type{} : written, *script};
  return script;
}

boost::asio::awaitable<result<model_response>> dominds_mock_provider::stream(const model_request& request,
                                                                             stream_sink& sink,
                                                                             generation_control& control) {
  auto script = script_for(request.model);
  if (!script) co_return std::move(script).err();
  scripted_provider answering(std::move(*script));
  co_return co_await answering.stream(request, sink, control);
}

}  // namespace parley::llm

#include "parley/server/openai_chat_request.hpp"

#include <array>
#include <utility>

#include "parley/core/json.hpp"

namespace parley::server {

namespace {

constexpr std::string_view kModelPrefix = "parley/";

constexpr std::array<std::pair<chat_role, std::string_view>, 5> kRoles{{{chat_role::system, "system"},
                                                                        {chat_role::developer, "developer"},
                                                                        {chat_role::user, "user"},
                                                                        {chat_role::assistant, "assistant"},
                                                                        {chat_role::tool, "tool"}}};

error chat_field_problem(const std::string& param, const std::string& what) {
  return make_error(errc::invalid_argument, param + ": " + what);
}

std::string kind_got(const json::value& value) { return std::string("got ") + json_kind_with_article(value); }

// A field that may be absent or null; nullptr then.
const json::value* given_field(const json::object& body, std::string_view key) {
  const auto* value = body.if_contains(key);
  return value == nullptr || value->is_null() ? nullptr : value;
}

result<chat_role> read_role(const json::object& message, const std::string& at) {
  const auto* value = message.if_contains("role");
  if (value == nullptr)
    return chat_field_problem(at + ".role", "required, one of system, developer, user, assistant, tool");
  if (!value->is_string()) return chat_field_problem(at + ".role", "expected a string, " + kind_got(*value));
  const std::string_view name = value->get_string();
  for (const auto& [role, wire] : kRoles) {
    if (wire == name) return role;
  }
  return chat_field_problem(at + ".role", "expected one of system, developer, user, assistant, tool, got '" +
                                              std::string(name.substr(0, 40)) + "'");
}

// An array of content parts: only text parts carry anything Parley can pass on.
result<std::string> read_parts(const json::array& parts, const std::string& at) {
  std::string text;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const std::string where = at + "[" + std::to_string(i) + "]";
    if (!parts[i].is_object())
      return chat_field_problem(where, "expected a content part object, " + kind_got(parts[i]));
    const auto& part = parts[i].get_object();
    const auto* part_type = part.if_contains("type");
    if (part_type == nullptr || !part_type->is_string())
      return chat_field_problem(where + ".type", "required, the string \"text\"");
    if (part_type->get_string() != "text") {
      return chat_field_problem(where + ".type",
                                "only text parts are taken, got '" +
                                    std::string(std::string_view(part_type->get_string()).substr(0, 40)) + "'");
    }
    const auto* piece = part.if_contains("text");
    if (piece == nullptr || !piece->is_string()) return chat_field_problem(where + ".text", "required, a string");
    if (i > 0) text += '\n';
    text += piece->get_string();
  }
  return text;
}

result<std::string> read_content(const json::object& message, chat_role role, const std::string& at) {
  const auto* value = message.if_contains("content");
  // OpenAI lets an assistant message that only called tools have no content.
  if (role == chat_role::assistant && (value == nullptr || value->is_null())) return std::string();
  if (value == nullptr) return chat_field_problem(at + ".content", "required, a string or an array of text parts");
  if (value->is_string()) return std::string(value->get_string());
  if (value->is_array()) return read_parts(value->get_array(), at + ".content");
  return chat_field_problem(at + ".content", "expected a string or an array of text parts, " + kind_got(*value));
}

result<chat_message> read_message(const json::value& value, const std::string& at) {
  if (!value.is_object()) return chat_field_problem(at, "expected an object {role, content}, " + kind_got(value));
  const auto& message = value.get_object();
  auto role = read_role(message, at);
  if (!role) return std::move(role).err();
  auto content = read_content(message, *role, at);
  if (!content) return std::move(content).err();
  if (const auto* name = given_field(message, "name"); name != nullptr && !name->is_string()) {
    return chat_field_problem(at + ".name", "expected a string, " + kind_got(*name));
  }
  return chat_message{*role, std::move(*content)};
}

result<std::vector<chat_message>> read_messages(const json::object& body) {
  const auto* value = body.if_contains("messages");
  if (value == nullptr) return chat_field_problem("messages", "required, a non-empty array of {role, content}");
  if (!value->is_array())
    return chat_field_problem("messages", "expected an array of {role, content}, " + kind_got(*value));
  const auto& list = value->get_array();
  if (list.empty()) return chat_field_problem("messages", "expected at least one message");
  std::vector<chat_message> out;
  out.reserve(list.size());
  for (std::size_t i = 0; i < list.size(); ++i) {
    auto message = read_message(list[i], "messages[" + std::to_string(i) + "]");
    if (!message) return std::move(message).err();
    out.push_back(std::move(*message));
  }
  const auto& last = out.back();
  const std::string at_last = "messages[" + std::to_string(out.size() - 1) + "]";
  if (last.role != chat_role::user) {
    return chat_field_problem(at_last + ".role", "the last message is the one answered and must be the user's, got '" +
                                                     std::string(role_name(last.role)) + "'");
  }
  if (last.content.empty()) return chat_field_problem(at_last + ".content", "the message to answer has no text");
  return out;
}

result<std::string> read_model(const json::object& body) {
  const auto* value = body.if_contains("model");
  if (value == nullptr) return chat_field_problem("model", "required, a string such as \"parley/<member id>\"");
  if (!value->is_string()) return chat_field_problem("model", "expected a string, " + kind_got(*value));
  if (value->get_string().empty())
    return chat_field_problem("model", "expected a string such as \"parley/<member id>\"");
  return std::string(value->get_string());
}

// `stream`, `stream_options` (only with stream, as OpenAI has it) and `n` (one choice only).
result<void> read_options(const json::object& body, chat_request& out) {
  if (const auto* stream = given_field(body, "stream")) {
    if (!stream->is_bool()) return chat_field_problem("stream", "expected true or false, " + kind_got(*stream));
    out.stream = stream->get_bool();
  }
  if (const auto* options = given_field(body, "stream_options")) {
    if (!options->is_object()) return chat_field_problem("stream_options", "expected an object, " + kind_got(*options));
    if (!out.stream) return chat_field_problem("stream_options", "only allowed when stream is true");
    if (const auto* usage = given_field(options->get_object(), "include_usage")) {
      if (!usage->is_bool())
        return chat_field_problem("stream_options.include_usage", "expected true or false, " + kind_got(*usage));
      out.include_usage = usage->get_bool();
    }
  }
  if (const auto* n = given_field(body, "n")) {
    const bool one = (n->is_int64() && n->get_int64() == 1) || (n->is_uint64() && n->get_uint64() == 1);
    if (!one) return chat_field_problem("n", "Parley answers with one choice; expected 1");
  }
  if (const auto* user = given_field(body, "user")) {
    if (!user->is_string()) return chat_field_problem("user", "expected a string, " + kind_got(*user));
    out.user = std::string(user->get_string());
  }
  return ok();
}

}  // namespace

result<chat_request> parse_chat_request(std::string_view body) {
  auto parsed = parse_json(body);
  if (!parsed) return make_error(errc::invalid_argument, "body: " + parsed.err().message);
  if (!parsed->is_object()) return make_error(errc::invalid_argument, "body: expected a JSON object");
  return read_chat_request(parsed->get_object());
}

result<chat_request> read_chat_request(const json::object& body) {
  chat_request out;
  auto model = read_model(body);
  if (!model) return std::move(model).err();
  out.model = std::move(*model);
  auto messages = read_messages(body);
  if (!messages) return std::move(messages).err();
  out.messages = std::move(*messages);
  if (auto options = read_options(body, out); !options) return std::move(options).err();
  return out;
}

std::optional<std::string_view> member_of_model(std::string_view model) {
  if (model.size() <= kModelPrefix.size() || model.substr(0, kModelPrefix.size()) != kModelPrefix) {
    return std::nullopt;
  }
  return model.substr(kModelPrefix.size());
}

std::string first_message_of(const chat_request& request) {
  const auto& messages = request.messages;
  if (messages.size() == 1) return messages.back().content;
  // The dialog's model sees one user message: what came before is quoted above the question, each
  // message under its role, so nothing the client sent is lost and nothing is made up.
  std::string text = "Earlier messages of this conversation:\n";
  for (std::size_t i = 0; i + 1 < messages.size(); ++i) {
    text += "\n[";
    text += role_name(messages[i].role);
    text += "]\n";
    text += messages[i].content;
    text += '\n';
  }
  text += "\nThe message to answer:\n\n";
  text += messages.back().content;
  return text;
}

const std::string& last_user_text(const chat_request& request) { return request.messages.back().content; }

std::string_view role_name(chat_role role) {
  for (const auto& [candidate, wire] : kRoles) {
    if (candidate == role) return wire;
  }
  return "user";
}

}  // namespace parley::server

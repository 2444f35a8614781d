#include "parley/server/openai_wire.hpp"

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>

#include "parley/core/ids.hpp"
#include "parley/core/time.hpp"

namespace parley::server {

namespace json = boost::json;

namespace {

json::value or_null(const std::string& text) { return text.empty() ? json::value(nullptr) : json::value(text); }

json::object usage_object(token_counts usage) {
  return json::object{{"prompt_tokens", usage.prompt_tokens},
                      {"completion_tokens", usage.completion_tokens},
                      {"total_tokens", usage.prompt_tokens + usage.completion_tokens}};
}

json::object head_object(const completion_head& head, std::string_view object) {
  return json::object{{"id", head.id}, {"object", object}, {"created", head.created}, {"model", head.model}};
}

std::string sse(const json::value& data) { return "data: " + json::serialize(data) + "\n\n"; }

json::object model_object(std::string_view member_id, std::int64_t created) {
  return json::object{
      {"id", "parley/" + std::string(member_id)}, {"object", "model"}, {"created", created}, {"owned_by", "parley"}};
}

// The field path a problem's message starts with ("messages[0].role: ..."): a path has no spaces.
// A problem with the body as a whole names no field.
std::string param_of(std::string_view message) {
  const auto colon = message.find(": ");
  if (colon == std::string_view::npos || colon == 0) return {};
  const auto path = message.substr(0, colon);
  if (path == "body" || path.find(' ') != std::string_view::npos) return {};
  return std::string(path);
}

}  // namespace

completion_head new_completion_head(std::string model) {
  std::string id = new_uuid();
  std::erase(id, '-');
  return completion_head{"chatcmpl-" + id, now_ms() / 1000, std::move(model)};
}

std::string completion_json(const completion_head& head, std::string_view content, token_counts usage) {
  json::object message{{"role", "assistant"}, {"content", content}, {"refusal", nullptr}};
  json::object choice{{"index", 0}, {"message", std::move(message)}, {"logprobs", nullptr}, {"finish_reason", "stop"}};
  auto body = head_object(head, "chat.completion");
  body["choices"] = json::array{std::move(choice)};
  body["usage"] = usage_object(usage);
  return json::serialize(body);
}

std::string chunk_event(const completion_head& head, const chunk_delta& delta, bool usage_null) {
  json::object change;
  if (delta.role) change["role"] = "assistant";
  if (delta.content) change["content"] = *delta.content;
  json::object choice{{"index", 0}, {"delta", std::move(change)}, {"logprobs", nullptr}};
  choice["finish_reason"] = delta.stop ? json::value("stop") : json::value(nullptr);
  auto body = head_object(head, "chat.completion.chunk");
  body["choices"] = json::array{std::move(choice)};
  if (usage_null) body["usage"] = nullptr;
  return sse(body);
}

std::string usage_event(const completion_head& head, token_counts usage) {
  auto body = head_object(head, "chat.completion.chunk");
  body["choices"] = json::array{};
  body["usage"] = usage_object(usage);
  return sse(body);
}

std::string_view done_event() { return "data: [DONE]\n\n"; }

std::string error_json(const openai_error& error) {
  json::object inner{
      {"message", error.message}, {"type", error.type}, {"param", or_null(error.param)}, {"code", or_null(error.code)}};
  return json::serialize(json::object{{"error", std::move(inner)}});
}

std::string error_event(const openai_error& error) { return "data: " + error_json(error) + "\n\n"; }

openai_error invalid_request(const error& err) { return openai_error{400, err.message, param_of(err.message), {}}; }

openai_error openai_error_of(const error& err) {
  switch (err.code) {
    case errc::invalid_argument:
    case errc::config_error:
    case errc::limit_exceeded:
      return invalid_request(err);
    case errc::not_found:
      return openai_error{404, err.message, {}, "not_found"};
    case errc::conflict:
      return openai_error{409, err.message, {}, "conflict"};
    case errc::storage_full:
      return openai_error{507, err.message, {}, "storage_full", "server_error"};
    case errc::unavailable:
      return openai_error{503, err.message, {}, "unavailable", "server_error"};
    default:
      return openai_error{500, err.message, {}, "internal", "server_error"};
  }
}

std::string models_json(std::span<const std::string> member_ids, std::int64_t created) {
  json::array data;
  for (const auto& id : member_ids) data.push_back(model_object(id, created));
  return json::serialize(json::object{{"object", "list"}, {"data", std::move(data)}});
}

std::string model_json(std::string_view member_id, std::int64_t created) {
  return json::serialize(model_object(member_id, created));
}

std::string questions_note(std::span<const asked_question> questions, bool after_text) {
  std::string note;
  for (const auto& question : questions) {
    if (after_text || !note.empty()) note += "\n\n";
    note += "[Parley asks: " + question.text + " — answer with POST /api/dialogs/" + question.dialog_id +
            "/answer, question id " + question.question_id + "]";
  }
  return note;
}

}  // namespace parley::server

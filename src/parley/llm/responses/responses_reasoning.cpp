#include "parley/llm/responses/responses_reasoning.hpp"

#include "parley/core/json.hpp"
#include "parley/core/json_fields.hpp"
#include "parley/core/json_text.hpp"

namespace parley::llm::responses {

namespace {
constexpr std::string_view kReasoningKey = "openaiReasoning";
}  // namespace

std::string encode_reasoning_items(const std::vector<reasoning_item>& items) {
  std::string text;
  json_text_writer w(text);
  w.begin_object().key(kReasoningKey).begin_array();
  for (const auto& item : items) {
    w.begin_object().field("id", item.id).field("encryptedContent", item.encrypted_content);
    w.key("summary").begin_array();
    for (const auto& part : item.summary) w.string(part);
    w.end_array().end_object();
  }
  w.end_array().end_object();
  return text;
}

std::optional<std::vector<reasoning_item>> decode_reasoning_items(std::string_view signature) {
  if (signature.empty() || signature.front() != '{') return std::nullopt;
  auto parsed = parse_json(signature);
  if (!parsed || !parsed->is_object()) return std::nullopt;
  json_fields in(parsed->get_object());
  const json::array* list = in.array(kReasoningKey);
  if (!in.ok()) return std::nullopt;
  std::vector<reasoning_item> items;
  for (const auto& element : *list) {
    if (!element.is_object()) return std::nullopt;
    json_fields fields(element.get_object());
    reasoning_item item{fields.string("id"), fields.string("encryptedContent"), fields.strings("summary")};
    if (!fields.ok()) return std::nullopt;
    items.push_back(std::move(item));
  }
  return items;
}

}  // namespace parley::llm::responses

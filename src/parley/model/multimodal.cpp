#include "parley/model/multimodal.hpp"

#include <boost/json/array.hpp>
#include <boost/json/serialize.hpp>

#include "parley/core/json.hpp"
#include "parley/core/json_read.hpp"

namespace parley {
namespace {

std::string size_note(const boost::json::object& meta) {
  std::string note = json_string_or(meta, "format");
  if (const auto kb = json_int_or(meta, "size_kb"); kb > 0)
    note += (note.empty() ? "" : ", ") + std::to_string(kb) + " KB";
  return note.empty() ? std::string{} : " (" + note + ")";
}

// Markdown as plain text: heading marks, emphasis, inline code and link targets go; words stay.
std::string plain_text_of_markdown(std::string_view markdown) {
  std::string out;
  bool line_start = true;
  for (std::size_t i = 0; i < markdown.size(); ++i) {
    const char c = markdown[i];
    if (line_start && (c == '#' || c == '>')) {
      while (i + 1 < markdown.size() && (markdown[i + 1] == '#' || markdown[i + 1] == ' ')) ++i;
      continue;
    }
    if (c == '*' || c == '_' || c == '`') continue;
    if (c == ']' && i + 1 < markdown.size() && markdown[i + 1] == '(') {  // [words](target): keep the words
      const auto close = markdown.find(')', i);
      i = close == std::string_view::npos ? markdown.size() : close;
      continue;
    }
    if (c == '[') continue;
    out += c;
    line_start = c == '\n';
  }
  return out;
}

// A tool's output in a sentence: `tool: key=value, ...` for a JSON object (the seed's
// {"tool": "weather", "result": {...}}), else the text itself.
std::string tool_output_words(std::string_view content) {
  boost::system::error_code ec;
  const auto value = read_json(content, ec);
  if (ec || !value.is_object()) return std::string(content);
  const auto& obj = value.get_object();
  const auto* result = obj.if_contains("result");
  const auto& fields = result != nullptr && result->is_object() ? result->get_object() : obj;
  std::string out = json_string_or(obj, "tool", "tool");
  out += ":";
  bool first = true;
  for (const auto& [key, field] : fields) {
    if (&fields == &obj && key == "tool") continue;
    out += first ? " " : ", ";
    first = false;
    out +=
        std::string(key) + "=" + (field.is_string() ? std::string(field.get_string()) : boost::json::serialize(field));
  }
  return out;
}

std::vector<std::string> strings_of(const boost::json::object& obj, std::initializer_list<std::string_view> keys) {
  std::vector<std::string> out;
  for (const auto key : keys) {
    const auto* value = obj.if_contains(key);
    if (value == nullptr) continue;
    if (value->is_string()) out.emplace_back(value->get_string());
    if (const auto* list = value->if_array()) {
      for (const auto& item : *list) {
        if (item.is_string()) out.emplace_back(item.get_string());
      }
    }
  }
  return out;
}

}  // namespace

std::string media_words(std::string_view kind, const boost::json::object& meta) {
  const std::string label = kind == "audio" ? "audio" : "image";
  const std::string described = json_string_or(meta, kind == "audio" ? "transcription" : "caption");
  if (!described.empty()) {
    return kind == "audio" ? "[audio" + size_note(meta) + ", transcribed] " + described
                           : "[image" + size_note(meta) + "] " + described;
  }
  return "[" + label + size_note(meta) + (kind == "audio" ? " without a transcription]" : " without a caption]");
}

context_block parse_multimodal(const multimodal_input& input) {
  context_block block;
  block.source_message_id = input.id;
  block.origin = input.sender_role;
  block.timestamp = input.created_at;
  const std::string& type = input.content_type;
  if (type == "image" || type == "audio") {
    block.text_block = media_words(type, input.content_meta);
    if (const auto words = json_string_or(input.content_meta, "text"); !words.empty()) {
      block.text_block += "\n" + words;
    }
    block.semantic_tags.push_back(type);
    if (const auto format = json_string_or(input.content_meta, "format"); !format.empty()) {
      block.semantic_tags.push_back(format);
    }
  } else if (type == "tool_output") {
    block.text_block = tool_output_words(input.content);
    if (const auto name = json_string_or(input.metadata, "name"); !name.empty()) {
      block.semantic_tags.push_back("tool:" + name);
    }
  } else if (type == "quote_reply") {
    block.text_block =
        "> " + (input.quoted_role.empty() ? "" : input.quoted_role + ": ") + input.quoted_text + "\n" + input.content;
    block.semantic_tags.push_back("quote");
  } else if (type == "prompt") {
    // The seed's {"type": "system_instruction", "text": ...}, or plain text.
    boost::system::error_code ec;
    const auto value = read_json(input.content, ec);
    block.text_block =
        !ec && value.is_object() ? json_string_or(value.get_object(), "text", input.content) : input.content;
    block.semantic_tags.push_back("instruction");
  } else if (type == "markdown") {
    block.text_block = plain_text_of_markdown(input.content);
  } else {
    block.text_block = input.content;
  }
  for (auto& tag : strings_of(input.metadata, {"semantic_tags", "intent_tags"})) block.semantic_tags.push_back(tag);
  block.emotions = strings_of(input.metadata, {"emotions", "emotion"});
  if (block.emotions.empty()) block.emotions.emplace_back("neutral");
  return block;
}

}  // namespace parley

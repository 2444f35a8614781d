#include "parley/model/multimodal.hpp"

#include <boost/json/array.hpp>
#include <boost/json/serialize.hpp>

#include "parley/core/json_fields.hpp"
#include "parley/core/json_read.hpp"
#include "parley/core/media_kind.hpp"

namespace parley {
namespace {

std::string size_note(const media_meta& meta) {
  std::string note = meta.format;
  if (meta.size_kb > 0) note += (note.empty() ? "" : ", ") + std::to_string(meta.size_kb) + " KB";
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
  // The seed's "result" may be any value: an object's fields are listed, anything else is one field.
  const auto* result = obj.if_contains("result");
  const auto& fields = result != nullptr && result->is_object() ? result->get_object() : obj;
  json_fields seed_shape(obj);
  const auto tool = seed_shape.optional_string("tool");
  // A "tool" that is no name: not the seed's shape, so the object is shown as it was written.
  if (!seed_shape.ok()) return std::string(content);
  std::string out = tool.value_or("tool");  // the seed's shape without a name: just "tool"
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

result<media_meta> read_media_meta(const boost::json::object& meta) {
  json_fields in(meta, "content_meta");
  media_meta out;
  out.caption = in.optional_string("caption").value_or("");
  out.transcription = in.optional_string("transcription").value_or("");
  out.text = in.optional_string("text").value_or("");
  out.format = in.optional_string("format").value_or("");
  out.mime = in.optional_string("mime").value_or("");
  out.size_kb = in.optional_integer("size_kb").value_or(0);
  PARLEY_TRY(in.status());
  return out;
}

namespace {

// The records write routes check content_meta (records_requests.cpp) before it is stored; one that
// fails here was stored before that check, and its medium is shown as one nothing is known of.
media_meta media_meta_or_unknown(const boost::json::object& meta) {
  auto read = read_media_meta(meta);
  return read ? std::move(*read) : media_meta{};
}

std::string media_words_of(std::string_view kind, const media_meta& meta) {
  const bool audio = from_name<media_kind>(kind) == media_kind::audio;  // any other kind is shown as an image
  const std::string label = audio ? "audio" : "image";
  const std::string& described = audio ? meta.transcription : meta.caption;
  if (!described.empty()) {
    return audio ? "[audio" + size_note(meta) + ", transcribed] " + described
                 : "[image" + size_note(meta) + "] " + described;
  }
  return "[" + label + size_note(meta) + (audio ? " without a transcription]" : " without a caption]");
}

// An image or a recording: the words that stand for it, the words sent with it, its medium and
// format as tags.
void media_block(const multimodal_input& input, context_block& block) {
  const std::string_view medium = events::to_wire(input.content_type);
  const media_meta meta = media_meta_or_unknown(input.content_meta);
  block.text_block = media_words_of(medium, meta);
  if (!meta.text.empty()) block.text_block += "\n" + meta.text;
  block.semantic_tags.emplace_back(medium);
  if (!meta.format.empty()) block.semantic_tags.push_back(meta.format);
}

void tool_output_block(const multimodal_input& input, context_block& block) {
  block.text_block = tool_output_words(input.content);
  // The engine's tool-result metadata names the tool; a message written through the records API
  // may carry any metadata, and one without a name (or with another kind of "name") has no tag.
  json_fields metadata(input.metadata);
  if (const auto name = metadata.optional_string("name"); name && !name->empty()) {
    block.semantic_tags.push_back("tool:" + *name);
  }
}

// The seed's {"type": "system_instruction", "text": ...}, or plain text.
std::string instruction_text(const std::string& content) {
  boost::system::error_code ec;
  const auto value = read_json(content, ec);
  if (!ec && value.is_object()) {
    json_fields instruction(value.get_object());
    // Not in the seed's shape (no "text", or one that is not a string): the content as written.
    if (auto text = instruction.optional_string("text"); text && instruction.ok()) return std::move(*text);
  }
  return content;
}

}  // namespace

std::string media_words(std::string_view kind, const boost::json::object& meta) {
  return media_words_of(kind, media_meta_or_unknown(meta));
}

context_block parse_multimodal(const multimodal_input& input) {
  context_block block;
  block.source_message_id = input.id;
  block.origin = events::to_wire(input.sender_role);
  block.timestamp = input.created_at;
  switch (input.content_type) {
    case events::content_type::image:
    case events::content_type::audio:
      media_block(input, block);
      break;
    case events::content_type::tool_output:
      tool_output_block(input, block);
      break;
    case events::content_type::quote_reply:
      block.text_block =
          "> " + (input.quoted_role.empty() ? "" : input.quoted_role + ": ") + input.quoted_text + "\n" + input.content;
      block.semantic_tags.push_back("quote");
      break;
    case events::content_type::prompt:
      block.text_block = instruction_text(input.content);
      block.semantic_tags.push_back("instruction");
      break;
    case events::content_type::markdown:
      block.text_block = plain_text_of_markdown(input.content);
      break;
    default:
      block.text_block = input.content;
      break;
  }
  for (auto& tag : strings_of(input.metadata, {"semantic_tags", "intent_tags"})) block.semantic_tags.push_back(tag);
  block.emotions = strings_of(input.metadata, {"emotions", "emotion"});
  if (block.emotions.empty()) block.emotions.emplace_back("neutral");
  return block;
}

}  // namespace parley

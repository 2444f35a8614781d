// Seed 002's MultiModalInputParser: every message, whatever its modality, becomes a context block
// of text a model can read — `{text_block, semantic_tags, emotions, source_message_id, origin,
// timestamp}`. Text stays as it is; an image becomes its caption, audio its transcription, a tool's
// output its key fields, a quoted reply the quote and the answer, a prompt its instruction,
// markdown plain text. Pure functions: the engine uses the same words for a model that cannot see
// or hear the medium, and the REST API shows the blocks.
#pragma once

#include <boost/json/object.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/model/events/records_enums.hpp"

namespace parley {

struct context_block {
  std::string text_block;
  std::vector<std::string> semantic_tags;
  std::vector<std::string> emotions;
  std::string source_message_id;
  std::string origin;  // the sender's role: human | ai | system
  std::int64_t timestamp = 0;
};

// What the parser reads of a message (a record message, or a user message in the engine).
struct multimodal_input {
  std::string id;
  events::record_role sender_role = events::record_role::human;
  events::content_type content_type = events::content_type::text;
  std::string content;
  boost::json::object content_meta;  // caption, format, size_kb, transcription, text
  boost::json::object metadata;      // semantic_tags / intent_tags, emotion(s), toolCalls ...
  std::int64_t created_at = 0;
  std::string quoted_text;  // quote_reply: the text of the message it replies to
  std::string quoted_role;  // its sender's role (a record_role's wire name), empty when none
};

context_block parse_multimodal(const multimodal_input& input);

// Seed 002's content_meta of an image or audio message, typed. Every field is optional in the seed;
// an absent one is "" (or 0: the size is not known).
struct media_meta {
  std::string caption;
  std::string transcription;
  std::string text;
  std::string format;
  std::string mime;
  std::int64_t size_kb = 0;
};
// invalid_argument naming the field ("field 'content_meta.caption': expected a string, got an integer").
result<media_meta> read_media_meta(const boost::json::object& meta);

// The words that stand for an image or a recording: its caption or transcription, else what is
// known of it ("[image (png, 12 KB) without a caption]"). `kind` is image or audio.
std::string media_words(std::string_view kind, const boost::json::object& meta);

}  // namespace parley

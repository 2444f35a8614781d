#include "parley/store/sqlite/message_log_metadata.hpp"

#include <algorithm>

#include "parley/model/events/wire.hpp"

namespace parley::sqlite {
namespace {

bool plain(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return c >= 0x20 && c < 0x7f && c != '"' && c != '\\'; });
}

std::string json_quoted(std::string_view text) { return "\"" + std::string(text) + "\""; }

std::string course_of(std::int64_t course) { return "{\"course\":" + std::to_string(course); }

// The tool_output shape, without its closing brace.
std::optional<std::string> tool_output_of(std::int64_t course, std::string_view call_id, std::string_view name,
                                          bool ok) {
  if (!plain(call_id) || !plain(name)) return std::nullopt;
  return course_of(course) + ",\"callId\":" + json_quoted(call_id) + ",\"name\":" + json_quoted(name) +
         ",\"ok\":" + (ok ? "true" : "false");
}

}  // namespace

const std::string& stored_message_metadata_sql() {
  static const std::string sql = std::string("coalesce(m.metadata, ") + kMessageMetadataFromLogSql + ")";
  return sql;
}

std::optional<std::string> canonical_metadata_of(const event& ev, events::content_type content_type) {
  if (const auto* input = ev.as<events::user_message>()) {
    return course_of(input->course) +
           (input->origin == events::message_origin::tellask ? ",\"origin\":\"tellask\"}" : "}");
  }
  if (const auto* generation = ev.as<events::generation_finished>()) {
    std::string text = course_of(generation->course) + ",\"genseq\":" + std::to_string(generation->genseq);
    if (!generation->tool_calls.empty()) text += ",\"toolCalls\":null";
    if (generation->prompt_version) {
      if (!plain(*generation->prompt_version)) return std::nullopt;
      text += ",\"promptVersion\":" + json_quoted(*generation->prompt_version);
    }
    return text + "}";
  }
  if (const auto* result = ev.as<events::tool_result>()) {
    auto text = tool_output_of(result->course, result->call_id, result->name, result->ok);
    if (!text) return std::nullopt;
    return *text + "}";
  }
  if (const auto* reply = ev.as<events::reply_received>()) {
    if (!plain(reply->from_dialog_id)) return std::nullopt;
    if (content_type != events::content_type::tool_output) {
      return course_of(reply->course) + ",\"origin\":\"reply\",\"fromDialogId\":" + json_quoted(reply->from_dialog_id) +
             "}";
    }
    auto text = tool_output_of(reply->course, reply->call_id, events::to_wire(reply->name), reply->ok);
    if (!text) return std::nullopt;
    return *text + ",\"fromDialogId\":" + json_quoted(reply->from_dialog_id) + "}";
  }
  return std::nullopt;
}

std::string dialogue_metadata_to_store(const std::string& metadata, std::string_view dialog_id,
                                       std::string_view root_id) {
  if (!plain(dialog_id) || !plain(root_id)) return metadata;
  const std::string prefix = "{\"dialogId\":" + json_quoted(dialog_id) + ",\"rootId\":" + json_quoted(root_id);
  if (metadata.size() <= prefix.size() || metadata.compare(0, prefix.size(), prefix) != 0 || metadata.back() != '}') {
    return metadata;
  }
  const char next = metadata[prefix.size()];
  if (next != ',' && next != '}') return metadata;
  return metadata.substr(prefix.size(), metadata.size() - prefix.size() - 1);
}

}  // namespace parley::sqlite

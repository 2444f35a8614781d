#include "parley/server/json_views.hpp"

#include <boost/json/array.hpp>

#include "parley/core/json.hpp"
#include "parley/core/time.hpp"
#include "parley/engine/resume_check.hpp"

namespace parley::server {

namespace {

// Empty text is "no value" in the projections; JSON clients are better served by null.
boost::json::value text_or_null(const std::string& text) {
  if (text.empty()) return nullptr;
  return boost::json::value(text);
}

}  // namespace

boost::json::object dialog_summary_json(const dialog_row& row, bool has_children) {
  boost::json::object out{
      {"id", row.id},
      {"rootId", row.root_id},
      {"parentId", text_or_null(row.parent_id)},
      {"memberId", row.member_id},
      {"kind", events::to_wire(row.kind)},
      {"callKind", row.call_kind ? boost::json::value(events::to_wire(*row.call_kind)) : boost::json::value(nullptr)},
      {"sessionSlug", text_or_null(row.session_slug)},
      {"status", events::to_wire(row.status)},
      {"title", row.title},
      {"taskDocPath", text_or_null(row.task_doc_path)},
      {"course", row.course},
      {"depth", row.depth},
      {"generating", row.generating},
      {"needsDrive", row.needs_drive},
      {"dead", row.dead},
      {"openQuestions", row.open_questions},
      {"pendingSubdialogs", row.pending_subdialogs},
      {"hasChildren", has_children},
      {"inputTokens", row.input_tokens},
      {"outputTokens", row.output_tokens},
      {"createdAt", format_iso8601_ms(row.created_at_ms)},
      {"updatedAt", format_iso8601_ms(row.updated_at_ms)},
      {"lastError", text_or_null(row.last_error)}};
  // A root's people (seed 002's dialogue types), when it records them.
  if (!row.humans.empty()) out["humans"] = boost::json::array(row.humans.begin(), row.humans.end());
  if (!row.members.empty()) out["members"] = boost::json::array(row.members.begin(), row.members.end());
  return out;
}

boost::json::object message_json(const message_row& message) {
  boost::json::array tool_calls;
  if (!message.tool_calls_json.empty()) {
    // The projection stores the calls as JSON text; a row that fails to parse is shown without calls
    // rather than failing the whole transcript.
    if (auto parsed = parse_json(message.tool_calls_json); parsed && parsed->is_array()) {
      tool_calls = std::move(parsed->as_array());
    }
  }
  boost::json::object out{{"seq", message.seq},
                          {"course", message.course},
                          {"genseq", message.genseq},
                          {"role", message.role},
                          {"origin", text_or_null(message.origin)},
                          {"content", message.content},
                          {"thinking", message.thinking},
                          {"toolCalls", std::move(tool_calls)},
                          {"toolCallId", text_or_null(message.tool_call_id)},
                          {"toolName", text_or_null(message.tool_name)},
                          {"ok", message.ok},
                          {"interrupted", message.interrupted},
                          {"ts", format_iso8601_ms(message.ts_ms)}};
  // A user message's image or recording, as its user_message event holds it (docs/server.md).
  if (!message.attachment.empty()) {
    if (auto parsed = parse_json(message.attachment); parsed && parsed->is_object()) {
      out["attachment"] = std::move(*parsed);
    }
  }
  return out;
}

void add_resume_state(boost::json::object& summary, const engine::dialog_runtime& dialog) {
  const auto reason = engine::resume_reason_of(dialog);
  summary["resumable"] = reason.has_value();
  summary["resumeReason"] = reason ? boost::json::value(engine::resume_reason_name(*reason)) : nullptr;
}

}  // namespace parley::server

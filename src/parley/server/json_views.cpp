#include "parley/server/json_views.hpp"

#include <boost/json/array.hpp>

#include "parley/core/json.hpp"
#include "parley/core/time.hpp"
#include "parley/engine/resume_check.hpp"
#include "parley/model/events/wire.hpp"

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

namespace {

// A message's image or recording as its event holds it; a tool's image as the same shape, of kind
// image (docs/server.md "Message").
std::optional<boost::json::object> attachment_json(const message_row& message) {
  if (message.attachment) return events::encode_object(*message.attachment);
  if (!message.tool_image) return std::nullopt;
  auto image = events::encode_object(*message.tool_image);
  image["kind"] = events::to_wire(events::attachment_kind::image);
  return image;
}

}  // namespace

boost::json::object message_json(const message_row& message) {
  boost::json::object out{
      {"seq", message.seq},
      {"course", message.course},
      {"genseq", message.genseq},
      {"role", events::to_wire(message.role)},
      {"origin", message.origin ? boost::json::value(events::to_wire(*message.origin)) : boost::json::value(nullptr)},
      {"content", message.content},
      {"thinking", message.thinking},
      {"toolCalls", events::encode_value(message.tool_calls)},
      {"toolCallId", text_or_null(message.tool_call_id)},
      {"toolName", text_or_null(message.tool_name)},
      {"ok", message.ok},
      {"interrupted", message.interrupted},
      {"ts", format_iso8601_ms(message.ts_ms)}};
  if (auto attachment = attachment_json(message)) out["attachment"] = std::move(*attachment);
  return out;
}

void add_resume_state(boost::json::object& summary, const engine::dialog_runtime& dialog) {
  const auto reason = engine::resume_reason_of(dialog);
  summary["resumable"] = reason.has_value();
  summary["resumeReason"] = reason ? boost::json::value(engine::resume_reason_name(*reason)) : nullptr;
}

}  // namespace parley::server

#include "parley/store/sqlite/utterance_from_log.hpp"

#include <string_view>

#include "parley/model/events/wire.hpp"
#include "parley/store/sqlite/records_v16.hpp"
#include "parley/store/sqlite/records_v22.hpp"

namespace parley::sqlite {
namespace {

constexpr std::string_view kContextHintNotes = "runtime prompt inserted into the context";

// The name of the tool whose output `ev` is, as json_extract reads it from the payload ("" when
// `ev` is no tool's output). A NUL byte would not come back whole from json_extract.
std::string tool_name_of(const event& ev) {
  std::string name;
  if (const auto* result = ev.as<events::tool_result>()) name = result->name;
  if (const auto* reply = ev.as<events::reply_received>()) name = std::string(events::to_wire(reply->name));
  if (name.find('\0') != std::string::npos) return {};
  return name;
}

}  // namespace

const std::string& derived_utterance_trigger_sql() {
  static const std::string sql =
      "CASE m.content_type WHEN 'tool_output' THEN 'tool_result' WHEN 'system_context' THEN 'context_hint' END";
  return sql;
}

const std::string& derived_utterance_notes_sql() {
  static const std::string sql =
      "CASE m.content_type WHEN 'system_context' THEN '" + std::string(kContextHintNotes) +
      "' WHEN 'tool_output' THEN (SELECT CASE WHEN (e_.type = 'tool_result' OR e_.type = 'reply_received') AND "
      "json_valid(e_.payload) THEN 'result of ' || json_extract(e_.payload, '$.name') END " +
      kMessageEventSql + ") END";
  return sql;
}

const std::string& system_utterance_log_view_sql() {
  // A message of the system without a row is an utterance when the log gives it a trigger; the
  // LEFT JOIN keeps the conversation and turn filters on the message's indexes.
  static const std::string sql =
      "CREATE VIEW system_utterance_log AS SELECT m.id AS log_id, m.created_at AS timestamp, "
      "d.id AS conversation_id, coalesce(u.trigger, " +
      derived_utterance_trigger_sql() + ") AS trigger, " + kMessageContentSql + " AS content, coalesce(u.target, " +
      kDerivedUtteranceTargetSql + ") AS target, t.id AS linked_turn_id, " + "CASE WHEN u.message_rowid IS NULL THEN " +
      derived_utterance_notes_sql() +
      " ELSE u.notes END AS notes, m.rowid AS rowid "
      "FROM message AS m JOIN dialogue AS d ON d.rowid = m.dialogue_rowid "
      "LEFT JOIN system_utterance AS u ON u.message_rowid = m.rowid LEFT JOIN turn AS t ON t.rowid = m.turn_rowid "
      "WHERE m.sender_role = 'system' AND (u.message_rowid IS NOT NULL OR m.content_type = 'tool_output' OR "
      "m.content_type = 'system_context');\n";
  return sql;
}

bool utterance_is_in_log(const record_system_utterance& u, const record_message& message, const event& ev) {
  if (message.sender_role != events::record_role::system || u.target != events::utterance_target::ai) return false;
  if (message.content_type == events::content_type::system_context) {
    return u.trigger == events::utterance_trigger::context_hint && u.notes == kContextHintNotes;
  }
  if (message.content_type != events::content_type::tool_output ||
      u.trigger != events::utterance_trigger::tool_result) {
    return false;
  }
  // The view reads the name from the message's own event.
  if (message.dialog_id != ev.dialog_id || message.seq != ev.seq) return false;
  const std::string name = tool_name_of(ev);
  return !name.empty() && u.notes == "result of " + name;
}

}  // namespace parley::sqlite

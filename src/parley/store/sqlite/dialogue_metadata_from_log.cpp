#include "parley/store/sqlite/dialogue_metadata_from_log.hpp"

#include <algorithm>
#include <vector>

#include "parley/model/events/wire.hpp"
#include "parley/store/sqlite/message_log_metadata.hpp"

namespace parley::sqlite {
namespace {

// A string both spell without escapes (boost::json::serialize and json_quote may choose different
// ones): no control character, quote or backslash. Every other byte, UTF-8 beyond ASCII included,
// both write as it is. The migration's test is the same: no backslash in the text.
bool plain_text(std::string_view text) {
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return static_cast<unsigned char>(c) >= 0x20 && c != '"' && c != '\\'; });
}

bool all_plain(const std::vector<std::string>& texts) {
  return std::all_of(texts.begin(), texts.end(), [](const std::string& t) { return plain_text(t); });
}

std::string quoted_plain_text(std::string_view text) { return "\"" + std::string(text) + "\""; }

// What json_extract gives of a non-empty array of plain strings: its minified text.
std::string array_text(const std::vector<std::string>& texts) {
  std::string out = "[";
  for (const std::string& t : texts) out += (out.size() > 1 ? "," : "") + quoted_plain_text(t);
  return out + "]";
}

}  // namespace

const std::string& dialogue_metadata_from_log_sql() {
  // `p_` is read through the events view, which decodes the payload each time it is named; a
  // dialogue's metadata is read by the records routes, not by the writer.
  static const std::string sql =
      "(SELECT CASE WHEN json_valid(e_.payload) THEN '{\"dialogId\":' || json_quote(d.dialog_id) || "
      "',\"rootId\":' || json_quote(e_.root_id) || "
      "CASE WHEN json_type(e_.payload, '$.title') = 'text' AND json_extract(e_.payload, '$.title') != '' "
      "THEN ',\"title\":' || json_quote(json_extract(e_.payload, '$.title')) ELSE '' END || "
      "CASE WHEN json_type(e_.payload, '$.callKind') = 'text' "
      "THEN ',\"callKind\":' || json_quote(json_extract(e_.payload, '$.callKind')) ELSE '' END || "
      "CASE WHEN json_array_length(e_.payload, '$.humans') > 0 "
      "THEN ',\"humans\":' || json_extract(e_.payload, '$.humans') ELSE '' END || "
      "CASE WHEN json_array_length(e_.payload, '$.members') > 0 "
      "THEN ',\"members\":' || json_extract(e_.payload, '$.members') ELSE '' END || "
      "CASE WHEN d.dialogue_type = 'human_group_ai' AND json_type(e_.payload, '$.memberId') = 'text' AND "
      "json_extract(e_.payload, '$.memberId') != '' "
      "THEN ',\"host\":' || json_quote(json_extract(e_.payload, '$.memberId')) ELSE '' END || '}' END "
      "FROM events AS e_ WHERE e_.dialog_id = d.dialog_id AND e_.seq = 1 AND e_.type = 'dialog_created')";
  return sql;
}

const std::string& dialogue_metadata_sql() {
  static const std::string sql = "CASE WHEN d.metadata = '' THEN " + dialogue_metadata_from_log_sql() + " ELSE " +
                                 std::string(kDialogueMetadataSql) + " END";
  return sql;
}

bool dialogue_metadata_is_in_log(const std::string& metadata, events::dialogue_type dialogue_type, const event& ev) {
  const auto* created = ev.as<events::dialog_created>();
  if (created == nullptr || ev.seq != 1) return false;
  if (!plain_text(ev.dialog_id) || !plain_text(ev.root_id) || !plain_text(created->title) ||
      !plain_text(created->member_id) || !all_plain(created->humans) || !all_plain(created->members)) {
    return false;
  }
  std::string text =
      "{\"dialogId\":" + quoted_plain_text(ev.dialog_id) + ",\"rootId\":" + quoted_plain_text(ev.root_id);
  if (!created->title.empty()) text += ",\"title\":" + quoted_plain_text(created->title);
  if (created->call) text += ",\"callKind\":" + quoted_plain_text(events::to_wire(*created->call));
  if (!created->humans.empty()) text += ",\"humans\":" + array_text(created->humans);
  if (!created->members.empty()) text += ",\"members\":" + array_text(created->members);
  if (dialogue_type == events::dialogue_type::human_group_ai && !created->member_id.empty())
    text += ",\"host\":" + quoted_plain_text(created->member_id);
  return metadata == text + "}";
}

}  // namespace parley::sqlite

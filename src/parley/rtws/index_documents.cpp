#include "parley/rtws/index_documents.hpp"

#include <algorithm>
#include <iterator>
#include <map>

#include "parley/core/time.hpp"
#include "parley/model/event_codec.hpp"

namespace parley::rtws {

namespace json = boost::json;

namespace {

const json::value* field_of(const json::object& obj, std::string_view key, json::kind kind, std::string& problem) {
  const json::value* found = obj.if_contains(key);
  if (found == nullptr) {
    problem = "missing field '" + std::string(key) + "'";
    return nullptr;
  }
  const bool integral = kind == json::kind::int64 && (found->is_int64() || found->is_uint64());
  if (found->kind() != kind && !integral) {
    problem = "field '" + std::string(key) + "' must be " +
              (kind == json::kind::string   ? "a string"
               : kind == json::kind::object ? "an object"
                                            : "an integer");
    return nullptr;
  }
  return found;
}

std::int64_t integer_of(const json::value& value) {
  return value.is_int64() ? value.get_int64() : static_cast<std::int64_t>(value.get_uint64());
}

}  // namespace

json::object event_line(const event& ev) {
  return json::object{
      {"type", ev.type()},        {"seq", ev.seq},        {"ts", format_iso8601_ms(ev.ts_ms)},    {"tsMs", ev.ts_ms},
      {"dialogId", ev.dialog_id}, {"rootId", ev.root_id}, {"payload", encode_payload(ev.payload)}};
}

result<event> event_from_line(const json::value& line) {
  const json::object* obj = line.if_object();
  if (obj == nullptr) return make_error(errc::invalid_argument, "a course line must be a JSON object");
  for (const auto& [key, value] : *obj) {
    static constexpr std::string_view known[] = {"type", "seq", "ts", "tsMs", "dialogId", "rootId", "payload"};
    if (std::find(std::begin(known), std::end(known), std::string_view(key)) == std::end(known)) {
      // Anything else would be dropped by the store: refuse rather than lose it silently.
      return make_error(errc::invalid_argument, "unexpected field '" + std::string(key) + "'");
    }
  }
  std::string problem;
  const auto* type = field_of(*obj, "type", json::kind::string, problem);
  const auto* seq = type ? field_of(*obj, "seq", json::kind::int64, problem) : nullptr;
  const auto* ts = seq ? field_of(*obj, "ts", json::kind::string, problem) : nullptr;
  const auto* ts_ms = ts ? field_of(*obj, "tsMs", json::kind::int64, problem) : nullptr;
  const auto* dialog_id = ts_ms ? field_of(*obj, "dialogId", json::kind::string, problem) : nullptr;
  const auto* root_id = dialog_id ? field_of(*obj, "rootId", json::kind::string, problem) : nullptr;
  const auto* payload = root_id ? field_of(*obj, "payload", json::kind::object, problem) : nullptr;
  if (payload == nullptr) return make_error(errc::invalid_argument, problem);

  auto typed = decode_payload(type->get_string(), payload->get_object());
  if (!typed) return make_error(errc::invalid_argument, "payload." + typed.err().message);
  event ev;
  ev.payload = std::move(*typed);
  ev.seq = integer_of(*seq);
  ev.ts_ms = integer_of(*ts_ms);
  ev.dialog_id = std::string(dialog_id->get_string());
  ev.root_id = std::string(root_id->get_string());
  // Both times are written; if they disagree someone edited one of them, and tsMs alone is kept.
  const auto parsed = parse_iso8601_ms(ts->get_string());
  if (!parsed || *parsed != ev.ts_ms) {
    return make_error(errc::invalid_argument, "ts '" + std::string(ts->get_string()) + "' does not match tsMs " +
                                                  std::to_string(ev.ts_ms) + " (" + format_iso8601_ms(ev.ts_ms) + ")");
  }
  return ev;
}

json::object dialog_document(const dialog_row& row) {
  json::object doc{{"id", row.id},
                   {"rootId", row.root_id},
                   {"memberId", row.member_id},
                   {"kind", events::to_wire(row.kind)},
                   {"title", row.title},
                   {"taskDocPath", row.task_doc_path},
                   {"createdAt", format_iso8601_ms(row.created_at_ms)},
                   {"status", events::to_wire(row.status)}};
  if (row.kind == events::dialog_kind::sub) {
    doc["parentId"] = row.parent_id;
    doc["callKind"] = row.call_kind ? events::to_wire(*row.call_kind) : std::string_view();
    doc["sessionSlug"] = row.session_slug;
    doc["callerId"] = row.caller_id;
    doc["depth"] = row.depth;
    doc["dead"] = row.dead;
  }
  return doc;
}

json::object latest_document(const dialog_row& row) {
  return json::object{{"currentCourse", row.course},
                      {"status", events::to_wire(row.status)},
                      {"needsDrive", row.needs_drive},
                      {"generating", row.generating},
                      {"lastModified", format_iso8601_ms(row.updated_at_ms)},
                      {"openQuestions", row.open_questions},
                      {"pendingSubdialogs", row.pending_subdialogs}};
}

json::array q4h_document(const dialog_state& state) {
  json::array doc;
  for (const auto& q : state.questions) {
    doc.push_back(json::object{{"id", q.id},
                               {"mentionList", q.mention_list},
                               {"tellaskContent", q.tellask_content},
                               {"askedAt", q.asked_at},
                               {"callSiteRef", json::object{{"course", q.course}, {"seq", q.seq}}}});
  }
  return doc;
}

json::array reminders_document(const dialog_state& state) {
  json::array doc;
  for (const auto& content : state.reminders) doc.push_back(json::object{{"content", content}});
  return doc;
}

json::object registry_document(const std::vector<const dialog_replay*>& subdialogs) {
  // Sorted by key so the file is stable from one export to the next.
  std::map<std::string, json::object> entries;
  for (const dialog_replay* sub : subdialogs) {
    const dialog_row& row = sub->row();
    if (row.kind != events::dialog_kind::sub || row.dead || row.session_slug.empty()) continue;
    entries[row.member_id + "!" + row.session_slug] =
        json::object{{"subdialogId", row.id},
                     {"agentId", row.member_id},
                     {"tellaskSession", row.session_slug},
                     {"createdAt", format_iso8601_ms(row.created_at_ms)},
                     {"lastAccessed", format_iso8601_ms(sub->last_accessed_ms())},
                     {"locked", false}};
  }
  json::object doc;
  for (auto& [key, entry] : entries) doc[key] = std::move(entry);
  return doc;
}

}  // namespace parley::rtws

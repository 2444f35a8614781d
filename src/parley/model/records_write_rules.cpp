#include "parley/model/records_write_rules.hpp"

#include "parley/core/json_fields.hpp"

namespace parley::records_rules {

std::string session_type_of(std::string_view requested) {
  if (requested == "interaction") return "dialogue";
  if (requested == "reflection") return "self_reflection";
  return std::string(requested);
}

std::string turn_status_of(std::string_view outcome) { return outcome == "responded" ? "responded" : "unresponded"; }

std::string seed_turn_status(const record_turn& turn) {
  if (turn.status == "pending") return "open";
  // A turn closed through the write API with one of the seed's outcomes keeps that word in its
  // metadata; every other closed turn is responded or unresponded.
  auto metadata = parse_json(turn.metadata);
  if (metadata && metadata->is_object()) {
    // The close route writes the request's outcome (a checked string) here; other metadata has none.
    json_fields fields(metadata->get_object(), "metadata");
    if (auto outcome = fields.optional_string("outcome"); outcome && !outcome->empty()) return std::move(*outcome);
  }
  return turn.status;
}

std::string trigger_source_of(std::string_view triggered_by) {
  if (triggered_by == "schedule") return "schedule";
  if (triggered_by == "human") return "human_guidance";
  if (triggered_by == "ai") return "task_reflection";
  return "api";
}

std::string created_by_of(std::string_view triggered_by) {
  if (triggered_by == "human" || triggered_by == "ai") return std::string(triggered_by);
  return "system";
}

std::string_view turn_type_opened_by(std::string_view initiator) {
  if (initiator == "human") return "human_query";
  if (initiator == "ai") return "ai_prompt";
  return "system_prompt";
}

namespace {

result<void> no_turn_pending(const std::optional<open_turn>& pending, std::string_view doing) {
  if (pending) {
    return make_error(errc::conflict, "turn " + pending->turn_id + " is still pending; close it before " +
                                          std::string(doing) + " (a turn never spans two sessions)");
  }
  return ok();
}

}  // namespace

result<void> may_open_session(const std::optional<open_turn>& pending) {
  return no_turn_pending(pending, "starting a session");
}

result<void> may_close_session(const record_session& session, const std::optional<open_turn>& pending) {
  if (session.end_at != 0) return make_error(errc::conflict, "session " + session.id + " is already closed");
  return no_turn_pending(pending, "closing its session");
}

result<void> may_open_turn(const record_session& session, const std::optional<open_turn>& pending) {
  if (session.end_at != 0) return make_error(errc::conflict, "session " + session.id + " is closed; open a new one");
  return no_turn_pending(pending, "opening another turn");
}

result<void> may_write_to_turn(const record_turn& turn, const std::optional<open_turn>& pending, std::int64_t now_ms) {
  if (turn.status != "pending") {
    return make_error(errc::conflict, "turn " + turn.id + " is already closed (" + turn.status + ")");
  }
  if (!pending || pending->turn_id != turn.id) {
    return make_error(errc::conflict, "turn " + turn.id + " is not the dialogue's open turn");
  }
  if (now_ms > pending->deadline_ms) {
    return make_error(errc::conflict, "turn " + turn.id + " passed its response window");
  }
  return ok();
}

result<void> may_record_introspection(const record_session& session) {
  if (session.session_type != "self_reflection") {
    return make_error(errc::conflict, "session " + session.id +
                                          " is a dialogue session; introspection turns belong to a "
                                          "self_reflection session");
  }
  if (session.end_at != 0) return make_error(errc::conflict, "session " + session.id + " is closed");
  return ok();
}

}  // namespace parley::records_rules

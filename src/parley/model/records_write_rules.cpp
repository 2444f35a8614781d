#include "parley/model/records_write_rules.hpp"

#include "parley/core/json_fields.hpp"

namespace parley::records_rules {

events::session_type session_type_of(events::requested_session_type requested) {
  switch (requested) {
    case events::requested_session_type::dialogue:
    case events::requested_session_type::interaction:
      return events::session_type::dialogue;
    case events::requested_session_type::self_reflection:
    case events::requested_session_type::reflection:
      break;
  }
  return events::session_type::self_reflection;
}

events::turn_status turn_status_of(events::turn_close outcome) {
  return outcome == events::turn_close::responded ? events::turn_status::responded : events::turn_status::unresponded;
}

std::string seed_turn_status(const record_turn& turn) {
  if (turn.status == events::turn_status::pending) return "open";
  // A turn closed through the write API with one of the seed's outcomes keeps that word in its
  // metadata; every other closed turn is responded or unresponded.
  auto metadata = parse_json(turn.metadata);
  if (metadata && metadata->is_object()) {
    // The close route writes the request's outcome (a checked string) here; other metadata has none.
    json_fields fields(metadata->get_object(), "metadata");
    if (auto outcome = fields.optional_string("outcome"); outcome && !outcome->empty()) return std::move(*outcome);
  }
  return std::string(events::to_wire(turn.status));
}

events::trigger_source trigger_source_of(events::triggered_by by) {
  switch (by) {
    case events::triggered_by::schedule:
      return events::trigger_source::schedule;
    case events::triggered_by::human:
      return events::trigger_source::human_guidance;
    case events::triggered_by::ai:
      return events::trigger_source::task_reflection;
    case events::triggered_by::system:
      break;
  }
  return events::trigger_source::api;
}

events::record_role created_by_of(events::triggered_by by) {
  switch (by) {
    case events::triggered_by::human:
      return events::record_role::human;
    case events::triggered_by::ai:
      return events::record_role::ai;
    case events::triggered_by::system:
    case events::triggered_by::schedule:
      break;
  }
  return events::record_role::system;
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
  if (turn.status != events::turn_status::pending) {
    return make_error(errc::conflict,
                      "turn " + turn.id + " is already closed (" + std::string(events::to_wire(turn.status)) + ")");
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
  if (session.session_type != events::session_type::self_reflection) {
    return make_error(errc::conflict, "session " + session.id +
                                          " is a dialogue session; introspection turns belong to a "
                                          "self_reflection session");
  }
  if (session.end_at != 0) return make_error(errc::conflict, "session " + session.id + " is closed");
  return ok();
}

}  // namespace parley::records_rules

#include "parley/server/records_requests.hpp"

#include <array>
#include <string_view>

#include "parley/core/json.hpp"

namespace parley::server {
namespace {

constexpr std::size_t kMaxMetaTextBytes = 64 * 1024;

// Seed 002's content_meta of an image or audio message.
result<void> check_content_meta(const boost::json::object& meta) {
  for (const auto& [key, field] : meta) {
    const std::string where = "content_meta." + std::string(key);
    if (key == "size_kb") {
      if (!field.is_int64() || field.get_int64() < 0) {
        return field_problem(where, "expected a whole number of KB (0 or more)");
      }
    } else if (key == "caption" || key == "transcription" || key == "text" || key == "format" || key == "mime") {
      if (!field.is_string()) return field_problem(where, "expected a string");
      if (field.get_string().size() > kMaxMetaTextBytes) return field_problem(where, "longer than 64 KiB");
    } else {
      return field_problem(where, "unknown field (expected caption, format, size_kb, transcription, text, mime)");
    }
  }
  return ok();
}

// Two names for one field: either may carry it, both only when they agree.
result<void> one_value(const std::optional<events::record_role>& parley_name, std::string_view parley_key,
                       const std::optional<events::record_role>& seed_name, std::string_view seed_key) {
  if (!parley_name && !seed_name) {
    return field_problem(parley_key,
                         "required, one of human, ai, system (or the seed's " + std::string(seed_key) + ")");
  }
  if (parley_name && seed_name && *parley_name != *seed_name) {
    return field_problem(seed_key, "'" + std::string(events::to_wire(*seed_name)) + "' disagrees with " +
                                       std::string(parley_key) + " '" + std::string(events::to_wire(*parley_name)) +
                                       "'; send one of them");
  }
  return ok();
}

}  // namespace

result<void> open_session_request::check() const {
  if (!self_reflection()) {
    for (const auto& [key, given] :
         std::array<std::pair<std::string_view, bool>, 3>{{{"trigger_source", trigger_source.has_value()},
                                                           {"goal", goal.has_value()},
                                                           {"ai_mood_state", ai_mood_state.has_value()}}}) {
      if (given) return field_problem(key, "only a self_reflection session has it (set session_type)");
    }
  }
  return ok();
}

result<void> open_turn_request::check() const {
  PARLEY_TRY(one_value(initiator_role, "initiator_role", initiator, "initiator"));
  PARLEY_TRY(one_value(responder_role, "responder_role", expected_responder, "expected_responder"));
  // The seed's turn type follows from who opens the turn; a client may state it, not contradict it.
  // turn_type is read as a name, not one of the types: any other word is refused here, as a contradiction.
  const auto implied = events::to_wire(events::turn_type_opened_by(opened_by()));
  if (turn_type && !turn_type->empty() && *turn_type != implied) {
    return field_problem("turn_type", "a turn opened by " + std::string(events::to_wire(opened_by())) + " is '" +
                                          std::string(implied) + "', got '" + *turn_type + "'");
  }
  return ok();
}

result<void> record_message_request::check() const {
  if (turn_id.empty() && session_id.empty() && dialogue_id.empty()) {
    return field_problem("turn_id", "required (or the seed's session_id or dialogue_id, whose open turn it joins)");
  }
  if (content_meta) {
    if (!events::is_media(content_type)) {
      return field_problem("content_meta", "only image and audio messages have one");
    }
    PARLEY_TRY(check_content_meta(*content_meta));
  }
  if (content_type == events::content_type::quote_reply && reply_to.empty()) {
    return field_problem("reply_to", "required for content_type quote_reply");
  }
  // A system message is also an utterance of the system (seed 002 SystemUtteranceLog): to whom, and why.
  if (sender_role != events::record_role::system && (target || notes)) {
    return field_problem(target ? "target" : "notes", "only a system message has an utterance target and notes");
  }
  return ok();
}

}  // namespace parley::server

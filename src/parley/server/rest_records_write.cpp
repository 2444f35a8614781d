// Seed 002's write routes over the conversation records (docs/records.md "Writing records"):
// sessions, turns and messages, each an event in the log of the dialog the dialogue records. The
// seed's rules — a message belongs to an open turn, a turn to the current session, a turn never
// spans two sessions — are checked under the dialog's lock against the records as they are, so
// a refused write leaves nothing behind.
#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>

#include <algorithm>
#include <array>
#include <functional>
#include <span>

#include "parley/core/ids.hpp"
#include "parley/core/json.hpp"
#include "parley/core/time.hpp"
#include "parley/model/conversation_reducer.hpp"
#include "parley/server/records_json.hpp"
#include "parley/server/rest_handlers.hpp"
#include "parley/server/rest_support.hpp"

namespace parley::server::rest {
namespace {

constexpr std::size_t kMaxContentBytes = 1024 * 1024;
constexpr std::array<std::string_view, 3> kRoles{"human", "ai", "system"};
constexpr std::array<std::string_view, 2> kSessionTypes{"dialogue", "self_reflection"};
constexpr std::array<std::string_view, 2> kCloseStatuses{"responded", "unresponded"};
constexpr std::array<std::string_view, 3> kTargets{"human", "ai", "all"};
constexpr std::array<std::string_view, 4> kTriggerSources{"schedule", "task_reflection", "human_guidance", "api"};
constexpr std::size_t kMaxIntrospectionFieldBytes = 256 * 1024;
// The content types a client may write; image and audio arrive with uploads (not yet).
constexpr std::array<std::string_view, 7> kWritableContentTypes{"text",        "markdown", "prompt", "quote_reply",
                                                                "tool_output", "image",    "audio"};
constexpr std::size_t kMaxMetaTextBytes = 64 * 1024;

// A text field that must be one of `values`; `fallback` when absent (empty fallback: required).
result<std::string> enum_field(const boost::json::object& body, std::string_view key,
                               std::span<const std::string_view> values, std::string_view fallback = {}) {
  auto text = optional_text(body, key);
  if (!text) return text;
  if (text->empty()) {
    if (fallback.empty())
      return make_error(errc::invalid_argument, std::string(key) + ": required, one of " + joined(values));
    return std::string(fallback);
  }
  if (std::find(values.begin(), values.end(), *text) == values.end()) {
    return make_error(errc::invalid_argument,
                      std::string(key) + ": expected one of " + joined(values) + ", got '" + *text + "'");
  }
  return text;
}

result<boost::json::object> metadata_field(const boost::json::object& body) {
  const auto* value = body.if_contains("metadata");
  if (value == nullptr || value->is_null()) return boost::json::object{};
  if (!value->is_object()) {
    return make_error(errc::invalid_argument,
                      std::string("metadata: expected an object, got ") + json_kind_name(*value));
  }
  return value->get_object();
}

// Every write needs a store that keeps records (the in-memory store does not).
// Seed 002's content_meta of an image or audio message; refused on any other content type.
result<boost::json::object> content_meta_field(const boost::json::object& body, const std::string& content_type) {
  const auto* value = body.if_contains("content_meta");
  if (value == nullptr || value->is_null()) return boost::json::object{};
  if (content_type != "image" && content_type != "audio") {
    return make_error(errc::invalid_argument, "content_meta: only image and audio messages have one");
  }
  if (!value->is_object()) {
    return make_error(errc::invalid_argument,
                      std::string("content_meta: expected an object, got ") + json_kind_name(*value));
  }
  for (const auto& [key, field] : value->get_object()) {
    const std::string where = "content_meta." + std::string(key);
    if (key == "size_kb") {
      if (!field.is_int64() || field.get_int64() < 0) {
        return make_error(errc::invalid_argument, where + ": expected a whole number of KB (0 or more)");
      }
    } else if (key == "caption" || key == "transcription" || key == "text" || key == "format" || key == "mime") {
      if (!field.is_string()) return make_error(errc::invalid_argument, where + ": expected a string");
      if (field.get_string().size() > kMaxMetaTextBytes) {
        return make_error(errc::invalid_argument, where + ": longer than 64 KiB");
      }
    } else {
      return make_error(errc::invalid_argument,
                        where + ": unknown field (expected caption, format, size_kb, transcription, text, mime)");
    }
  }
  return value->get_object();
}

rest_response no_records() { return error_response(500, "internal", "this store keeps no conversation records"); }

template <class Row>
result<Row> existing(result<std::optional<Row>> row, std::string_view what, std::string_view id) {
  if (!row) return std::move(row).err();
  if (!*row) return make_error(errc::not_found, "no " + std::string(what) + " with id '" + std::string(id) + "'");
  return std::move(**row);
}

result<record_dialogue> dialogue_of(records_query& records, std::string_view dialogue_id) {
  return existing(records.dialogue(dialogue_id), "dialogue", dialogue_id);
}

// The dialogue of a record the request names (`what` `asked`): another user's is answered as if
// the record did not exist.
result<record_dialogue> visible_dialogue_of(server_context& context, const rest_request& request,
                                            records_query& records, std::string_view dialogue_id, std::string_view what,
                                            std::string_view asked) {
  auto dialogue = dialogue_of(records, dialogue_id);
  if (dialogue && !may_see_dialog_id(context, request, dialogue->dialog_id)) {
    return make_error(errc::not_found, "no " + std::string(what) + " with id '" + std::string(asked) + "'");
  }
  return dialogue;
}

// The turn still waiting for its responder in `dialog_id`, if any.
result<std::optional<pending_turn>> pending_in(records_query& records, std::string_view dialog_id) {
  return records.pending_turn_of(dialog_id);
}

result<void> no_turn_pending(records_query& records, const record_dialogue& dialogue, std::string_view doing) {
  auto pending = pending_in(records, dialogue.dialog_id);
  if (!pending) return std::move(pending).err();
  if (*pending) {
    return make_error(errc::conflict, "turn " + (*pending)->turn_id + " is still pending; close it before " +
                                          std::string(doing) + " (a turn never spans two sessions)");
  }
  return ok();
}

result<void> turn_is_open(records_query& records, std::string_view turn_id) {
  auto turn = existing(records.turn(turn_id), "turn", turn_id);
  if (!turn) return std::move(turn).err();
  if (turn->status != "pending") {
    return make_error(errc::conflict, "turn " + std::string(turn_id) + " is already closed (" + turn->status + ")");
  }
  auto dialogue = dialogue_of(records, turn->dialogue_id);
  if (!dialogue) return std::move(dialogue).err();
  auto pending = pending_in(records, dialogue->dialog_id);
  if (!pending) return std::move(pending).err();
  if (!*pending || (*pending)->turn_id != turn_id) {
    return make_error(errc::conflict, "turn " + std::string(turn_id) + " is not the dialogue's open turn");
  }
  if (now_ms() > (*pending)->deadline_ms) {
    return make_error(errc::conflict, "turn " + std::string(turn_id) + " passed its response window");
  }
  return ok();
}

// A self-reflection session's own fields (seed 002 SelfReflectionSession); refused on a dialogue
// session. Payload keys as the log stores them.
struct reflection_texts {
  std::optional<std::string> trigger_source;
  std::optional<std::string> goal;
  std::optional<std::string> ai_mood_state;
};

result<reflection_texts> reflection_fields(const boost::json::object& body, bool self_reflection) {
  reflection_texts out;
  for (const std::string_view key : {"trigger_source", "goal", "ai_mood_state"}) {
    if (body.contains(key) && !self_reflection) {
      return make_error(errc::invalid_argument,
                        std::string(key) + ": only a self_reflection session has it (set session_type)");
    }
  }
  if (!self_reflection) return out;
  auto trigger = enum_field(body, "trigger_source", kTriggerSources, "api");
  if (!trigger) return std::move(trigger).err();
  auto goal = optional_text(body, "goal");
  if (!goal) return std::move(goal).err();
  auto mood = optional_text(body, "ai_mood_state");
  if (!mood) return std::move(mood).err();
  out.trigger_source = *trigger;
  out.goal = *goal;
  out.ai_mood_state = *mood;
  return out;
}

rest_response refused(const error& err) {
  return err.code == errc::invalid_argument ? field_error(err) : error_response(err);
}

// Appends the write to the dialog's log once `check` allows it. Callers pass a named
// `event_payload` (std::move of a local), never a temporary built inside the co_await expression:
// g++ 12 mishandles such temporaries (see engine/log_writer.cpp), and a `record_memory_link{...}`
// written inline here had its strings freed while the store's writer thread still projected the
// event — the intermittent failure of RecordsViewsRest.ASelfReflectionSession... (valgrind showed
// the read after free in apply_records).
boost::asio::awaitable<result<void>> append_write(server_context& context, std::string dialog_id,
                                                  events::event_payload write, std::function<result<void>()> check) {
  co_return co_await context.engine.append_record_write(std::move(dialog_id), std::move(write), std::move(check));
}

}  // namespace

handler_result post_session(server_context& context, const rest_request& request, std::string /*id*/) {
  rest_response failure;
  const auto body = parse_body_object(request.body, false, failure);
  if (!body) co_return failure;
  static constexpr std::array<std::string_view, 8> kFields{"dialogue_id", "session_type", "description",
                                                           "created_by",  "metadata",     "trigger_source",
                                                           "goal",        "ai_mood_state"};
  if (auto known = only_fields(*body, kFields); !known) co_return field_error(known.err());
  auto dialogue_id = required_text(*body, "dialogue_id");
  if (!dialogue_id) co_return field_error(dialogue_id.err());
  auto session_type = enum_field(*body, "session_type", kSessionTypes, "dialogue");
  if (!session_type) co_return field_error(session_type.err());
  auto description = optional_text(*body, "description");
  if (!description) co_return field_error(description.err());
  auto created_by = enum_field(*body, "created_by", kRoles, "human");
  if (!created_by) co_return field_error(created_by.err());
  auto metadata = metadata_field(*body);
  if (!metadata) co_return field_error(metadata.err());
  auto reflection = reflection_fields(*body, *session_type == "self_reflection");
  if (!reflection) co_return field_error(reflection.err());
  if (context.log.records() == nullptr) co_return no_records();
  auto& records = *context.log.records();
  auto dialogue = visible_dialogue_of(context, request, records, *dialogue_id, "dialogue", *dialogue_id);
  if (!dialogue) co_return error_response(dialogue.err());

  const std::string session_id = new_uuid();
  events::record_session_opened opened{session_id,
                                       *session_type,
                                       *description,
                                       *created_by,
                                       std::move(*metadata),
                                       std::move(reflection->trigger_source),
                                       std::move(reflection->goal),
                                       std::move(reflection->ai_mood_state)};
  std::function<result<void>()> check = [&] { return no_turn_pending(records, *dialogue, "starting a session"); };
  events::event_payload opened_write = std::move(opened);
  auto written = co_await append_write(context, dialogue->dialog_id, std::move(opened_write), std::move(check));
  if (!written) co_return refused(written.err());
  auto session = existing(records.session(session_id), "session", session_id);
  if (!session) co_return error_response(session.err());
  co_return json_response(201, {{"session", session_json(*session)}});
}

handler_result close_session(server_context& context, const rest_request& request, std::string id) {
  rest_response failure;
  const auto body = parse_body_object(request.body, true, failure);
  if (!body) co_return failure;
  static constexpr std::array<std::string_view, 1> kFields{"summary"};
  if (auto known = only_fields(*body, kFields); !known) co_return field_error(known.err());
  auto summary = optional_text(*body, "summary");
  if (!summary) co_return field_error(summary.err());
  if (context.log.records() == nullptr) co_return no_records();
  auto& records = *context.log.records();
  auto session = existing(records.session(id), "session", id);
  if (!session) co_return error_response(session.err());
  auto dialogue = visible_dialogue_of(context, request, records, session->dialogue_id, "session", session->id);
  if (!dialogue) co_return error_response(dialogue.err());

  events::record_session_closed closing{id, *summary};
  std::function<result<void>()> check = [&]() -> result<void> {
    auto now = existing(records.session(id), "session", id);
    if (!now) return std::move(now).err();
    if (now->end_at != 0) return make_error(errc::conflict, "session " + id + " is already closed");
    return no_turn_pending(records, *dialogue, "closing its session");
  };
  events::event_payload closing_write = std::move(closing);
  auto written = co_await append_write(context, dialogue->dialog_id, std::move(closing_write), std::move(check));
  if (!written) co_return refused(written.err());
  auto closed = existing(records.session(id), "session", id);
  if (!closed) co_return error_response(closed.err());
  co_return json_response(200, {{"session", session_json(*closed)}});
}

handler_result post_turn(server_context& context, const rest_request& request, std::string /*id*/) {
  rest_response failure;
  const auto body = parse_body_object(request.body, false, failure);
  if (!body) co_return failure;
  // No `metadata`: a turn's is the runtime's own (how it opened and closed), so a client's would be
  // dropped; it is refused as an unknown field instead. Sessions and messages take metadata.
  static constexpr std::array<std::string_view, 4> kFields{"session_id", "initiator_role", "responder_role",
                                                           "turn_type"};
  if (auto known = only_fields(*body, kFields); !known) co_return field_error(known.err());
  auto session_id = required_text(*body, "session_id");
  if (!session_id) co_return field_error(session_id.err());
  auto initiator = enum_field(*body, "initiator_role", kRoles);
  if (!initiator) co_return field_error(initiator.err());
  auto responder = enum_field(*body, "responder_role", kRoles);
  if (!responder) co_return field_error(responder.err());
  // The seed's turn type follows from who opens the turn; a client may state it, not contradict it.
  const std::string implied = *initiator == "human" ? "human_query"
                              : *initiator == "ai"  ? "ai_prompt"
                                                    : "system_prompt";
  auto turn_type = optional_text(*body, "turn_type");
  if (!turn_type) co_return field_error(turn_type.err());
  if (!turn_type->empty() && *turn_type != implied) {
    co_return error_response(
        400, "bad_field",
        "turn_type: a turn opened by " + *initiator + " is '" + implied + "', got '" + *turn_type + "'");
  }
  if (context.log.records() == nullptr) co_return no_records();
  auto& records = *context.log.records();
  auto session = existing(records.session(*session_id), "session", *session_id);
  if (!session) co_return error_response(session.err());
  auto dialogue = visible_dialogue_of(context, request, records, session->dialogue_id, "session", session->id);
  if (!dialogue) co_return error_response(dialogue.err());

  const std::string turn_id = new_uuid();
  events::record_turn_opened opened{turn_id, *session_id, *initiator, *responder};
  std::function<result<void>()> check = [&]() -> result<void> {
    auto now = existing(records.session(*session_id), "session", *session_id);
    if (!now) return std::move(now).err();
    if (now->end_at != 0) return make_error(errc::conflict, "session " + *session_id + " is closed; open a new one");
    return no_turn_pending(records, *dialogue, "opening another turn");
  };
  events::event_payload opened_write = std::move(opened);
  auto written = co_await append_write(context, dialogue->dialog_id, std::move(opened_write), std::move(check));
  if (!written) co_return refused(written.err());
  auto turn = existing(records.turn(turn_id), "turn", turn_id);
  if (!turn) co_return error_response(turn.err());
  co_return json_response(201, {{"turn", turn_json(*turn)}});
}

handler_result close_turn(server_context& context, const rest_request& request, std::string id) {
  rest_response failure;
  const auto body = parse_body_object(request.body, true, failure);
  if (!body) co_return failure;
  static constexpr std::array<std::string_view, 1> kFields{"status"};
  if (auto known = only_fields(*body, kFields); !known) co_return field_error(known.err());
  auto status = enum_field(*body, "status", kCloseStatuses, "responded");
  if (!status) co_return field_error(status.err());
  if (context.log.records() == nullptr) co_return no_records();
  auto& records = *context.log.records();
  auto turn = existing(records.turn(id), "turn", id);
  if (!turn) co_return error_response(turn.err());
  auto dialogue = visible_dialogue_of(context, request, records, turn->dialogue_id, "turn", turn->id);
  if (!dialogue) co_return error_response(dialogue.err());

  events::record_turn_closed closing{id, *status};
  std::function<result<void>()> check = [&] { return turn_is_open(records, id); };
  events::event_payload closing_write = std::move(closing);
  auto written = co_await append_write(context, dialogue->dialog_id, std::move(closing_write), std::move(check));
  if (!written) co_return refused(written.err());
  auto closed = existing(records.turn(id), "turn", id);
  if (!closed) co_return error_response(closed.err());
  co_return json_response(200, {{"turn", turn_json(*closed)}});
}

handler_result post_record_message(server_context& context, const rest_request& request, std::string /*id*/) {
  rest_response failure;
  const auto body = parse_body_object(request.body, false, failure);
  if (!body) co_return failure;
  static constexpr std::array<std::string_view, 10> kFields{"turn_id",      "sender_role",  "sender_id", "content",
                                                            "content_type", "content_meta", "metadata",  "reply_to",
                                                            "target",       "notes"};
  if (auto known = only_fields(*body, kFields); !known) co_return field_error(known.err());
  auto turn_id = required_text(*body, "turn_id");
  if (!turn_id) co_return field_error(turn_id.err());
  auto sender_role = enum_field(*body, "sender_role", kRoles);
  if (!sender_role) co_return field_error(sender_role.err());
  auto sender_id = optional_text(*body, "sender_id");
  if (!sender_id) co_return field_error(sender_id.err());
  auto content = required_text(*body, "content");
  if (!content) co_return field_error(content.err());
  if (content->size() > kMaxContentBytes) {
    co_return error_response(400, "bad_field",
                             "content: " + std::to_string(content->size()) + " bytes, more than the " +
                                 std::to_string(kMaxContentBytes) + " a message may have");
  }
  auto content_type = enum_field(*body, "content_type", kWritableContentTypes, "text");
  if (!content_type) co_return field_error(content_type.err());
  auto content_meta = content_meta_field(*body, *content_type);
  if (!content_meta) co_return field_error(content_meta.err());
  auto metadata = metadata_field(*body);
  if (!metadata) co_return field_error(metadata.err());
  auto reply_to = optional_text(*body, "reply_to");
  if (!reply_to) co_return field_error(reply_to.err());
  if (*content_type == "quote_reply" && reply_to->empty()) {
    co_return error_response(400, "bad_field", "reply_to: required for content_type quote_reply");
  }
  // A system message is also an utterance of the system (seed 002 SystemUtteranceLog): to whom, and why.
  auto target = enum_field(*body, "target", kTargets, "all");
  if (!target) co_return field_error(target.err());
  auto notes = optional_text(*body, "notes");
  if (!notes) co_return field_error(notes.err());
  if (*sender_role != "system" && (body->contains("target") || body->contains("notes"))) {
    co_return error_response(400, "bad_field",
                             std::string(body->contains("target") ? "target" : "notes") +
                                 ": only a system message has an utterance target and notes");
  }
  if (context.log.records() == nullptr) co_return no_records();
  auto& records = *context.log.records();
  auto turn = existing(records.turn(*turn_id), "turn", *turn_id);
  if (!turn) co_return error_response(turn.err());
  auto dialogue = visible_dialogue_of(context, request, records, turn->dialogue_id, "turn", turn->id);
  if (!dialogue) co_return error_response(dialogue.err());
  if (!reply_to->empty()) {
    auto quoted = existing(records.message(*reply_to), "message", *reply_to);
    if (!quoted) co_return error_response(400, "bad_field", "reply_to: " + quoted.err().message);
    if (quoted->dialogue_id != dialogue->id) {
      co_return error_response(400, "bad_field", "reply_to: message " + *reply_to + " is in another dialogue");
    }
  }

  const std::string message_id = new_uuid();
  events::record_message written_message{message_id, *turn_id,      *sender_role,         *sender_id,
                                         *content,   *content_type, std::move(*metadata), *reply_to,
                                         *target,    *notes,        std::nullopt};
  if (!content_meta->empty()) written_message.content_meta = std::move(*content_meta);
  std::function<result<void>()> check = [&] { return turn_is_open(records, *turn_id); };
  events::event_payload message_write = std::move(written_message);
  auto written = co_await append_write(context, dialogue->dialog_id, std::move(message_write), std::move(check));
  if (!written) co_return refused(written.err());
  auto message = existing(records.message(message_id), "message", message_id);
  if (!message) co_return error_response(message.err());
  co_return json_response(201, {{"message", record_message_json(*message)}});
}

handler_result post_introspection(server_context& context, const rest_request& request, std::string session_id) {
  rest_response failure;
  const auto body = parse_body_object(request.body, false, failure);
  if (!body) co_return failure;
  static constexpr std::array<std::string_view, 11> kFields{
      "purpose",    "input_context", "tool_used",   "tool_input", "tool_output",       "generated_entry",
      "mood_shift", "value_impact",  "duration_ms", "started_at", "related_memory_ids"};
  if (auto known = only_fields(*body, kFields); !known) co_return field_error(known.err());
  auto purpose = required_text(*body, "purpose");
  if (!purpose) co_return field_error(purpose.err());
  events::record_introspection turn;
  turn.purpose = *purpose;
  const std::array<std::pair<std::string_view, std::optional<std::string>*>, 7> kTexts{
      {{"input_context", &turn.input_context},
       {"tool_used", &turn.tool_used},
       {"tool_input", &turn.tool_input},
       {"tool_output", &turn.tool_output},
       {"generated_entry", &turn.generated_entry},
       {"mood_shift", &turn.mood_shift},
       {"value_impact", &turn.value_impact}}};
  for (const auto& [field, member] : kTexts) {
    auto text = optional_text(*body, field);
    if (!text) co_return field_error(text.err());
    if (text->size() > kMaxIntrospectionFieldBytes) {
      co_return error_response(
          400, "bad_field",
          std::string(field) + ": more than " + std::to_string(kMaxIntrospectionFieldBytes) + " bytes");
    }
    *member = *text;
  }
  const auto* duration = body->if_contains("duration_ms");
  if (duration != nullptr && (!duration->is_int64() || duration->as_int64() < 0)) {
    co_return error_response(400, "bad_field", "duration_ms: expected a non-negative integer");
  }
  turn.duration_ms = duration == nullptr ? 0 : duration->as_int64();
  if (const auto* started = body->if_contains("started_at")) {
    const auto ms = started->is_string() ? parse_iso8601_ms(started->as_string()) : std::nullopt;
    if (!ms) co_return error_response(400, "bad_field", "started_at: expected a UTC ISO-8601 time");
    turn.started_at = *ms;
  }
  std::vector<std::string> related;
  if (const auto* listed = body->if_contains("related_memory_ids")) {
    if (!listed->is_array()) co_return error_response(400, "bad_field", "related_memory_ids: expected an array of ids");
    for (const auto& id : listed->as_array()) {
      if (!id.is_string()) co_return error_response(400, "bad_field", "related_memory_ids: expected an array of ids");
      related.emplace_back(id.as_string());
    }
  }
  if (context.log.records() == nullptr) co_return no_records();
  auto& records = *context.log.records();
  auto session = existing(records.session(session_id), "session", session_id);
  if (!session) co_return error_response(session.err());
  // Whether the asker may see the session comes first: another user's session answers exactly
  // like an unknown one, never with a conflict that would tell it exists.
  auto dialogue = visible_dialogue_of(context, request, records, session->dialogue_id, "session", session->id);
  if (!dialogue) co_return error_response(dialogue.err());
  if (session->session_type != "self_reflection") {
    co_return error_response(409, "conflict",
                             "session " + session_id +
                                 " is a dialogue session; introspection turns "
                                 "belong to a self_reflection session");
  }
  for (const auto& id : related) {
    auto memory = existing(records.memory_entry(id), "memory entry", id);
    if (memory && !may_see_dialogue(context, request, memory->dialogue_id)) {
      memory = make_error(errc::not_found, "no memory entry with id '" + id + "'");
    }
    if (!memory) co_return error_response(400, "bad_field", "related_memory_ids: " + memory.err().message);
  }

  const std::string turn_id = new_uuid();
  turn.turn_id = turn_id;
  turn.session_id = session_id;
  turn.ai_id = dialogue->ai_id;
  if (!turn.generated_entry.value_or("").empty()) turn.memory_id = new_uuid();
  std::function<result<void>()> check = [&]() -> result<void> {
    auto now = existing(records.session(session_id), "session", session_id);
    if (!now) return std::move(now).err();
    if (now->end_at != 0) return make_error(errc::conflict, "session " + session_id + " is closed");
    return ok();
  };
  events::event_payload introspection_write = std::move(turn);
  auto written = co_await append_write(context, dialogue->dialog_id, std::move(introspection_write), std::move(check));
  if (!written) co_return refused(written.err());
  // Links to earlier memory entries are events of their own, each a fact of the log.
  for (const auto& memory_id : related) {
    std::function<result<void>()> always = [] { return ok(); };
    events::event_payload link = events::record_memory_link{turn_id, memory_id};
    auto linked = co_await append_write(context, dialogue->dialog_id, std::move(link), std::move(always));
    if (!linked) co_return error_response(linked.err());
  }
  records_filter of_session;
  of_session.session_id = session_id;
  of_session.sort_by = "started_at";
  of_session.limit = 500;
  auto turns = records.introspections(of_session);
  if (!turns) co_return error_response(turns.err());
  for (const auto& turn : turns->items) {
    if (turn.id == turn_id) co_return json_response(201, {{"introspection_turn", introspection_json(turn)}});
  }
  co_return error_response(500, "internal", "introspection turn " + turn_id + " was not recorded");
}

handler_result post_memory_link(server_context& context, const rest_request& request, std::string turn_id) {
  rest_response failure;
  const auto body = parse_body_object(request.body, false, failure);
  if (!body) co_return failure;
  static constexpr std::array<std::string_view, 1> kFields{"memory_id"};
  if (auto known = only_fields(*body, kFields); !known) co_return field_error(known.err());
  auto memory_id = required_text(*body, "memory_id");
  if (!memory_id) co_return field_error(memory_id.err());
  if (context.log.records() == nullptr) co_return no_records();
  auto& records = *context.log.records();
  auto turn = existing(records.turn(turn_id), "turn", turn_id);
  if (!turn) co_return error_response(turn.err());
  // The turn's visibility first: for another user's turn, nothing is said about the memory.
  auto dialogue = visible_dialogue_of(context, request, records, turn->dialogue_id, "turn", turn->id);
  if (!dialogue) co_return error_response(dialogue.err());
  auto memory = existing(records.memory_entry(*memory_id), "memory entry", *memory_id);
  if (memory && !may_see_dialogue(context, request, memory->dialogue_id)) {
    memory = make_error(errc::not_found, "no memory entry with id '" + *memory_id + "'");
  }
  if (!memory) co_return error_response(memory.err());
  std::function<result<void>()> always = [] { return ok(); };
  events::event_payload link = events::record_memory_link{turn_id, *memory_id};
  auto written = co_await append_write(context, dialogue->dialog_id, std::move(link), std::move(always));
  if (!written) co_return refused(written.err());
  auto links = records.memory_links(turn_id);
  if (!links) co_return error_response(links.err());
  boost::json::array list;
  for (const auto& link : *links) list.push_back(memory_link_json(link));
  co_return json_response(201, {{"memory_links", std::move(list)}});
}

}  // namespace parley::server::rest

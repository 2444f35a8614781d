// Seed 002's write routes over the conversation records (docs/records.md "Writing records"):
// sessions, turns and messages, each an event in the log of the dialog the dialogue records.
// Bodies are read into typed requests (records_requests.hpp) before anything else; the seed's rules
// — a message belongs to an open turn, a turn to the current session, a turn never spans two
// sessions — are model/records_write_rules.hpp, asked under the dialog's lock against the records
// as they are, so a refused write leaves nothing behind. Each route answers Parley's shape (the
// row) and the seed's own fields beside it (`message_id`, `created_at`; `turn_id`, `status`).
#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>

#include <functional>
#include <variant>

#include "parley/core/ids.hpp"
#include "parley/core/time.hpp"
#include "parley/model/records_write_rules.hpp"
#include "parley/server/records_json.hpp"
#include "parley/server/records_requests.hpp"
#include "parley/server/records_write_support.hpp"
#include "parley/server/rest_handlers.hpp"
#include "parley/server/rest_support.hpp"
#include "parley/server/store_reads.hpp"

namespace parley::server::rest {
namespace {

using records_rules::open_turn;

result<void> turn_is_open(records_query& records, std::string_view turn_id) {
  auto turn = existing(records.turn(turn_id), "turn", turn_id);
  if (!turn) return std::move(turn).err();
  auto dialogue = existing(records.dialogue(turn->dialogue_id), "dialogue", turn->dialogue_id);
  if (!dialogue) return std::move(dialogue).err();
  auto pending = pending_in(records, dialogue->dialog_id);
  if (!pending) return std::move(pending).err();
  return records_rules::may_write_to_turn(*turn, *pending, now_ms());
}

// A self-reflection session's own fields; empty for a dialogue session. `triggered_by` (the seed's)
// gives the trigger when `trigger_source` is not sent.
events::record_session_opened session_event(const open_session_request& body, std::string session_id) {
  events::record_session_opened opened;
  opened.session_id = std::move(session_id);
  opened.session_type = events::to_wire(records_rules::session_type_of(body.session_type));
  opened.description = body.description;
  opened.created_by = events::to_wire(body.created_by.value_or(
      body.triggered_by ? records_rules::created_by_of(*body.triggered_by) : events::record_role::human));
  opened.metadata = body.metadata;
  if (body.triggered_by) opened.metadata["triggered_by"] = events::to_wire(*body.triggered_by);
  if (body.self_reflection()) {
    opened.trigger_source = std::string(events::to_wire(body.trigger_source.value_or(
        body.triggered_by ? records_rules::trigger_source_of(*body.triggered_by) : events::trigger_source::api)));
    opened.goal = body.goal.value_or("");
    opened.ai_mood_state = body.ai_mood_state.value_or("");
  }
  return opened;
}

}  // namespace

handler_result post_session(server_context& context, const rest_request& request, std::string /*id*/) {
  rest_response failure;
  const auto body = read_body<open_session_request>(request, false, failure);
  if (!body) co_return failure;
  if (context.log.records() == nullptr) co_return no_records();
  auto& records = *context.log.records();
  auto find = [&] {
    return visible_dialogue_of(context, request, records, body->dialogue_id, "dialogue", body->dialogue_id);
  };
  auto dialogue = co_await read_store(context, std::move(find));
  if (!dialogue) co_return error_response(dialogue.err());

  const std::string session_id = new_uuid();
  std::function<result<void>()> check = [&]() -> result<void> {
    auto pending = pending_in(records, dialogue->dialog_id);
    if (!pending) return std::move(pending).err();
    return records_rules::may_open_session(*pending);
  };
  events::event_payload opened = session_event(*body, session_id);
  auto written = co_await append_write(context, dialogue->dialog_id, std::move(opened), std::move(check));
  if (!written) co_return refused(written.err());
  auto read_back = [&] { return existing(records.session(session_id), "session", session_id); };
  auto session = co_await read_store(context, std::move(read_back));
  if (!session) co_return error_response(session.err());
  co_return json_response(201, {{"session", session_json(*session)}, {"session_id", session_id}});
}

handler_result close_session(server_context& context, const rest_request& request, std::string id) {
  rest_response failure;
  const auto body = read_body<close_session_request>(request, true, failure);
  if (!body) co_return failure;
  if (context.log.records() == nullptr) co_return no_records();
  auto& records = *context.log.records();
  auto find = [&]() -> result<record_dialogue> {
    auto session = existing(records.session(id), "session", id);
    if (!session) return std::move(session).err();
    return visible_dialogue_of(context, request, records, session->dialogue_id, "session", session->id);
  };
  auto dialogue = co_await read_store(context, std::move(find));
  if (!dialogue) co_return error_response(dialogue.err());

  // The event's reason is "" when none was given: its wire default, so it stays a string.
  events::event_payload closing = events::record_session_closed{
      id, body->summary, body->reason ? std::string(events::to_wire(*body->reason)) : std::string()};
  std::function<result<void>()> check = [&]() -> result<void> {
    auto now = existing(records.session(id), "session", id);
    if (!now) return std::move(now).err();
    auto pending = pending_in(records, dialogue->dialog_id);
    if (!pending) return std::move(pending).err();
    return records_rules::may_close_session(*now, *pending);
  };
  auto written = co_await append_write(context, dialogue->dialog_id, std::move(closing), std::move(check));
  if (!written) co_return refused(written.err());
  auto read_back = [&] { return existing(records.session(id), "session", id); };
  auto closed = co_await read_store(context, std::move(read_back));
  if (!closed) co_return error_response(closed.err());
  co_return json_response(200, {{"session", session_json(*closed)}});
}

handler_result post_turn(server_context& context, const rest_request& request, std::string /*id*/) {
  rest_response failure;
  const auto body = read_body<open_turn_request>(request, false, failure);
  if (!body) co_return failure;
  if (context.log.records() == nullptr) co_return no_records();
  auto& records = *context.log.records();
  auto find = [&]() -> result<record_dialogue> {
    auto session = existing(records.session(body->session_id), "session", body->session_id);
    if (!session) return std::move(session).err();
    return visible_dialogue_of(context, request, records, session->dialogue_id, "session", session->id);
  };
  auto dialogue = co_await read_store(context, std::move(find));
  if (!dialogue) co_return error_response(dialogue.err());

  const std::string turn_id = new_uuid();
  // The seed's expected_window_minutes is the turn's own response window (checked by the
  // request reader: a whole number of minutes, 1 to 30 days); absent, the dialogue's.
  events::event_payload opened =
      events::record_turn_opened{turn_id, body->session_id, std::string(events::to_wire(body->opened_by())),
                                 std::string(events::to_wire(body->waits_for())), body->window_ms()};
  std::function<result<void>()> check = [&]() -> result<void> {
    auto now = existing(records.session(body->session_id), "session", body->session_id);
    if (!now) return std::move(now).err();
    auto pending = pending_in(records, dialogue->dialog_id);
    if (!pending) return std::move(pending).err();
    return records_rules::may_open_turn(*now, *pending);
  };
  auto written = co_await append_write(context, dialogue->dialog_id, std::move(opened), std::move(check));
  if (!written) co_return refused(written.err());
  auto read_back = [&] { return existing(records.turn(turn_id), "turn", turn_id); };
  auto turn = co_await read_store(context, std::move(read_back));
  if (!turn) co_return error_response(turn.err());
  co_return json_response(
      201, {{"turn", turn_json(*turn)}, {"turn_id", turn_id}, {"status", records_rules::seed_turn_status(*turn)}});
}

handler_result close_turn(server_context& context, const rest_request& request, std::string id) {
  rest_response failure;
  const auto body = read_body<close_turn_request>(request, true, failure);
  if (!body) co_return failure;
  if (context.log.records() == nullptr) co_return no_records();
  auto& records = *context.log.records();
  auto find = [&]() -> result<record_dialogue> {
    auto turn = existing(records.turn(id), "turn", id);
    if (!turn) return std::move(turn).err();
    return visible_dialogue_of(context, request, records, turn->dialogue_id, "turn", turn->id);
  };
  auto dialogue = co_await read_store(context, std::move(find));
  if (!dialogue) co_return error_response(dialogue.err());

  // The event's outcome is the seed's word only when it is not the status itself (expired, ignored),
  // and its closedBy "" when none was given: both wire defaults, so both stay strings.
  const events::turn_status status = records_rules::turn_status_of(body->status);
  const std::string_view word = events::to_wire(body->status);
  events::event_payload closing = events::record_turn_closed{
      id, std::string(events::to_wire(status)), word == events::to_wire(status) ? "" : std::string(word),
      body->closed_by ? std::string(events::to_wire(*body->closed_by)) : std::string()};
  std::function<result<void>()> check = [&] { return turn_is_open(records, id); };
  auto written = co_await append_write(context, dialogue->dialog_id, std::move(closing), std::move(check));
  if (!written) co_return refused(written.err());
  auto read_back = [&] { return existing(records.turn(id), "turn", id); };
  auto closed = co_await read_store(context, std::move(read_back));
  if (!closed) co_return error_response(closed.err());
  co_return json_response(
      200, {{"turn", turn_json(*closed)}, {"turn_id", id}, {"status", records_rules::seed_turn_status(*closed)}});
}

namespace {

// The turn a message joins: the one it names, else (seed 002's shape) the open turn of the session
// or dialogue it names. Names that disagree with each other are refused, naming the field.
result<record_turn> turn_of_message(server_context& context, const rest_request& request, records_query& records,
                                    const record_message_request& body) {
  std::optional<record_dialogue> named_dialogue;
  if (!body.dialogue_id.empty()) {
    auto dialogue = visible_dialogue_of(context, request, records, body.dialogue_id, "dialogue", body.dialogue_id);
    if (!dialogue) return std::move(dialogue).err();
    named_dialogue = std::move(*dialogue);
  }
  std::optional<record_session> named_session;
  if (!body.session_id.empty()) {
    auto session = existing(records.session(body.session_id), "session", body.session_id);
    if (session && !may_see_dialogue(context, request, session->dialogue_id)) {
      session = make_error(errc::not_found, "no session with id '" + body.session_id + "'");
    }
    if (!session) return std::move(session).err();
    if (named_dialogue && session->dialogue_id != named_dialogue->id) {
      return field_problem("session_id", "session " + body.session_id + " is not in dialogue " + body.dialogue_id);
    }
    named_session = std::move(*session);
  }
  std::string turn_id = body.turn_id;
  if (turn_id.empty()) {
    const std::string dialogue_id = named_session ? named_session->dialogue_id : named_dialogue->id;
    auto dialogue = existing(records.dialogue(dialogue_id), "dialogue", dialogue_id);
    if (!dialogue) return std::move(dialogue).err();
    auto pending = pending_in(records, dialogue->dialog_id);
    if (!pending) return std::move(pending).err();
    if (!*pending) {
      return make_error(errc::conflict,
                        "dialogue " + dialogue->id + " has no open turn; open one with POST /api/turns");
    }
    turn_id = (*pending)->turn_id;
  }
  auto turn = existing(records.turn(turn_id), "turn", turn_id);
  if (!turn) return std::move(turn).err();
  if (named_session && turn->session_id != named_session->id) {
    return field_problem("session_id", "turn " + turn_id + " is in session " + turn->session_id);
  }
  if (named_dialogue && turn->dialogue_id != named_dialogue->id) {
    return field_problem("dialogue_id", "turn " + turn_id + " is in another dialogue");
  }
  return turn;
}

events::record_message message_event(record_message_request body, std::string message_id, std::string turn_id) {
  events::record_message out;
  out.message_id = std::move(message_id);
  out.turn_id = std::move(turn_id);
  out.sender_role = events::to_wire(body.sender_role);
  out.sender_id = std::move(body.sender_id);
  out.content = std::move(body.content);
  out.content_type = events::to_wire(body.content_type);
  out.metadata = std::move(body.metadata);
  out.reply_to = std::move(body.reply_to);
  out.target = events::to_wire(body.target.value_or(events::utterance_target::all));
  out.notes = body.notes.value_or("");
  if (body.content_meta && !body.content_meta->empty()) out.content_meta = std::move(body.content_meta);
  return out;
}

}  // namespace

handler_result post_record_message(server_context& context, const rest_request& request, std::string /*id*/) {
  rest_response failure;
  auto body = read_body<record_message_request>(request, false, failure);
  if (!body) co_return failure;
  if (context.log.records() == nullptr) co_return no_records();
  auto& records = *context.log.records();
  // What the message joins, read before anything is appended; a refusal is the response.
  struct joined {
    record_turn turn;
    record_dialogue dialogue;
  };
  auto find = [&]() -> std::variant<joined, rest_response> {
    auto turn = turn_of_message(context, request, records, *body);
    if (!turn) return refused(turn.err());
    auto dialogue = visible_dialogue_of(context, request, records, turn->dialogue_id, "turn", turn->id);
    if (!dialogue) return error_response(dialogue.err());
    if (!body->reply_to.empty()) {
      auto quoted = existing(records.message(body->reply_to), "message", body->reply_to);
      if (!quoted) return error_response(400, "bad_field", "reply_to: " + quoted.err().message);
      if (quoted->dialogue_id != dialogue->id) {
        return error_response(400, "bad_field", "reply_to: message " + body->reply_to + " is in another dialogue");
      }
    }
    return joined{std::move(*turn), std::move(*dialogue)};
  };
  auto found = co_await read_store(context, std::move(find));
  if (auto* refusal = std::get_if<rest_response>(&found)) co_return std::move(*refusal);
  const auto& [turn, dialogue] = std::get<joined>(found);

  const std::string message_id = new_uuid();
  const std::string turn_id = turn.id;
  std::function<result<void>()> check = [&] { return turn_is_open(records, turn_id); };
  events::event_payload write = message_event(std::move(*body), message_id, turn_id);
  auto written = co_await append_write(context, dialogue.dialog_id, std::move(write), std::move(check));
  if (!written) co_return refused(written.err());
  auto read_back = [&] { return existing(records.message(message_id), "message", message_id); };
  auto message = co_await read_store(context, std::move(read_back));
  if (!message) co_return error_response(message.err());
  auto shown = record_message_json(*message);
  auto created_at = shown.at("created_at");
  co_return json_response(
      201, {{"message", std::move(shown)}, {"message_id", message_id}, {"created_at", std::move(created_at)}});
}

}  // namespace parley::server::rest

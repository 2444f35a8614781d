// Seed 002's self-reflection writes (docs/records.md "Writing records"): an introspection turn of an
// open self-reflection session, the memory entry it produces, and links from a turn to memory
// entries. Bodies are typed requests (records_requests.hpp); the session rule is
// model/records_write_rules.hpp, asked under the dialog's lock.
#include <boost/asio/awaitable.hpp>
#include <boost/json/array.hpp>

#include <functional>
#include <variant>

#include "parley/core/ids.hpp"
#include "parley/model/records_write_rules.hpp"
#include "parley/server/records_json.hpp"
#include "parley/server/records_requests.hpp"
#include "parley/server/records_write_support.hpp"
#include "parley/server/rest_handlers.hpp"
#include "parley/server/rest_support.hpp"
#include "parley/server/store_reads.hpp"

namespace parley::server::rest {
namespace {

// A memory entry the asker may see; another user's answers like an unknown one.
result<record_memory_entry> visible_memory(server_context& context, const rest_request& request, records_query& records,
                                           const std::string& id) {
  auto memory = existing(records.memory_entry(id), "memory entry", id);
  if (memory && !may_see_dialogue(context, request, memory->dialogue_id)) {
    return make_error(errc::not_found, "no memory entry with id '" + id + "'");
  }
  return memory;
}

// The log keeps every text of a REST introspection (empty when not sent), as it always did.
events::record_introspection introspection_event(const introspection_request& body) {
  events::record_introspection turn;
  turn.purpose = body.purpose;
  turn.input_context = body.input_context.value_or("");
  turn.tool_used = body.tool_used.value_or("");
  turn.tool_input = body.tool_input.value_or("");
  turn.tool_output = body.tool_output.value_or("");
  turn.generated_entry = body.generated_entry.value_or("");
  turn.mood_shift = body.mood_shift.value_or("");
  turn.value_impact = body.value_impact.value_or("");
  turn.duration_ms = body.duration_ms;
  turn.started_at = body.started_at;
  return turn;
}

}  // namespace

handler_result post_introspection(server_context& context, const rest_request& request, std::string session_id) {
  rest_response failure;
  const auto body = read_body<introspection_request>(request, false, failure);
  if (!body) co_return failure;
  if (context.log.records() == nullptr) co_return no_records();
  auto& records = *context.log.records();
  // The session's dialogue, read before anything is appended; a refusal is the response.
  auto find = [&]() -> std::variant<record_dialogue, rest_response> {
    auto session = existing(records.session(session_id), "session", session_id);
    if (!session) return error_response(session.err());
    // Whether the asker may see the session comes first: another user's session answers exactly
    // like an unknown one, never with a conflict that would tell it exists.
    auto dialogue = visible_dialogue_of(context, request, records, session->dialogue_id, "session", session->id);
    if (!dialogue) return error_response(dialogue.err());
    if (session->session_type != events::session_type::self_reflection) {
      return error_response(records_rules::may_record_introspection(*session).err());
    }
    for (const auto& id : body->related_memory_ids) {
      auto memory = visible_memory(context, request, records, id);
      if (!memory) return error_response(400, "bad_field", "related_memory_ids: " + memory.err().message);
    }
    return std::move(*dialogue);
  };
  auto found = co_await read_store(context, std::move(find));
  if (auto* refusal = std::get_if<rest_response>(&found)) co_return std::move(*refusal);
  const auto& dialogue = std::get<record_dialogue>(found);

  const std::string turn_id = new_uuid();
  auto turn = introspection_event(*body);
  turn.turn_id = turn_id;
  turn.session_id = session_id;
  turn.ai_id = dialogue.ai_id;
  if (!turn.generated_entry.value_or("").empty()) turn.memory_id = new_uuid();
  std::function<result<void>()> check = [&]() -> result<void> {
    auto now = existing(records.session(session_id), "session", session_id);
    if (!now) return std::move(now).err();
    return records_rules::may_record_introspection(*now);
  };
  events::event_payload recorded = std::move(turn);
  auto written = co_await append_write(context, dialogue.dialog_id, std::move(recorded), std::move(check));
  if (!written) co_return refused(written.err());
  // Links to earlier memory entries are events of their own, each a fact of the log.
  for (const auto& memory_id : body->related_memory_ids) {
    std::function<result<void>()> always = [] { return ok(); };
    events::event_payload link = events::record_memory_link{turn_id, memory_id};
    auto linked = co_await append_write(context, dialogue.dialog_id, std::move(link), std::move(always));
    if (!linked) co_return error_response(linked.err());
  }
  auto read_back = [&]() -> rest_response {
    records_filter of_session;
    of_session.session_id = session_id;
    of_session.sort_by = "started_at";
    of_session.limit = 500;
    auto turns = records.introspections(of_session);
    if (!turns) return error_response(turns.err());
    for (const auto& listed : turns->items) {
      if (listed.id == turn_id) return json_response(201, {{"introspection_turn", introspection_json(listed)}});
    }
    return error_response(500, "internal", "introspection turn " + turn_id + " was not recorded");
  };
  co_return co_await read_reply(context, std::move(read_back));
}

handler_result post_memory_link(server_context& context, const rest_request& request, std::string turn_id) {
  rest_response failure;
  const auto body = read_body<memory_link_request>(request, false, failure);
  if (!body) co_return failure;
  if (context.log.records() == nullptr) co_return no_records();
  auto& records = *context.log.records();
  auto find = [&]() -> result<record_dialogue> {
    auto turn = existing(records.turn(turn_id), "turn", turn_id);
    if (!turn) return std::move(turn).err();
    // The turn's visibility first: for another user's turn, nothing is said about the memory.
    auto dialogue = visible_dialogue_of(context, request, records, turn->dialogue_id, "turn", turn->id);
    if (!dialogue) return dialogue;
    auto memory = visible_memory(context, request, records, body->memory_id);
    if (!memory) return std::move(memory).err();
    return dialogue;
  };
  auto dialogue = co_await read_store(context, std::move(find));
  if (!dialogue) co_return error_response(dialogue.err());
  std::function<result<void>()> always = [] { return ok(); };
  events::event_payload link = events::record_memory_link{turn_id, body->memory_id};
  auto written = co_await append_write(context, dialogue->dialog_id, std::move(link), std::move(always));
  if (!written) co_return refused(written.err());
  auto read_back = [&records, &turn_id] { return records.memory_links(turn_id); };
  auto links = co_await read_store(context, std::move(read_back));
  if (!links) co_return error_response(links.err());
  boost::json::array list;
  for (const auto& stored : *links) list.push_back(memory_link_json(stored));
  co_return json_response(201, {{"memory_links", std::move(list)}});
}

}  // namespace parley::server::rest

// Seed 002's read routes over the conversation records (docs/records.md): dialogues, sessions,
// turns, messages, full-text search. Read-only; every id is checked and every parameter parsed
// before the store is asked.
#include <boost/json/array.hpp>

#include "parley/server/records_json.hpp"
#include "parley/server/records_params.hpp"
#include "parley/server/rest_handlers.hpp"
#include "parley/server/rest_support.hpp"

namespace parley::server::rest {
namespace {

const records_params_spec kSessionParams{{"since", "until", "type", "sort_by"}, {"start_at", "end_at"}};
const records_params_spec kTurnParams{{"since", "until", "status", "sort_by"},
                                      {"started_at", "closed_at", "response_time"}};
const records_params_spec kUnrespondedParams{{"since", "until", "sort_by"}, {"started_at", "closed_at"}};
const records_params_spec kMessageParams{{"since", "until", "role", "content_type", "sort_by"}, {"created_at"}};
const records_params_spec kSearchParams{{"q", "dialogue_id", "since", "until", "role", "content_type", "sort_by"},
                                        {"created_at"}};
const records_params_spec kNoParams{{}, {}};

result<records_query*> records_of(server_context& context) {
  auto* records = context.log.records();
  if (records == nullptr) return make_error(errc::internal, "this store keeps no conversation records");
  return records;
}

template <class Row>
result<Row> found_or_404(result<std::optional<Row>> row, std::string_view what, std::string_view id) {
  if (!row) return std::move(row).err();
  if (!*row) return make_error(errc::not_found, "no " + std::string(what) + " with id '" + std::string(id) + "'");
  return std::move(**row);
}

// Query errors name a parameter (400 bad_field); store errors map by their code.
rest_response params_error(const error& err) { return field_error(err); }

template <class Row, class ToJson>
rest_response page_response(const char* key, const records_page<Row>& page, ToJson to_json) {
  boost::json::array items;
  for (const auto& row : page.items) items.push_back(to_json(row));
  return json_response(200, {{key, std::move(items)}, {"total", page.total}});
}

// The dialogue named by the path, after checking the route's parameters.
result<record_dialogue> dialogue_at(server_context& context, const std::string& id) {
  auto records = records_of(context);
  if (!records) return std::move(records).err();
  return found_or_404((*records)->dialogue(id), "dialogue", id);
}

}  // namespace

handler_result get_dialogue(server_context& context, const rest_request& request, std::string id) {
  if (auto params = parse_records_params(request, kNoParams); !params) co_return params_error(params.err());
  auto dialogue = dialogue_at(context, id);
  if (!dialogue) co_return error_response(dialogue.err());
  co_return json_response(200, {{"dialogue", dialogue_json(*dialogue)}});
}

handler_result list_dialogue_sessions(server_context& context, const rest_request& request, std::string id) {
  auto filter = parse_records_params(request, kSessionParams);
  if (!filter) co_return params_error(filter.err());
  auto dialogue = dialogue_at(context, id);
  if (!dialogue) co_return error_response(dialogue.err());
  filter->dialogue_id = dialogue->id;
  auto page = context.log.records()->sessions(*filter);
  if (!page) co_return error_response(page.err());
  co_return page_response("sessions", *page, session_json);
}

handler_result get_latest_session(server_context& context, const rest_request& request, std::string id) {
  if (auto params = parse_records_params(request, kNoParams); !params) co_return params_error(params.err());
  auto dialogue = dialogue_at(context, id);
  if (!dialogue) co_return error_response(dialogue.err());
  records_filter filter;
  filter.dialogue_id = dialogue->id;
  filter.sort_by = "start_at";
  filter.descending = true;
  filter.limit = 1;
  auto page = context.log.records()->sessions(filter);
  if (!page) co_return error_response(page.err());
  if (page->items.empty()) co_return error_response(404, "not_found", "dialogue '" + id + "' has no session yet");
  co_return json_response(200, {{"session", session_json(page->items.front())}});
}

handler_result list_unresponded_turns(server_context& context, const rest_request& request, std::string id) {
  auto filter = parse_records_params(request, kUnrespondedParams);
  if (!filter) co_return params_error(filter.err());
  auto dialogue = dialogue_at(context, id);
  if (!dialogue) co_return error_response(dialogue.err());
  filter->dialogue_id = dialogue->id;
  filter->status = "unresponded";
  auto page = context.log.records()->turns(*filter);
  if (!page) co_return error_response(page.err());
  co_return page_response("turns", *page, turn_json);
}

handler_result get_session(server_context& context, const rest_request& request, std::string id) {
  if (auto params = parse_records_params(request, kNoParams); !params) co_return params_error(params.err());
  auto records = records_of(context);
  if (!records) co_return error_response(records.err());
  auto session = found_or_404((*records)->session(id), "session", id);
  if (!session) co_return error_response(session.err());
  co_return json_response(200, {{"session", session_json(*session)}});
}

handler_result list_session_turns(server_context& context, const rest_request& request, std::string id) {
  auto filter = parse_records_params(request, kTurnParams);
  if (!filter) co_return params_error(filter.err());
  auto records = records_of(context);
  if (!records) co_return error_response(records.err());
  auto session = found_or_404((*records)->session(id), "session", id);
  if (!session) co_return error_response(session.err());
  filter->session_id = session->id;
  auto page = (*records)->turns(*filter);
  if (!page) co_return error_response(page.err());
  co_return page_response("turns", *page, turn_json);
}

handler_result get_turn(server_context& context, const rest_request& request, std::string id) {
  if (auto params = parse_records_params(request, kNoParams); !params) co_return params_error(params.err());
  auto records = records_of(context);
  if (!records) co_return error_response(records.err());
  auto turn = found_or_404((*records)->turn(id), "turn", id);
  if (!turn) co_return error_response(turn.err());
  co_return json_response(200, {{"turn", turn_json(*turn)}});
}

handler_result list_turn_messages(server_context& context, const rest_request& request, std::string id) {
  auto filter = parse_records_params(request, kMessageParams);
  if (!filter) co_return params_error(filter.err());
  auto records = records_of(context);
  if (!records) co_return error_response(records.err());
  auto turn = found_or_404((*records)->turn(id), "turn", id);
  if (!turn) co_return error_response(turn.err());
  filter->turn_id = turn->id;
  auto page = (*records)->messages(*filter);
  if (!page) co_return error_response(page.err());
  co_return page_response("messages", *page, record_message_json);
}

handler_result get_record_message(server_context& context, const rest_request& request, std::string id) {
  if (auto params = parse_records_params(request, kNoParams); !params) co_return params_error(params.err());
  auto records = records_of(context);
  if (!records) co_return error_response(records.err());
  auto message = found_or_404((*records)->message(id), "message", id);
  if (!message) co_return error_response(message.err());
  co_return json_response(200, {{"message", record_message_json(*message)}});
}

handler_result search_messages(server_context& context, const rest_request& request, std::string /*id*/) {
  auto filter = parse_records_params(request, kSearchParams);
  if (!filter) co_return params_error(filter.err());
  const auto q = request.query.find("q");
  auto match = fts_match_of(q == request.query.end() ? std::string_view{} : std::string_view(q->second));
  if (!match) co_return params_error(match.err());
  auto records = records_of(context);
  if (!records) co_return error_response(records.err());
  if (const auto scope = request.query.find("dialogue_id"); scope != request.query.end()) {
    auto dialogue = found_or_404((*records)->dialogue(scope->second), "dialogue", scope->second);
    if (!dialogue) co_return error_response(dialogue.err());
    filter->dialogue_id = dialogue->id;
  }
  auto page = (*records)->search(*match, *filter);
  if (!page) co_return error_response(page.err());
  co_return page_response("messages", *page, record_message_json);
}

}  // namespace parley::server::rest

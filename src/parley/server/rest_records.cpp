// Seed 002's read routes over the conversation records (docs/records.md): dialogues, sessions,
// turns, messages, full-text search. Read-only; every id is checked and every parameter parsed
// before the store is asked.
#include <boost/json/array.hpp>

#include <algorithm>

#include "parley/core/json.hpp"
#include "parley/server/records_json.hpp"
#include "parley/server/records_params.hpp"
#include "parley/server/records_views.hpp"
#include "parley/server/rest_handlers.hpp"
#include "parley/server/rest_support.hpp"

namespace parley::server::rest {
namespace {

const records_params_spec kSessionParams{{"since", "until", "type", "sort_by"}, {"start_at", "end_at"}};
const records_params_spec kTurnParams{{"since", "until", "status", "sort_by", "include"},
                                      {"started_at", "closed_at", "response_time"}};
const records_params_spec kUnrespondedParams{{"since", "until", "sort_by", "include"}, {"started_at", "closed_at"}};
const records_params_spec kAiSessionParams{{"since", "until", "type", "sort_by"}, {"start_at", "end_at"}};
const records_params_spec kIntrospectionParams{{"since", "until", "sort_by"}, {"started_at"}};
const records_params_spec kUtteranceParams{{"since", "until", "sort_by"}, {"timestamp"}};
const records_params_spec kViewParams{{"view"}, {}};
const records_params_spec kMessageParams{{"since", "until", "role", "content_type", "sort_by", "view"}, {"created_at"}};
const records_params_spec kSearchParams{{"q", "dialogue_id", "since", "until", "role", "content_type", "sort_by"},
                                        {"created_at"}};
const records_params_spec kNoParams{{}, {}};
const records_params_spec kHumanDialogueParams{{"since", "until", "sort_by"}, {"created_at", "last_activity_at"}};

// Lists that span dialogues show a user only the dialogues they take part in.
void only_visible(server_context& context, const rest_request& request, records_filter& filter) {
  if (!context.users.multi_user() || request.who == nullptr) return;
  filter.visible_to = request.who->id;
  filter.or_unowned = request.who->sees_unowned;
}

result<records_query*> records_of(server_context& context) {
  auto* records = context.log.records();
  if (records == nullptr) return make_error(errc::internal, "this store keeps no conversation records");
  return records;
}

// A record by id; another user's is answered like an unknown id.
template <class Row>
result<Row> found_or_404(server_context& context, const rest_request& request, result<std::optional<Row>> row,
                         std::string_view what, std::string_view id) {
  if (!row) return std::move(row).err();
  bool visible = row->has_value();
  if constexpr (std::is_same_v<Row, record_dialogue>) {
    visible = visible && may_see_dialog_id(context, request, (*row)->dialog_id);
  } else {
    visible = visible && may_see_dialogue(context, request, (*row)->dialogue_id);
  }
  if (!visible) return make_error(errc::not_found, "no " + std::string(what) + " with id '" + std::string(id) + "'");
  return std::move(**row);
}

// `?name=` of a route that takes it: empty when absent, else one of `allowed`.
result<std::string> choice_param(const rest_request& request, std::string_view name,
                                 std::initializer_list<std::string_view> allowed) {
  const auto found = request.query.find(name);
  if (found == request.query.end()) return std::string{};
  for (const auto value : allowed) {
    if (found->second == value) return found->second;
  }
  std::string expected;
  for (const auto value : allowed) expected += (expected.empty() ? "" : ", ") + std::string(value);
  return make_error(errc::invalid_argument,
                    std::string(name) + ": expected " + expected + ", got '" + found->second + "'");
}

// Query errors name a parameter (400 bad_field); store errors map by their code.
rest_response params_error(const error& err) { return field_error(err); }

template <class Row, class ToJson>
rest_response page_response(const char* key, const records_page<Row>& page, ToJson to_json) {
  boost::json::array items;
  for (const auto& row : page.items) items.push_back(to_json(row));
  return json_response(200, {{key, std::move(items)}, {"total", page.total}});
}

// A page of turns; with `include=messages` each turn carries its messages (log order).
rest_response turns_response(records_query& records, const rest_request& request,
                             const records_page<record_turn>& page) {
  auto include = choice_param(request, "include", {"messages"});
  if (!include) return field_error(include.err());
  boost::json::array items;
  for (const auto& turn : page.items) {
    auto item = turn_json(turn);
    if (!include->empty()) {
      records_filter of_turn;
      of_turn.turn_id = turn.id;
      of_turn.limit = 500;
      auto messages = records.messages(of_turn);
      if (!messages) return error_response(messages.err());
      boost::json::array list;
      for (const auto& m : messages->items) list.push_back(record_message_json(m));
      item["messages"] = std::move(list);
    }
    items.push_back(std::move(item));
  }
  return json_response(200, {{"turns", std::move(items)}, {"total", page.total}});
}

// The dialogue named by the path, after checking the route's parameters.
result<record_dialogue> dialogue_at(server_context& context, const rest_request& request, const std::string& id) {
  auto records = records_of(context);
  if (!records) return std::move(records).err();
  return found_or_404(context, request, (*records)->dialogue(id), "dialogue", id);
}

// GET of one row by id: `{key: row}`, 404 naming the id (the key with spaces: "memory entry").
template <class Row>
rest_response one_record(server_context& context, const rest_request& request, const std::string& id,
                         const std::string& key, result<std::optional<Row>> (records_query::*fetch)(std::string_view),
                         boost::json::object (*to_json)(const Row&)) {
  if (auto params = parse_records_params(request, kNoParams); !params) return params_error(params.err());
  auto records = records_of(context);
  if (!records) return error_response(records.err());
  std::string what = key;
  std::replace(what.begin(), what.end(), '_', ' ');
  auto row = found_or_404(context, request, ((*records)->*fetch)(id), what, id);
  if (!row) return error_response(row.err());
  return json_response(200, {{key, to_json(*row)}});
}

// The MultiModalInputParser's block of a message; a quoted reply brings the text it quotes.
context_block block_of(records_query& records, const record_message& m) {
  multimodal_input input{m.id, m.sender_role, m.content_type, m.content, {}, {}, m.created_at, {}, {}};
  if (auto meta = parse_json(m.content_meta); meta && meta->is_object()) input.content_meta = meta->get_object();
  if (auto meta = parse_json(m.metadata); meta && meta->is_object()) input.metadata = meta->get_object();
  if (const auto quoted_id = json_string_or(input.metadata, "reply_to"); !quoted_id.empty()) {
    if (auto quoted = records.message(quoted_id); quoted && *quoted) {
      input.quoted_text = (*quoted)->content;
      input.quoted_role = (*quoted)->sender_role;
    }
  }
  return parse_multimodal(input);
}

// What the DialogueTurn view is made of: the turn's messages and memory links, and the human's
// first message after the turn closed (their feedback on the answer).
result<dialogue_turn_input> dialogue_turn_of(records_query& records, const record_turn& turn) {
  dialogue_turn_input input;
  input.turn = turn;
  records_filter of_turn;
  of_turn.turn_id = turn.id;
  of_turn.limit = 500;
  auto messages = records.messages(of_turn);
  if (!messages) return std::move(messages).err();
  input.messages = std::move(messages->items);
  auto links = records.memory_links(turn.id);
  if (!links) return std::move(links).err();
  input.links = std::move(*links);
  if (turn.closed_at != 0) {
    records_filter after;
    after.dialogue_id = turn.dialogue_id;
    after.role = "human";
    after.since = turn.closed_at;
    after.limit = 2;
    auto next = records.messages(after);
    if (!next) return std::move(next).err();
    for (auto& m : next->items) {
      if (m.turn_id != turn.id) {
        input.human_feedback = std::move(m);
        break;
      }
    }
  }
  return input;
}

// The members whose AIs asked a subdialog's AI for its work: the one that made it and, for a Type
// B session a later caller took over, the current tellasker. Each dialog row names its member.
result<std::vector<std::string>> tellasker_members(store& log, const std::string& dialog_id) {
  std::vector<std::string> members;
  auto row = log.get_dialog(dialog_id);
  if (!row) return std::move(row).err();
  if (!*row) return members;
  for (const auto* caller : {&(*row)->parent_id, &(*row)->caller_id}) {
    if (caller->empty()) continue;
    auto asking = log.get_dialog(*caller);
    if (!asking) return std::move(asking).err();
    if (!*asking || (*asking)->member_id.empty()) continue;
    if (std::find(members.begin(), members.end(), (*asking)->member_id) == members.end()) {
      members.push_back((*asking)->member_id);
    }
  }
  return members;
}

}  // namespace

handler_result get_dialogue(server_context& context, const rest_request& request, std::string id) {
  if (auto params = parse_records_params(request, kViewParams); !params) co_return params_error(params.err());
  auto view = choice_param(request, "view", {"conversation_thread"});
  if (!view) co_return params_error(view.err());
  auto dialogue = dialogue_at(context, request, id);
  if (!dialogue) co_return error_response(dialogue.err());
  if (view->empty()) co_return json_response(200, {{"dialogue", dialogue_json(*dialogue)}});
  auto& records = *context.log.records();
  records_filter all;
  all.dialogue_id = dialogue->id;
  all.limit = 500;
  auto turns = records.turns(all);
  if (!turns) co_return error_response(turns.err());
  auto memories = records.linked_memories(dialogue->id);
  if (!memories) co_return error_response(memories.err());
  auto prompts = read_logged_prompts(context.log, dialogue->dialog_id);
  if (!prompts) co_return error_response(prompts.err());
  conversation_thread_input input{*dialogue, std::move(turns->items), std::move(*memories), std::move(*prompts), {}};
  if (dialogue->dialogue_type == "ai_ai") {
    auto tellaskers = tellasker_members(context.log, dialogue->dialog_id);
    if (!tellaskers) co_return error_response(tellaskers.err());
    input.other_ais = std::move(*tellaskers);
  }
  co_return json_response(200, {{"conversation_thread", conversation_thread_view(input)}});
}

handler_result list_dialogue_sessions(server_context& context, const rest_request& request, std::string id) {
  auto filter = parse_records_params(request, kSessionParams);
  if (!filter) co_return params_error(filter.err());
  auto dialogue = dialogue_at(context, request, id);
  if (!dialogue) co_return error_response(dialogue.err());
  filter->dialogue_id = dialogue->id;
  auto page = context.log.records()->sessions(*filter);
  if (!page) co_return error_response(page.err());
  co_return page_response("sessions", *page, session_json);
}

handler_result get_latest_session(server_context& context, const rest_request& request, std::string id) {
  if (auto params = parse_records_params(request, kNoParams); !params) co_return params_error(params.err());
  auto dialogue = dialogue_at(context, request, id);
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
  auto dialogue = dialogue_at(context, request, id);
  if (!dialogue) co_return error_response(dialogue.err());
  filter->dialogue_id = dialogue->id;
  filter->status = "unresponded";
  auto page = context.log.records()->turns(*filter);
  if (!page) co_return error_response(page.err());
  co_return turns_response(*context.log.records(), request, *page);
}

handler_result get_session(server_context& context, const rest_request& request, std::string id) {
  co_return one_record(context, request, id, "session", &records_query::session, session_json);
}

handler_result list_session_turns(server_context& context, const rest_request& request, std::string id) {
  auto filter = parse_records_params(request, kTurnParams);
  if (!filter) co_return params_error(filter.err());
  auto records = records_of(context);
  if (!records) co_return error_response(records.err());
  auto session = found_or_404(context, request, (*records)->session(id), "session", id);
  if (!session) co_return error_response(session.err());
  filter->session_id = session->id;
  auto page = (*records)->turns(*filter);
  if (!page) co_return error_response(page.err());
  co_return turns_response(**records, request, *page);
}

handler_result get_turn(server_context& context, const rest_request& request, std::string id) {
  if (auto params = parse_records_params(request, kViewParams); !params) co_return params_error(params.err());
  auto view = choice_param(request, "view", {"dialogue_turn"});
  if (!view) co_return params_error(view.err());
  auto records = records_of(context);
  if (!records) co_return error_response(records.err());
  auto turn = found_or_404(context, request, (*records)->turn(id), "turn", id);
  if (!turn) co_return error_response(turn.err());
  if (view->empty()) co_return json_response(200, {{"turn", turn_json(*turn)}});
  auto input = dialogue_turn_of(**records, *turn);
  if (!input) co_return error_response(input.err());
  co_return json_response(200, {{"dialogue_turn", dialogue_turn_view(*input)}});
}

handler_result list_ai_sessions(server_context& context, const rest_request& request, std::string id) {
  auto filter = parse_records_params(request, kAiSessionParams);
  if (!filter) co_return params_error(filter.err());
  auto records = records_of(context);
  if (!records) co_return error_response(records.err());
  if (context.engine.team().find_member(id) == nullptr) {
    co_return error_response(404, "not_found", "no member with id '" + id + "' in the team");
  }
  filter->ai_id = id;
  only_visible(context, request, *filter);
  auto page = (*records)->sessions(*filter);
  if (!page) co_return error_response(page.err());
  co_return page_response("sessions", *page, session_json);
}

handler_result list_introspections(server_context& context, const rest_request& request, std::string id) {
  auto filter = parse_records_params(request, kIntrospectionParams);
  if (!filter) co_return params_error(filter.err());
  auto records = records_of(context);
  if (!records) co_return error_response(records.err());
  auto session = found_or_404(context, request, (*records)->session(id), "session", id);
  if (!session) co_return error_response(session.err());
  filter->session_id = session->id;
  auto page = (*records)->introspections(*filter);
  if (!page) co_return error_response(page.err());
  co_return page_response("introspection_turns", *page, introspection_json);
}

handler_result list_system_utterances(server_context& context, const rest_request& request, std::string id) {
  auto filter = parse_records_params(request, kUtteranceParams);
  if (!filter) co_return params_error(filter.err());
  auto dialogue = dialogue_at(context, request, id);
  if (!dialogue) co_return error_response(dialogue.err());
  filter->dialogue_id = dialogue->id;
  auto page = context.log.records()->system_utterances(*filter);
  if (!page) co_return error_response(page.err());
  co_return page_response("system_utterances", *page, system_utterance_json);
}

handler_result get_memory_entry(server_context& context, const rest_request& request, std::string id) {
  co_return one_record(context, request, id, "memory_entry", &records_query::memory_entry, memory_entry_json);
}

handler_result list_turn_messages(server_context& context, const rest_request& request, std::string id) {
  auto filter = parse_records_params(request, kMessageParams);
  if (!filter) co_return params_error(filter.err());
  auto records = records_of(context);
  if (!records) co_return error_response(records.err());
  auto turn = found_or_404(context, request, (*records)->turn(id), "turn", id);
  if (!turn) co_return error_response(turn.err());
  auto view = choice_param(request, "view", {"context_block"});
  if (!view) co_return params_error(view.err());
  filter->turn_id = turn->id;
  auto page = (*records)->messages(*filter);
  if (!page) co_return error_response(page.err());
  if (view->empty()) co_return page_response("messages", *page, record_message_json);
  boost::json::array blocks;
  for (const auto& m : page->items) blocks.push_back(context_block_json(block_of(**records, m)));
  co_return json_response(200, {{"context_blocks", std::move(blocks)}, {"total", page->total}});
}

handler_result get_record_message(server_context& context, const rest_request& request, std::string id) {
  if (auto params = parse_records_params(request, kViewParams); !params) co_return params_error(params.err());
  auto view = choice_param(request, "view", {"context_block"});
  if (!view) co_return params_error(view.err());
  auto records = records_of(context);
  if (!records) co_return error_response(records.err());
  auto message = found_or_404(context, request, (*records)->message(id), "message", id);
  if (!message) co_return error_response(message.err());
  if (view->empty()) co_return json_response(200, {{"message", record_message_json(*message)}});
  co_return json_response(200, {{"context_block", context_block_json(block_of(**records, *message))}});
}

handler_result list_human_dialogues(server_context& context, const rest_request& request, std::string id) {
  auto filter = parse_records_params(request, kHumanDialogueParams);
  if (!filter) co_return params_error(filter.err());
  auto records = records_of(context);
  if (!records) co_return error_response(records.err());
  if (context.users.find(id) == nullptr) co_return error_response(404, "not_found", "no user with id '" + id + "'");
  filter->participant = id;
  only_visible(context, request, *filter);  // another user's list shows only what both take part in
  auto page = (*records)->dialogues(*filter);
  if (!page) co_return error_response(page.err());
  co_return page_response("dialogues", *page, dialogue_json);
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
    auto dialogue = found_or_404(context, request, (*records)->dialogue(scope->second), "dialogue", scope->second);
    if (!dialogue) co_return error_response(dialogue.err());
    filter->dialogue_id = dialogue->id;
  }
  only_visible(context, request, *filter);
  auto page = (*records)->search(*match, *filter);
  if (!page) co_return error_response(page.err());
  co_return page_response("messages", *page, record_message_json);
}

}  // namespace parley::server::rest

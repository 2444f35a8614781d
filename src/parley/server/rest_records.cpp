// Seed 002's read routes over the conversation records (docs/records.md): dialogues, sessions,
// turns, messages, full-text search. Read-only; every id is checked and every parameter parsed
// before the store is asked. Each route's reads run on the store's read thread (store_reads.hpp):
// they touch only the store, the users and the team, none of which the loop changes.
#include <boost/json/array.hpp>

#include <algorithm>

#include "parley/core/json_fields.hpp"
#include "parley/engine/message_analyst.hpp"
#include "parley/server/records_include.hpp"
#include "parley/server/records_json.hpp"
#include "parley/server/records_params.hpp"
#include "parley/server/records_view_inputs.hpp"
#include "parley/server/records_views.hpp"
#include "parley/server/rest_handlers.hpp"
#include "parley/server/rest_support.hpp"
#include "parley/server/store_reads.hpp"

namespace parley::server::rest {
namespace {

const records_params_spec kSessionParams{{"since", "until", "type", "sort_by", "include", "include_limit"},
                                         {"start_at", "end_at"}};
const records_params_spec kTurnParams{{"since", "until", "status", "sort_by", "include", "include_limit"},
                                      {"started_at", "closed_at", "response_time"}};
const records_params_spec kUnrespondedParams{{"since", "until", "sort_by", "include", "include_limit"},
                                             {"started_at", "closed_at"}};
const records_params_spec kAiSessionParams{{"since", "until", "type", "sort_by", "include", "include_limit"},
                                           {"start_at", "end_at"}};
const records_params_spec kIntrospectionParams{{"since", "until", "sort_by"}, {"started_at"}};
const records_params_spec kUtteranceParams{{"since", "until", "sort_by"}, {"timestamp"}};
const records_params_spec kViewParams{{"view"}, {}};
const records_params_spec kViewIncludeParams{{"view", "include", "include_limit"}, {}};
const records_params_spec kIncludeParams{{"include", "include_limit"}, {}};
// What each level's rows may carry (docs/records.md "Nested loading").
const std::initializer_list<std::string_view> kDialogueIncludes{"sessions", "sessions.turns",
                                                                "sessions.turns.messages"};
const std::initializer_list<std::string_view> kSessionIncludes{"turns", "turns.messages"};
const std::initializer_list<std::string_view> kTurnIncludes{"messages"};
const records_params_spec kMessageParams{{"since", "until", "role", "content_type", "sort_by", "view"}, {"created_at"}};
const records_params_spec kSearchParams{
    {"q", "mode", "dialogue_id", "since", "until", "role", "content_type", "sort_by"}, {"created_at"}};
// A semantic query is sent to the embeddings provider as it is: bounded like a message's words.
constexpr std::size_t kMaxSemanticQueryBytes = 8 * 1024;
const records_params_spec kNoParams{{}, {}};
const records_params_spec kHumanDialogueParams{{"since", "until", "sort_by", "include", "include_limit"},
                                               {"created_at", "last_activity_at"}};

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

// The dialogue named by the path, after checking the route's parameters.
result<record_dialogue> dialogue_at(server_context& context, const rest_request& request, const std::string& id) {
  auto records = records_of(context);
  if (!records) return std::move(records).err();
  return found_or_404(context, request, (*records)->dialogue(id), "dialogue", id);
}

// A page of one dialogue's rows (its sessions, its system utterances) under the route's parameters.
template <class Row>
rest_response dialogue_page(server_context& context, const rest_request& request, const std::string& id,
                            const records_params_spec& spec,
                            result<records_page<Row>> (records_query::*fetch)(const records_filter&), const char* key,
                            boost::json::object (*to_json)(const Row&)) {
  auto filter = parse_records_params(request, spec);
  if (!filter) return params_error(filter.err());
  auto dialogue = dialogue_at(context, request, id);
  if (!dialogue) return error_response(dialogue.err());
  filter->dialogue_id = dialogue->id;
  auto page = (context.log.records()->*fetch)(*filter);
  if (!page) return error_response(page.err());
  return page_response(key, *page, to_json);
}

// A page of one session's rows (its turns, its introspection turns) under the route's parameters,
// answered by `respond`.
template <class Row, class Respond>
rest_response session_page(server_context& context, const rest_request& request, const std::string& id,
                           const records_params_spec& spec,
                           result<records_page<Row>> (records_query::*fetch)(const records_filter&), Respond respond) {
  auto filter = parse_records_params(request, spec);
  if (!filter) return params_error(filter.err());
  auto records = records_of(context);
  if (!records) return error_response(records.err());
  auto session = found_or_404(context, request, (*records)->session(id), "session", id);
  if (!session) return error_response(session.err());
  filter->session_id = session->id;
  auto page = ((*records)->*fetch)(*filter);
  if (!page) return error_response(page.err());
  return respond(**records, *page);
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

}  // namespace

handler_result get_dialogue(server_context& context, const rest_request& request, std::string id) {
  auto read = [&]() -> rest_response {
    if (auto params = parse_records_params(request, kViewIncludeParams); !params) return params_error(params.err());
    auto view = choice_param(request, "view", {"conversation_thread"});
    if (!view) return params_error(view.err());
    auto include = parse_include(request, kDialogueIncludes);
    if (!include) return params_error(include.err());
    if (!view->empty() && !include->chain.empty()) {
      return error_response(400, "bad_field", "include: not with view=" + *view + ", which is a view of its own");
    }
    auto dialogue = dialogue_at(context, request, id);
    if (!dialogue) return error_response(dialogue.err());
    if (view->empty()) return nested_one(*context.log.records(), *include, "dialogue", *dialogue, dialogue_json);
    auto& records = *context.log.records();
    records_filter all;
    all.dialogue_id = dialogue->id;
    all.limit = 500;
    auto turns = records.turns(all);
    if (!turns) return error_response(turns.err());
    auto memories = records.linked_memories(dialogue->id);
    if (!memories) return error_response(memories.err());
    auto prompts = read_logged_prompts(context.log, dialogue->dialog_id);
    if (!prompts) return error_response(prompts.err());
    conversation_thread_input input{*dialogue, std::move(turns->items), std::move(*memories), std::move(*prompts)};
    auto topics = topic_tags_of(records, dialogue->id);
    if (!topics) return error_response(topics.err());
    input.topic_tags = std::move(*topics);
    if (dialogue->dialogue_type == events::dialogue_type::ai_ai) {
      auto tellaskers = tellasker_members(context.log, dialogue->dialog_id);
      if (!tellaskers) return error_response(tellaskers.err());
      input.other_ais = std::move(*tellaskers);
    }
    return json_response(200, {{"conversation_thread", conversation_thread_view(input)}});
  };
  co_return co_await read_reply(context, std::move(read));
}

handler_result list_dialogue_sessions(server_context& context, const rest_request& request, std::string id) {
  auto read = [&]() -> rest_response {
    auto include = parse_include(request, kSessionIncludes);
    if (!include) return params_error(include.err());
    auto filter = parse_records_params(request, kSessionParams);
    if (!filter) return params_error(filter.err());
    auto dialogue = dialogue_at(context, request, id);
    if (!dialogue) return error_response(dialogue.err());
    filter->dialogue_id = dialogue->id;
    auto page = context.log.records()->sessions(*filter);
    if (!page) return error_response(page.err());
    return nested_page(*context.log.records(), *include, "sessions", *page, session_json);
  };
  co_return co_await read_reply(context, std::move(read));
}

handler_result get_latest_session(server_context& context, const rest_request& request, std::string id) {
  auto read = [&]() -> rest_response {
    if (auto params = parse_records_params(request, kIncludeParams); !params) return params_error(params.err());
    auto include = parse_include(request, kSessionIncludes);
    if (!include) return params_error(include.err());
    auto dialogue = dialogue_at(context, request, id);
    if (!dialogue) return error_response(dialogue.err());
    records_filter filter;
    filter.dialogue_id = dialogue->id;
    filter.sort_by = "start_at";
    filter.descending = true;
    filter.limit = 1;
    auto page = context.log.records()->sessions(filter);
    if (!page) return error_response(page.err());
    if (page->items.empty()) return error_response(404, "not_found", "dialogue '" + id + "' has no session yet");
    return nested_one(*context.log.records(), *include, "session", page->items.front(), session_json);
  };
  co_return co_await read_reply(context, std::move(read));
}

handler_result list_unresponded_turns(server_context& context, const rest_request& request, std::string id) {
  auto read = [&]() -> rest_response {
    auto filter = parse_records_params(request, kUnrespondedParams);
    if (!filter) return params_error(filter.err());
    auto include = parse_include(request, kTurnIncludes);
    if (!include) return params_error(include.err());
    auto dialogue = dialogue_at(context, request, id);
    if (!dialogue) return error_response(dialogue.err());
    filter->dialogue_id = dialogue->id;
    filter->status = events::turn_status::unresponded;
    auto page = context.log.records()->turns(*filter);
    if (!page) return error_response(page.err());
    return nested_page(*context.log.records(), *include, "turns", *page, turn_json);
  };
  co_return co_await read_reply(context, std::move(read));
}

handler_result get_session(server_context& context, const rest_request& request, std::string id) {
  auto read = [&]() -> rest_response {
    if (auto params = parse_records_params(request, kIncludeParams); !params) return params_error(params.err());
    auto include = parse_include(request, kSessionIncludes);
    if (!include) return params_error(include.err());
    auto records = records_of(context);
    if (!records) return error_response(records.err());
    auto session = found_or_404(context, request, (*records)->session(id), "session", id);
    if (!session) return error_response(session.err());
    return nested_one(**records, *include, "session", *session, session_json);
  };
  co_return co_await read_reply(context, std::move(read));
}

handler_result list_session_turns(server_context& context, const rest_request& request, std::string id) {
  auto read = [&]() -> rest_response {
    auto include = parse_include(request, kTurnIncludes);
    if (!include) return params_error(include.err());
    return session_page(context, request, id, kTurnParams, &records_query::turns,
                        [&](records_query& records, const records_page<record_turn>& page) {
                          return nested_page(records, *include, "turns", page, turn_json);
                        });
  };
  co_return co_await read_reply(context, std::move(read));
}

handler_result get_turn(server_context& context, const rest_request& request, std::string id) {
  auto read = [&]() -> rest_response {
    if (auto params = parse_records_params(request, kViewIncludeParams); !params) return params_error(params.err());
    auto view = choice_param(request, "view", {"dialogue_turn"});
    if (!view) return params_error(view.err());
    auto include = parse_include(request, kTurnIncludes);
    if (!include) return params_error(include.err());
    if (!view->empty() && !include->chain.empty()) {
      return error_response(400, "bad_field", "include: not with view=" + *view + ", which is a view of its own");
    }
    auto records = records_of(context);
    if (!records) return error_response(records.err());
    auto turn = found_or_404(context, request, (*records)->turn(id), "turn", id);
    if (!turn) return error_response(turn.err());
    if (view->empty()) return nested_one(**records, *include, "turn", *turn, turn_json);
    auto input = dialogue_turn_of(**records, *turn);
    if (!input) return error_response(input.err());
    return json_response(200, {{"dialogue_turn", dialogue_turn_view(*input)}});
  };
  co_return co_await read_reply(context, std::move(read));
}

handler_result list_ai_sessions(server_context& context, const rest_request& request, std::string id) {
  auto read = [&]() -> rest_response {
    auto filter = parse_records_params(request, kAiSessionParams);
    if (!filter) return params_error(filter.err());
    auto include = parse_include(request, kSessionIncludes);
    if (!include) return params_error(include.err());
    auto records = records_of(context);
    if (!records) return error_response(records.err());
    if (context.engine.team().find_member(id) == nullptr) {
      return error_response(404, "not_found", "no member with id '" + id + "' in the team");
    }
    filter->ai_id = id;
    only_visible(context, request, *filter);
    auto page = (*records)->sessions(*filter);
    if (!page) return error_response(page.err());
    return nested_page(**records, *include, "sessions", *page, session_json);
  };
  co_return co_await read_reply(context, std::move(read));
}

handler_result list_introspections(server_context& context, const rest_request& request, std::string id) {
  auto read = [&] {
    return session_page(context, request, id, kIntrospectionParams, &records_query::introspections,
                        [](records_query&, const records_page<record_introspection>& page) {
                          return page_response("introspection_turns", page, introspection_json);
                        });
  };
  co_return co_await read_reply(context, std::move(read));
}

handler_result list_system_utterances(server_context& context, const rest_request& request, std::string id) {
  auto read = [&] {
    return dialogue_page(context, request, id, kUtteranceParams, &records_query::system_utterances, "system_utterances",
                         system_utterance_json);
  };
  co_return co_await read_reply(context, std::move(read));
}

handler_result get_memory_entry(server_context& context, const rest_request& request, std::string id) {
  auto read = [&]() -> rest_response {
    return one_record(context, request, id, "memory_entry", &records_query::memory_entry, memory_entry_json);
  };
  co_return co_await read_reply(context, std::move(read));
}

handler_result list_turn_messages(server_context& context, const rest_request& request, std::string id) {
  auto read = [&]() -> rest_response {
    auto filter = parse_records_params(request, kMessageParams);
    if (!filter) return params_error(filter.err());
    auto records = records_of(context);
    if (!records) return error_response(records.err());
    auto turn = found_or_404(context, request, (*records)->turn(id), "turn", id);
    if (!turn) return error_response(turn.err());
    auto view = choice_param(request, "view", {"context_block"});
    if (!view) return params_error(view.err());
    filter->turn_id = turn->id;
    auto page = (*records)->messages(*filter);
    if (!page) return error_response(page.err());
    if (view->empty()) return page_response("messages", *page, record_message_json);
    boost::json::array blocks;
    for (const auto& m : page->items) blocks.push_back(context_block_json(block_of(**records, m)));
    return json_response(200, {{"context_blocks", std::move(blocks)}, {"total", page->total}});
  };
  co_return co_await read_reply(context, std::move(read));
}

handler_result get_record_message(server_context& context, const rest_request& request, std::string id) {
  auto read = [&]() -> rest_response {
    if (auto params = parse_records_params(request, kViewParams); !params) return params_error(params.err());
    auto view = choice_param(request, "view", {"context_block"});
    if (!view) return params_error(view.err());
    auto records = records_of(context);
    if (!records) return error_response(records.err());
    auto message = found_or_404(context, request, (*records)->message(id), "message", id);
    if (!message) return error_response(message.err());
    if (view->empty()) {
      auto out = record_message_json(*message);
      // The vector only here, where one message is asked for: a list would carry kilobytes a row.
      auto embedding = (*records)->embedding(message->id);
      if (!embedding) return error_response(embedding.err());
      out["embedding_vector"] =
          *embedding ? boost::json::value(boost::json::array((*embedding)->vector.begin(), (*embedding)->vector.end()))
                     : boost::json::value(nullptr);
      return json_response(200, {{"message", std::move(out)}});
    }
    return json_response(200, {{"context_block", context_block_json(block_of(**records, *message))}});
  };
  co_return co_await read_reply(context, std::move(read));
}

handler_result list_human_dialogues(server_context& context, const rest_request& request, std::string id) {
  auto read = [&]() -> rest_response {
    auto filter = parse_records_params(request, kHumanDialogueParams);
    if (!filter) return params_error(filter.err());
    auto include = parse_include(request, kDialogueIncludes);
    if (!include) return params_error(include.err());
    auto records = records_of(context);
    if (!records) return error_response(records.err());
    if (context.users.find(id) == nullptr) return error_response(404, "not_found", "no user with id '" + id + "'");
    filter->participant = id;
    only_visible(context, request, *filter);  // another user's list shows only what both take part in
    auto page = (*records)->dialogues(*filter);
    if (!page) return error_response(page.err());
    return nested_page(**records, *include, "dialogues", *page, dialogue_json);
  };
  co_return co_await read_reply(context, std::move(read));
}

namespace {

// mode=semantic: the query's embedding against the messages' (docs/records.md "Semantic search").
handler_result semantic_search(server_context& context, const rest_request& request, records_filter filter,
                               records_query& records) {
  llm::embeddings_client* embedder = context.analyst == nullptr ? nullptr : context.analyst->embedder();
  if (embedder == nullptr) {
    co_return error_response(503, "not_configured",
                             "mode: semantic search needs an embeddings provider; set records.embeddings "
                             "{provider, model, dimensions} in team.yaml");
  }
  const auto q = request.query.find("q");
  const std::string query = q == request.query.end() ? std::string{} : q->second;
  if (query.empty()) co_return error_response(400, "bad_field", "q: expected the text to search for");
  if (query.size() > kMaxSemanticQueryBytes) {
    co_return error_response(400, "bad_field", "q: longer than " + std::to_string(kMaxSemanticQueryBytes) + " bytes");
  }
  if (request.query.contains("sort_by")) {
    co_return error_response(400, "bad_field", "sort_by: not with mode=semantic, which ranks by similarity");
  }
  llm::generation_control control;
  auto vector = co_await embedder->embed(query, control);
  if (!vector) co_return error_response(502, "provider_error", "embedding the query: " + vector.err().message);
  auto page = records.nearest(embedder->model(), *vector, filter);
  if (!page) co_return error_response(page.err());
  boost::json::array items;
  for (const auto& found : page->items) {
    auto row = record_message_json(found.message);
    row["score"] = found.score;
    items.push_back(std::move(row));
  }
  co_return json_response(200, {{"messages", std::move(items)}, {"total", page->total}, {"mode", "semantic"}});
}

}  // namespace

handler_result search_messages(server_context& context, const rest_request& request, std::string /*id*/) {
  auto filter = parse_records_params(request, kSearchParams);
  if (!filter) co_return params_error(filter.err());
  auto mode = choice_param(request, "mode", {"text", "semantic"});
  if (!mode) co_return params_error(mode.err());
  const bool semantic = *mode == "semantic";
  const auto q = request.query.find("q");
  auto match = semantic ? result<std::string>(std::string{})
                        : fts_match_of(q == request.query.end() ? std::string_view{} : std::string_view(q->second));
  if (!match) co_return params_error(match.err());
  auto records = records_of(context);
  if (!records) co_return error_response(records.err());
  // The scope's dialogue and the text search read the store: on the read thread.
  auto scope = [&]() -> std::optional<rest_response> {
    if (const auto asked = request.query.find("dialogue_id"); asked != request.query.end()) {
      auto dialogue = found_or_404(context, request, (*records)->dialogue(asked->second), "dialogue", asked->second);
      if (!dialogue) return error_response(dialogue.err());
      filter->dialogue_id = dialogue->id;
    }
    only_visible(context, request, *filter);
    return std::nullopt;
  };
  if (auto refused = co_await read_store(context, std::move(scope))) co_return std::move(*refused);
  if (semantic) co_return co_await semantic_search(context, request, std::move(*filter), **records);
  auto text = [&]() -> rest_response {
    auto page = (*records)->search(*match, *filter);
    if (!page) return error_response(page.err());
    return page_response("messages", *page, record_message_json);
  };
  co_return co_await read_reply(context, std::move(text));
}

}  // namespace parley::server::rest

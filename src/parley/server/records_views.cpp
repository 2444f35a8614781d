#include "parley/server/records_views.hpp"

#include <boost/json/array.hpp>
#include <boost/json/value.hpp>

#include <algorithm>

#include "parley/core/json_fields.hpp"
#include "parley/core/time.hpp"
#include "parley/server/records_json.hpp"

namespace parley::server {
namespace {

namespace json = boost::json;
using events::content_type;
using events::record_role;

// Who spoke, in order; a speaker who speaks several times in a row counts once.
json::array role_sequence(const std::vector<record_message>& messages) {
  json::array roles;
  const record_role* last = nullptr;
  for (const auto& m : messages) {
    if (last == nullptr || *last != m.sender_role) roles.emplace_back(events::to_wire(m.sender_role));
    last = &m.sender_role;
  }
  return roles;
}

// The tool loop: one round per AI message that called tools (its prompt version is the round's
// number in the turn, with the generation's genseq), each call with its arguments and the result
// the system inserted into the context — at which position of the turn's messages.
struct tool_loop {
  json::array rounds;
  json::array system_actions;
};

json::object* find_call(json::array& rounds, const std::string& call_id) {
  for (auto& round : rounds) {
    for (auto& call : round.as_object()["tool_calls"].as_array()) {
      // The view wrote call_id itself (trace_tool_loop): always a string.
      if (call.as_object()["call_id"].as_string() == std::string_view(call_id)) return &call.as_object();
    }
  }
  return nullptr;
}

// What the engine records in a message's metadata about the tool loop (conversation_reducer.cpp):
// an AI message's genseq, thinking, prompt version and tool calls; a tool result's name, call id
// and outcome. Absent fields are absent in the engine's metadata for that kind of message.
struct tool_call_meta {
  std::string id;
  std::string name;
  std::string arguments;
};

struct tool_loop_meta {
  std::int64_t genseq = 0;  // absent: a message recorded outside a generation
  std::string thinking;
  std::vector<tool_call_meta> tool_calls;
  std::string name;     // a tool result's tool
  std::string call_id;  // the call a tool result answers
  bool ok = true;       // absent on results recorded before failures were marked
};

result<tool_loop_meta> read_tool_loop_meta(const json::object& meta) {
  json_fields in(meta, "metadata");
  tool_loop_meta out;
  out.genseq = in.optional_integer("genseq").value_or(0);
  out.thinking = in.optional_string("thinking").value_or("");
  out.name = in.optional_string("name").value_or("");
  out.call_id = in.optional_string("callId").value_or("");
  out.ok = in.optional_boolean("ok").value_or(true);
  if (const auto* calls = in.optional_array("toolCalls")) {
    for (std::size_t i = 0; i < calls->size() && in.ok(); ++i) {
      const std::string where = "toolCalls[" + std::to_string(i) + "]";
      const auto* call = (*calls)[i].if_object();
      if (call == nullptr) {
        in.fail(where, std::string("expected an object, got ") + json_kind_with_article((*calls)[i]));
        break;
      }
      auto call_fields = in.nested(*call, where);
      tool_call_meta typed{call_fields.string("id"), call_fields.string("name"), call_fields.string("arguments")};
      in.adopt(call_fields);
      out.tool_calls.push_back(std::move(typed));
    }
  }
  PARLEY_TRY(in.status());
  return out;
}

// The engine writes this metadata; a message written through the records API may carry any, and
// what does not read as the engine's shows in the view as a message without tool-loop details.
tool_loop_meta tool_loop_meta_of(const json::object& meta) {
  auto read = read_tool_loop_meta(meta);
  return read ? std::move(*read) : tool_loop_meta{};
}

// What a system message did to the AI's context.
const char* system_action_type(content_type type) {
  switch (type) {
    case content_type::tool_output:
      return "tool_response";
    case content_type::prompt:
    case content_type::system_context:
      return "prompt_insert";
    default:
      return "context_building";
  }
}

tool_loop trace_tool_loop(const std::vector<record_message>& messages) {
  tool_loop out;
  for (std::size_t position = 0; position < messages.size(); ++position) {
    const auto& m = messages[position];
    const auto meta = metadata_of(m.metadata);
    const auto loop_meta = tool_loop_meta_of(meta);
    if (m.sender_role == record_role::ai && m.content_type == content_type::tool_input) {
      // The version the engine logged with the prompt (prompt_logged); null for calls recorded
      // before prompts had versions.
      const auto* version = meta.if_contains("promptVersion");
      json::value prompt_version = version != nullptr && version->is_string() ? *version : json::value(nullptr);
      if (!prompt_version.is_null()) {
        out.system_actions.push_back(
            json::object{{"action_type", "context_building"},
                         {"content", "the model's prompt, version " + std::string(version->get_string())},
                         {"prompt_version", prompt_version},
                         {"notes",
                          "system prompt and tools as GET /api/dialogs/{id}/prompts logs them, with the "
                          "dialog's messages before this one"},
                         {"at", format_iso8601_ms(m.created_at)},
                         {"message_id", m.id}});
      }
      json::array calls;
      for (const auto& call : loop_meta.tool_calls) {
        calls.push_back(json::object{{"call_id", call.id},
                                     {"tool_used", call.name},
                                     {"arguments", call.arguments},
                                     {"result", nullptr},
                                     {"ok", nullptr},
                                     {"result_at", nullptr},
                                     {"context_position", nullptr}});
        out.system_actions.push_back(json::object{{"action_type", "tool_call"},
                                                  {"content", call.arguments},
                                                  {"tool_used", call.name},
                                                  {"notes", "the AI called " + call.name},
                                                  {"at", format_iso8601_ms(m.created_at)},
                                                  {"message_id", m.id}});
      }
      out.rounds.push_back(json::object{{"prompt_version", std::move(prompt_version)},
                                        {"genseq", loop_meta.genseq},
                                        {"at", format_iso8601_ms(m.created_at)},
                                        {"thoughts", loop_meta.thinking},
                                        {"said", m.content},
                                        {"tool_calls", std::move(calls)}});
    } else if (m.sender_role == record_role::system) {
      const bool result = m.content_type == content_type::tool_output;
      json::object action{{"action_type", system_action_type(m.content_type)},
                          {"content", m.content},
                          {"at", format_iso8601_ms(m.created_at)},
                          {"message_id", m.id},
                          {"context_position", static_cast<std::int64_t>(position)}};
      if (result) {
        const std::string& name = loop_meta.name;
        action["tool_used"] = name;
        action["tool_result"] = m.content;
        action["notes"] = "result of " + name + " relayed to the AI";
        if (auto* call = find_call(out.rounds, loop_meta.call_id)) {
          (*call)["result"] = m.content;
          (*call)["ok"] = loop_meta.ok;
          (*call)["result_at"] = format_iso8601_ms(m.created_at);
          (*call)["context_position"] = static_cast<std::int64_t>(position);
        }
      }
      out.system_actions.push_back(std::move(action));
    }
  }
  return out;
}

}  // namespace

const record_message* ai_answer_of(const std::vector<record_message>& messages) {
  const auto answer = std::find_if(messages.rbegin(), messages.rend(), [](const record_message& m) {
    return m.sender_role == record_role::ai && m.content_type != content_type::tool_input;
  });
  return answer == messages.rend() ? nullptr : &*answer;
}

json::value tags_of(const record_message& m, std::string_view key) {
  const auto meta = metadata_of(m.metadata);
  const auto* tags = meta.if_contains(key);
  return tags != nullptr && tags->is_array() ? *tags : json::value(nullptr);
}

namespace {

json::value human_input_of(const std::vector<record_message>& messages) {
  for (const auto& m : messages) {
    if (m.sender_role != record_role::human) continue;
    const auto meta = metadata_of(m.metadata);
    json::object input{{"text", m.content}, {"message_id", m.id}, {"at", format_iso8601_ms(m.created_at)}};
    input["intent_tags"] = meta.contains("intent_tags") ? meta.at("intent_tags") : json::array{};
    input["emotion"] = meta.contains("emotion") ? meta.at("emotion") : json::value(nullptr);
    return input;
  }
  return nullptr;
}

json::value ai_response_of(const std::vector<record_message>& messages, bool used_tools,
                           const std::vector<float>& embedding) {
  const record_message* answer = ai_answer_of(messages);
  if (answer == nullptr) return nullptr;
  const auto meta = metadata_of(answer->metadata);
  // The answer's embedding when the team has an embedder (team.yaml records.embeddings).
  json::value vector = nullptr;
  if (!embedding.empty()) vector = json::array(embedding.begin(), embedding.end());
  return json::object{{"thoughts", tool_loop_meta_of(meta).thinking},
                      {"final_output", answer->content},
                      {"used_tool_result", used_tools},
                      {"embedding_vector", std::move(vector)},
                      {"message_id", answer->id},
                      {"at", format_iso8601_ms(answer->created_at)}};
}

// The prompt version the turn's last AI message was given: with the dialog's messages before it,
// the context that produced the turn's answer (seed 002: "上下文快照ID（用于再现）").
json::value context_snapshot_of(const std::vector<record_message>& messages) {
  for (auto m = messages.rbegin(); m != messages.rend(); ++m) {
    if (m->sender_role != record_role::ai) continue;
    const auto meta = metadata_of(m->metadata);
    if (const auto* version = meta.if_contains("promptVersion"); version != nullptr && version->is_string()) {
      return *version;
    }
  }
  return nullptr;
}

}  // namespace

json::object dialogue_turn_view(const dialogue_turn_input& input) {
  const auto& t = input.turn;
  auto loop = trace_tool_loop(input.messages);
  const bool used_tools = !loop.rounds.empty();
  json::array related;
  for (const auto& link : input.links) related.emplace_back(link.memory_id);
  json::value feedback = nullptr;
  if (input.human_feedback) {
    feedback = json::object{{"text", input.human_feedback->content},
                            {"message_id", input.human_feedback->id},
                            {"turn_id", input.human_feedback->turn_id},
                            {"at", format_iso8601_ms(input.human_feedback->created_at)}};
  }
  return {{"turn_id", t.id},
          {"conversation_id", t.dialogue_id},
          {"session_id", t.session_id},
          {"timestamp", format_iso8601_ms(t.started_at)},
          {"turn_type", events::to_wire(t.turn_type)},
          {"status", events::to_wire(t.status)},
          {"role_sequence", role_sequence(input.messages)},
          {"human_input", human_input_of(input.messages)},
          {"system_actions", std::move(loop.system_actions)},
          {"tool_loop", std::move(loop.rounds)},
          {"ai_response", ai_response_of(input.messages, used_tools, input.answer_embedding)},
          {"human_feedback", std::move(feedback)},
          {"memory_links", json::object{{"related_memory_ids", std::move(related)},
                                        {"context_snapshot_id", context_snapshot_of(input.messages)}}}};
}

json::object conversation_thread_view(const conversation_thread_input& input) {
  const auto& d = input.dialogue;
  // A group's people are in the dialogue's metadata; a one-to-one dialogue has its two ids.
  json::array humans;
  json::array ais;
  if (auto meta = parse_json(d.metadata); meta && meta->is_object()) {
    if (const auto* list = json_array_at(meta->get_object(), "humans")) humans = *list;
    if (const auto* list = json_array_at(meta->get_object(), "members")) ais = *list;
  }
  if (humans.empty() && !d.human_id.empty()) humans.emplace_back(d.human_id);
  if (ais.empty() && !d.ai_id.empty()) ais.emplace_back(d.ai_id);
  for (const auto& other : input.other_ais) {
    if (std::find(ais.begin(), ais.end(), json::value(other)) == ais.end()) ais.emplace_back(other);
  }
  // The seed's context modes: two people are 1v1, one human with several AIs a LIO, more a group;
  // AIs among themselves with no human (seed 002 ④, a Tellask) are its `group_ai`.
  const char* mode = "1v1";
  switch (d.dialogue_type) {
    case events::dialogue_type::lio_group:
      mode = "LIO";
      break;
    case events::dialogue_type::human_group_ai:
    case events::dialogue_type::human_human_group:
      mode = "group_human";
      break;
    case events::dialogue_type::ai_ai:
      mode = "group_ai";
      break;
    default:
      break;
  }
  json::array turns;
  for (const auto& t : input.turns) {
    turns.push_back(json::object{{"turn_id", t.id}, {"timestamp", format_iso8601_ms(t.started_at)}});
  }
  json::array memories;
  for (const auto& id : input.linked_memory_ids) memories.emplace_back(id);
  json::array snapshots;
  for (const auto& logged : input.prompts) {
    snapshots.push_back(json::object{{"snapshot_id", logged.prompt.version},
                                     {"created_at", format_iso8601_ms(logged.logged_at_ms)},
                                     {"course", logged.prompt.course}});
  }
  // Parley has no core memory (the seed's personality store), so none is ever touched.
  return {{"conversation_id", d.id},
          {"dialogue_type", events::to_wire(d.dialogue_type)},
          {"participants",
           json::object{{"human_ids", std::move(humans)}, {"ai_ids", std::move(ais)}, {"context_mode", mode}}},
          {"start_time", format_iso8601_ms(d.created_at)},
          {"status", d.is_active ? "active" : "ended"},
          {"topic_tags", json::array(input.topic_tags.begin(), input.topic_tags.end())},
          {"memory_association",
           json::object{{"linked_memory_ids", std::move(memories)}, {"has_core_memory_touched", false}}},
          {"turns", std::move(turns)},
          {"context_snapshots", std::move(snapshots)}};
}

}  // namespace parley::server

#include "parley/server/wire_schema.hpp"

#include <array>
#include <string>

namespace parley::server {
namespace {

using k = json_kind;

// Optional fields are spelled out with `false`; shapes refer to docs/server.md.
constexpr field_spec dialog_self[] = {{"selfId", k::string}};
constexpr field_spec dialog_full[] = {{"selfId", k::string}, {"rootId", k::string}};

// Every dialog event starts with these; log-derived ones add logSeq.
#define PARLEY_EVENT_COMMON                                                             \
  field_spec{"dialog", k::object, true, dialog_full}, field_spec{"course", k::integer}, \
      field_spec{"genseq", k::integer}, field_spec {                                    \
    "seq", k::integer                                                                   \
  }
#define PARLEY_LOG_SEQ \
  field_spec { "logSeq", k::integer }

// --- client → server
constexpr field_spec hello_fields[] = {{"protocol", k::integer}};
constexpr field_spec subscribe_fields[] = {
    {"dialog", k::object, true, dialog_self}, {"afterSeq", k::integer, false}, {"epoch", k::string, false}};
constexpr field_spec dialog_only_fields[] = {{"dialog", k::object, true, dialog_self}};
constexpr field_spec user_msg_fields[] = {
    {"dialog", k::object, true, dialog_self}, {"content", k::string}, {"msgId", k::string}};
constexpr field_spec user_answer_fields[] = {{"dialog", k::object, true, dialog_self},
                                             {"content", k::string},
                                             {"msgId", k::string},
                                             {"questionId", k::string},
                                             {"continuationType", k::string, true, {}, "answer"}};
constexpr field_spec dead_fields[] = {{"dialog", k::object, true, dialog_self}, {"reason", k::string, false}};

// --- server → client: dialog events
// attachment: a user's image or recording (docs/server.md "Uploads and attachments").
constexpr field_spec user_message_evt[] = {
    PARLEY_EVENT_COMMON,  PARLEY_LOG_SEQ,        {"content", k::string},
    {"msgId", k::string}, {"origin", k::string}, {"attachment", k::object, false, {}, {}, "Attachment"}};
constexpr field_spec generating_start_evt[] = {PARLEY_EVENT_COMMON, PARLEY_LOG_SEQ, {"round", k::integer}};
constexpr field_spec segment_edge_evt[] = {PARLEY_EVENT_COMMON};
// firstSeq: present when queued chunks were coalesced; the packet carries seqs firstSeq..seq.
constexpr field_spec chunk_evt[] = {PARLEY_EVENT_COMMON, {"content", k::string}, {"firstSeq", k::integer, false}};
constexpr field_spec generating_finish_evt[] = {
    PARLEY_EVENT_COMMON,  PARLEY_LOG_SEQ,          {"interrupted", k::boolean}, {"finishReason", k::string},
    {"usage", k::object}, {"thinking", k::string}, {"saying", k::string},       {"stopReason", k::string, false}};
constexpr field_spec tool_call_evt[] = {
    PARLEY_EVENT_COMMON, PARLEY_LOG_SEQ, {"callId", k::string}, {"name", k::string}, {"arguments", k::any}};
constexpr field_spec tool_result_evt[] = {PARLEY_EVENT_COMMON, PARLEY_LOG_SEQ,     {"callId", k::string},
                                          {"name", k::string}, {"ok", k::boolean}, {"content", k::string}};
constexpr field_spec tellask_call_evt[] = {PARLEY_EVENT_COMMON,        PARLEY_LOG_SEQ,
                                           {"callId", k::string},      {"name", k::string},
                                           {"subdialogId", k::string}, {"targetAgentId", k::string},
                                           {"sessionSlug", k::string}, {"tellaskContent", k::string}};
constexpr field_spec tellask_result_evt[] = {PARLEY_EVENT_COMMON,         PARLEY_LOG_SEQ,
                                             {"callId", k::string},       {"name", k::string},
                                             {"fromDialogId", k::string}, {"fromMemberId", k::string},
                                             {"kind", k::string},         {"ok", k::boolean},
                                             {"content", k::string}};
constexpr field_spec question_answered_evt[] = {PARLEY_EVENT_COMMON,       PARLEY_LOG_SEQ,
                                                {"questionId", k::string}, {"callId", k::string},
                                                {"content", k::string},    {"msgId", k::string}};
constexpr field_spec subdialog_created_evt[] = {PARLEY_EVENT_COMMON,
                                                {"subdialog", k::object, true, {}, {}, "DialogSummary"}};
constexpr field_spec reminders_update_evt[] = {
    PARLEY_EVENT_COMMON, PARLEY_LOG_SEQ, {"reminders", k::array, true, {}, {}, "[{index, content}]"}};
constexpr field_spec course_update_evt[] = {PARLEY_EVENT_COMMON, PARLEY_LOG_SEQ, {"prompt", k::string}};
// logSeq only when a log event caused it (not for the end of a drive).
constexpr field_spec dialog_state_evt[] = {
    PARLEY_EVENT_COMMON, {"logSeq", k::integer, false}, {"state", k::object, true, {}, {}, "DialogSummary"}};
constexpr field_spec stream_error_evt[] = {PARLEY_EVENT_COMMON, PARLEY_LOG_SEQ, {"message", k::string}};
constexpr field_spec genseq_discard_evt[] = {PARLEY_EVENT_COMMON, PARLEY_LOG_SEQ, {"reason", k::string}};
// A ToT run on this root (docs/tot.md): step started|generated|evaluated|pruned|updated|finished,
// status running|solved|failed; node with each thought's news, bestPath and finalSolution with
// finished. Folding them in order gives GET /api/tot's view of the run.
constexpr field_spec tot_progress_evt[] = {PARLEY_EVENT_COMMON,
                                           {"taskId", k::string},
                                           {"step", k::string},
                                           {"status", k::string},
                                           {"node", k::object, false, {}, {}, "ThoughtNode"},
                                           {"bestPath", k::array, false, {}, {}, "[node id]"},
                                           {"finalSolution", k::object, false, {}, {}, "FinalSolution"}};
// A flow's dialog (seed 004, docs/server.md "Flows"): its thread changed (fetch it again), and
// whether a step is still under way; the bot's reply in the main thread as the model streams it.
constexpr field_spec flow_thread_evt[] = {PARLEY_EVENT_COMMON, {"working", k::boolean}};
constexpr field_spec flow_chunk_evt[] = {PARLEY_EVENT_COMMON, {"content", k::string}};

// --- server → client: global and control packets
constexpr field_spec questions_count_update[] = {{"previousCount", k::integer},
                                                 {"questionCount", k::integer},
                                                 {"dialog", k::object, true, dialog_full},
                                                 {"course", k::integer}};
constexpr field_spec dialog_list_evt[] = {{"dialog", k::object, true, {}, {}, "DialogSummary"}};
constexpr field_spec welcome_fields[] = {
    {"protocol", k::integer}, {"epoch", k::string}, {"scriptedOffline", k::boolean}};
constexpr field_spec ack_fields[] = {{"ref", k::string}, {"ok", k::boolean}};
constexpr field_spec error_fields[] = {{"code", k::string}, {"message", k::string}, {"ref", k::string, false}};
constexpr field_spec resync_fields[] = {{"dialog", k::object, true, dialog_full}, {"seq", k::integer}};

#undef PARLEY_EVENT_COMMON
#undef PARLEY_LOG_SEQ

constexpr auto client = packet_direction::client;
constexpr auto server = packet_direction::server;

constexpr packet_spec packets[] = {
    {"hello", client, hello_fields, "optional; answered by welcome"},
    {"subscribe", client, subscribe_fields, "live events of one dialog; afterSeq + epoch replay what was missed"},
    {"unsubscribe", client, dialog_only_fields, ""},
    {"drive_dlg_by_user_msg", client, user_msg_fields, "acked once durable"},
    {"drive_dialog_by_user_answer", client, user_answer_fields, "answers an open question (Q4H)"},
    {"interrupt", client, dialog_only_fields, "stops the running generation"},
    {"resume", client, dialog_only_fields, ""},
    {"declare_subdialog_dead", client, dead_fields, ""},

    {"user_message_evt", server, user_message_evt, "log user_message"},
    {"generating_start_evt", server, generating_start_evt, "log generation_started"},
    {"thinking_start_evt", server, segment_edge_evt, "stream"},
    {"thinking_chunk_evt", server, chunk_evt, "stream"},
    {"thinking_finish_evt", server, segment_edge_evt, "stream"},
    {"saying_start_evt", server, segment_edge_evt, "stream"},
    {"saying_chunk_evt", server, chunk_evt, "stream"},
    {"saying_finish_evt", server, segment_edge_evt, "stream"},
    {"generating_finish_evt", server, generating_finish_evt, "log generation_finished"},
    {"tool_call_evt", server, tool_call_evt, "each tool call of generation_finished"},
    {"tool_result_evt", server, tool_result_evt, "log tool_result"},
    {"tellask_call_evt", server, tellask_call_evt, "log tellask_called"},
    {"tellask_result_evt", server, tellask_result_evt, "log reply_received"},
    {"question_answered_evt", server, question_answered_evt,
     "log question_answered: a human's answer, the result of the askHuman call callId"},
    {"subdialog_created_evt", server, subdialog_created_evt,
     "log dialog_created of a child, on the parent and the root"},
    {"reminders_update_evt", server, reminders_update_evt, "log reminder_*"},
    {"course_update_evt", server, course_update_evt, "log course_started"},
    {"dialog_state_evt", server, dialog_state_evt, "status, failure, stop, dead, resume, drive end"},
    {"stream_error_evt", server, stream_error_evt, "a generation aborted: stream-order violation or provider failure"},
    {"genseq_discard_evt", server, genseq_discard_evt,
     "log generation_discarded: drop what this genseq streamed; the call starts again"},
    {"tot_progress_evt", server, tot_progress_evt,
     "a Tree of Thoughts run on this root: a thought generated, evaluated or pruned, or the run's end"},
    {"flow_thread_evt", server, flow_thread_evt,
     "a flow's thread changed (GET /api/dialogs/{id}/thread has it); working: a step is under way"},
    {"flow_chunk_evt", server, flow_chunk_evt, "a piece of a flow's main-thread bot reply, as the model streams it"},
    {"questions_count_update", server, questions_count_update, "global"},
    {"dialog_list_evt", server, dialog_list_evt, "global: a root was created or changed status"},
    {"welcome", server, welcome_fields, "sent on connect and in answer to hello"},
    {"ack", server, ack_fields, "an input packet was accepted (durable)"},
    {"error", server, error_fields, "a packet was refused; ref names it"},
    {"resync", server, resync_fields, "refetch the transcript over REST, then continue after seq"},
};

const char* kind_name(json_kind kind) {
  switch (kind) {
    case k::string:
      return "string";
    case k::integer:
      return "integer";
    case k::boolean:
      return "boolean";
    case k::object:
      return "object";
    case k::array:
      return "array";
    case k::any:
      return "any";
  }
  return "any";
}

bool has_kind(const boost::json::value& value, json_kind kind) {
  switch (kind) {
    case k::string:
      return value.is_string();
    case k::integer:
      return value.is_int64() || value.is_uint64();
    case k::boolean:
      return value.is_bool();
    case k::object:
      return value.is_object();
    case k::array:
      return value.is_array();
    case k::any:
      return true;
  }
  return false;
}

const char* article(json_kind kind) { return kind == k::integer || kind == k::array || kind == k::object ? "an" : "a"; }

result<void> validate_fields(const boost::json::object& object, std::span<const field_spec> fields,
                             const std::string& prefix) {
  for (const auto& field : fields) {
    const std::string path = prefix + std::string(field.name);
    const auto* value = object.if_contains(field.name);
    if (value == nullptr || (value->is_null() && !field.required)) {
      if (field.required)
        return make_error(errc::invalid_argument,
                          path + ": missing (expected " + article(field.kind) + " " + kind_name(field.kind) + ")");
      continue;
    }
    if (!has_kind(*value, field.kind)) {
      return make_error(errc::invalid_argument,
                        path + ": expected " + article(field.kind) + " " + kind_name(field.kind));
    }
    if (!field.only_value.empty() && value->as_string() != field.only_value) {
      return make_error(errc::invalid_argument, path + ": expected \"" + std::string(field.only_value) + "\", got \"" +
                                                    std::string(value->as_string()) + "\"");
    }
    if (!field.fields.empty()) PARLEY_TRY(validate_fields(value->as_object(), field.fields, path + "."));
  }
  return ok();
}

boost::json::object fields_schema(std::span<const field_spec> fields) {
  boost::json::object out;
  for (const auto& field : fields) {
    boost::json::object entry{{"type", kind_name(field.kind)}, {"required", field.required}};
    if (!field.fields.empty()) entry["fields"] = fields_schema(field.fields);
    if (!field.only_value.empty()) entry["value"] = field.only_value;
    if (!field.shape.empty()) entry["shape"] = field.shape;
    out[field.name] = std::move(entry);
  }
  return out;
}

}  // namespace

std::span<const packet_spec> protocol_packets() { return packets; }

const packet_spec* find_packet(packet_direction direction, std::string_view type) {
  for (const auto& spec : packets) {
    if (spec.direction == direction && spec.type == type) return &spec;
  }
  return nullptr;
}

result<void> validate_packet(const boost::json::object& packet, const packet_spec& spec) {
  return validate_fields(packet, spec.fields, "");
}

boost::json::object protocol_schema() {
  boost::json::object client_packets;
  boost::json::object server_packets;
  for (const auto& spec : packets) {
    boost::json::object entry{{"doc", spec.doc}, {"fields", fields_schema(spec.fields)}};
    (spec.direction == client ? client_packets : server_packets)[spec.type] = std::move(entry);
  }
  return boost::json::object{{"protocol", protocol_version},
                             {"subprotocol", protocol_subprotocol},
                             {"note",
                              "generated from src/parley/server/wire_schema.cpp; every packet also has "
                              "\"type\"; see docs/server.md"},
                             {"client", std::move(client_packets)},
                             {"server", std::move(server_packets)}};
}

}  // namespace parley::server

#include "parley/model/records_classify.hpp"

#include <boost/json/array.hpp>
#include <boost/json/serialize.hpp>

#include <optional>

#include "parley/model/event_codec.hpp"
#include "parley/model/record_uuid.hpp"

namespace parley::records_detail {
namespace {

namespace ev_t = events;

// Seed 002's seven dialogue types (docs/records.md "Dialogue types"): humans alone are a private
// chat when two (①) and a group when more (②); an AI with one human is ③, AIs among themselves ④
// (a Tellask's subdialog), an AI with itself ⑤, one human with several AIs ⑥, AIs among several
// humans ⑦.
ev_t::dialogue_type dialogue_type_of(const ev_t::dialog_created& p) {
  using ev_t::dialogue_type;
  if (p.reflection) return dialogue_type::ai_self;
  if (p.kind == ev_t::dialog_kind::root) {
    const bool group_of_humans = p.humans.size() > 1;
    if (p.members.empty() && (group_of_humans || p.member_id.empty())) {
      return p.humans.size() > 2 ? dialogue_type::human_human_group : dialogue_type::human_human;
    }
    if (p.members.empty()) return dialogue_type::human_ai;
    return group_of_humans ? dialogue_type::human_group_ai : dialogue_type::lio_group;
  }
  return p.call == ev_t::call_kind::fresh_boots_reasoning ? dialogue_type::ai_self : dialogue_type::ai_ai;
}

boost::json::array id_array(const std::vector<std::string>& ids) { return boost::json::array(ids.begin(), ids.end()); }

// Seed 002's image or audio message: its content is where the medium is, its content_meta what
// is known of it, including the words the human sent with it.
void media_message(const ev_t::attachment& attachment, const std::string& words, record_message& msg) {
  msg.content_type =
      attachment.kind == ev_t::attachment_kind::audio ? ev_t::content_type::audio : ev_t::content_type::image;
  msg.content = attachment.url;
  boost::json::object meta{{"format", attachment.format},
                           {"size_kb", attachment.size_kb},
                           {"mime", attachment.mime},
                           {"upload_id", attachment.upload_id}};
  if (!attachment.caption.value_or("").empty()) meta["caption"] = *attachment.caption;
  if (!attachment.transcription.value_or("").empty()) meta["transcription"] = *attachment.transcription;
  if (!attachment.described_by.value_or("").empty()) meta["described_by"] = *attachment.described_by;
  if (!words.empty()) meta["text"] = words;
  msg.content_meta = metadata_text(meta);
}

}  // namespace

std::string id_of(std::string_view kind, const event& ev) {
  return record_uuid(kind, ev.dialog_id + "/" + std::to_string(ev.seq), ev.ts_ms);
}

std::string metadata_text(const boost::json::object& obj) { return boost::json::serialize(obj); }

record_dialogue dialogue_from_created(const event& ev, const ev_t::dialog_created& p) {
  record_dialogue d;
  d.id = dialogue_uuid(ev.dialog_id);
  d.dialog_id = ev.dialog_id;
  d.dialogue_type = dialogue_type_of(p);
  d.ai_id = p.member_id;
  if (!p.parent_id.empty()) d.relation_id = dialogue_uuid(p.parent_id);
  d.created_at = ev.ts_ms;
  d.last_activity_at = ev.ts_ms;
  boost::json::object meta{{"dialogId", ev.dialog_id}, {"rootId", ev.root_id}};
  if (!p.title.empty()) meta["title"] = p.title;
  if (p.call) meta["callKind"] = ev_t::to_wire(*p.call);
  if (!p.humans.empty()) {
    d.human_id = p.humans.front();
    meta["humans"] = id_array(p.humans);
  }
  if (!p.members.empty()) meta["members"] = id_array(p.members);
  // An AI hosting a group of humans answers what nobody is asked by name (docs/server.md).
  if (d.dialogue_type == ev_t::dialogue_type::human_group_ai && !p.member_id.empty()) meta["host"] = p.member_id;
  d.metadata = metadata_text(meta);
  return d;
}

classified classify(const event& ev, const dialog_row& row, const message_row& m) {
  classified out;
  record_message& msg = out.msg;
  msg.content = m.content;
  msg.content_type = ev_t::content_type::text;
  boost::json::object meta{{"course", m.course}};
  const auto* input = ev.as<ev_t::user_message>();
  const auto* reply = ev.as<ev_t::reply_received>();
  if (m.role == ev_t::message_role::user && m.origin == ev_t::message_origin::tellask) {
    // A Tellask: the tellasker's AI asks this dialog's AI.
    msg.sender_role = ev_t::record_role::ai;
    if (input != nullptr && input->assigned) msg.sender_id = input->assigned->caller_member_id;
    meta["origin"] = "tellask";
    out.kind = message_kind::input;
  } else if (m.role == ev_t::message_role::user && m.origin == ev_t::message_origin::reply) {
    msg.sender_role = ev_t::record_role::ai;
    if (reply != nullptr) msg.sender_id = reply->from_member_id;
    meta["origin"] = "reply";
    meta["fromDialogId"] = reply != nullptr ? reply->from_dialog_id : std::string();
    out.kind = message_kind::input;
  } else if (m.role == ev_t::message_role::user && m.origin == ev_t::message_origin::system) {
    msg.sender_role = ev_t::record_role::system;
    msg.content_type = ev_t::content_type::system_context;
    out.kind = message_kind::input;
    out.notes = "runtime prompt inserted into the context";
  } else if (m.role == ev_t::message_role::user) {
    msg.sender_role = ev_t::record_role::human;
    msg.sender_id = m.speaker;
    out.kind = message_kind::input;
    const std::optional<std::string> responder = input != nullptr ? input->responder : std::nullopt;
    if (input != nullptr && input->media) media_message(*input->media, m.content, msg);
    out.to_human = responder && responder->empty();
    if (!out.to_human && responder) meta["responder"] = *responder;
  } else if (m.role == ev_t::message_role::assistant) {
    msg.sender_role = ev_t::record_role::ai;
    msg.sender_id = m.speaker.empty() ? row.member_id : m.speaker;
    meta["genseq"] = m.genseq;
    if (!m.thinking.empty()) meta["thinking"] = m.thinking;
    if (m.interrupted) meta["interrupted"] = true;
    const auto* finished = ev.as<ev_t::generation_finished>();
    if (!m.tool_calls.empty()) {
      msg.content_type = ev_t::content_type::tool_input;
      meta["toolCalls"] = ev_t::encode_value(m.tool_calls);
    }
    if (finished != nullptr && finished->prompt_version) meta["promptVersion"] = *finished->prompt_version;
    const bool input_arrived = finished != nullptr && finished->input_arrived;
    const bool final_saying = m.tool_calls.empty() && !m.interrupted && !input_arrived;
    out.kind = final_saying ? message_kind::answer : message_kind::working;
  } else if (const auto* answer = ev.as<ev_t::question_answered>()) {
    // The human's answer to an askHuman question.
    msg.sender_role = ev_t::record_role::human;
    meta["questionId"] = answer->question_id;
    meta["callId"] = m.tool_call_id;
    out.kind = message_kind::input;
  } else {  // a tool's output, relayed by the system
    msg.sender_role = ev_t::record_role::system;
    msg.content_type = ev_t::content_type::tool_output;
    meta["callId"] = m.tool_call_id;
    meta["name"] = m.tool_name;
    meta["ok"] = m.ok;
    out.notes = "result of " + m.tool_name;
    if (reply != nullptr) meta["fromDialogId"] = reply->from_dialog_id;
  }
  msg.metadata = metadata_text(meta);
  return out;
}

classified flow_message(const flow_main_message& m, const dialog_row& row) {
  classified out;
  out.msg.content = m.text;
  out.msg.content_type = ev_t::content_type::text;
  boost::json::object meta{{"flowMessageId", m.id}};
  if (m.sender == "user") {
    out.msg.sender_role = ev_t::record_role::human;
    if (!row.humans.empty()) out.msg.sender_id = row.humans.front();
    out.kind = message_kind::input;
  } else {
    out.msg.sender_role = ev_t::record_role::ai;
    out.msg.sender_id = row.member_id;
    out.kind = m.placeholder ? message_kind::working : message_kind::answer;
    if (m.placeholder) meta["placeholder"] = true;
  }
  out.msg.metadata = metadata_text(meta);
  return out;
}

classified question_message(const ev_t::question_asked& p, const dialog_row& row) {
  classified out;
  out.kind = message_kind::question;
  out.msg.sender_role = ev_t::record_role::ai;
  out.msg.sender_id = row.member_id;
  out.msg.content = p.tellask_content;
  out.msg.content_type = ev_t::content_type::text;
  out.msg.metadata = metadata_text({{"course", row.course}, {"questionId", p.question_id}, {"callId", p.call_id}});
  return out;
}

}  // namespace parley::records_detail

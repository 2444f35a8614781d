#include "parley/server/log_event_packets.hpp"

#include "parley/model/event_codec.hpp"

namespace parley::server {

std::vector<packet_fields> packets_for(const events::event_payload& payload) {
  namespace json = boost::json;
  const auto wire = [](auto value) { return json::string_view(events::to_wire(value)); };
  std::vector<packet_fields> out;
  const auto one = [&out](std::string_view type, json::object extra) { out.push_back({type, std::move(extra)}); };
  std::visit(
      events::overloaded{
          [&](const events::user_message& p) {
            json::object extra{{"content", p.content}, {"msgId", p.msg_id}, {"origin", wire(p.origin)}};
            // A user's image or recording goes along, so a live transcript can show it as REST does.
            if (p.media) extra["attachment"] = events::encode_object(*p.media);
            one("user_message_evt", std::move(extra));
          },
          [&](const events::generation_started& p) {
            one("generating_start_evt", {{"round", p.round}});
          },
          [&](const events::generation_finished& p) {
            json::object finished{{"finishReason", p.finish_reason},
                                  {"thinking", p.thinking},
                                  {"saying", p.saying},
                                  {"interrupted", p.interrupted},
                                  {"usage", events::encode_object(p.usage)}};
            if (p.stop_reason) finished["stopReason"] = *p.stop_reason;
            one("generating_finish_evt", std::move(finished));
            for (const auto& call : p.tool_calls) {
              one("tool_call_evt", {{"callId", call.id}, {"name", call.name}, {"arguments", call.arguments}});
            }
          },
          [&](const events::tool_result& p) {
            one("tool_result_evt", {{"callId", p.call_id}, {"name", p.name}, {"content", p.content}, {"ok", p.ok}});
          },
          [&](const events::tellask_called& p) {
            one("tellask_call_evt", {{"callId", p.call_id},
                                     {"name", wire(p.name)},
                                     {"subdialogId", p.subdialog_id},
                                     {"targetAgentId", p.target_agent_id},
                                     {"sessionSlug", p.session_slug.value_or("")},
                                     {"tellaskContent", p.tellask_content}});
          },
          [&](const events::reply_received& p) {
            one("tellask_result_evt", {{"callId", p.call_id},
                                       {"name", wire(p.name)},
                                       {"fromDialogId", p.from_dialog_id},
                                       {"fromMemberId", p.from_member_id},
                                       {"kind", wire(p.kind)},
                                       {"content", p.content},
                                       {"ok", p.ok}});
          },
          [&](const events::course_started& p) {
            one("course_update_evt", {{"prompt", p.prompt}});
          },
          [&](const events::generation_discarded& p) {
            // What this generation streamed so far is void; the generation goes on with a new attempt.
            one("genseq_discard_evt", {{"reason", p.reason}});
          },
          [&](const events::question_answered& p) {
            // A human's answer (Q4H) is a message of the dialog like any other: subscribers see it as
            // it is recorded, not at the next reload.
            one("question_answered_evt",
                {{"questionId", p.question_id}, {"callId", p.call_id}, {"content", p.content}, {"msgId", p.msg_id}});
          },
          [](const auto&) {},
      },
      payload);
  return out;
}

}  // namespace parley::server

#include "parley/engine/dialog_tool_args.hpp"

#include "parley/core/json_fields.hpp"
#include "parley/engine/dialog_tools.hpp"

namespace parley::engine {

result<teammate_call_args> read_teammate_call_args(std::string_view tool, const boost::json::object& args) {
  json_fields in(args);
  teammate_call_args out;
  const bool targets = tool == dialog_tool::tellask || tool == dialog_tool::tellask_sessionless;
  if (targets) out.target_agent_id = in.string("targetAgentId");
  if (tool == dialog_tool::tellask) out.session_slug = in.string("sessionSlug");
  out.tellask_content = in.string("tellaskContent");
  PARLEY_TRY(in.status());
  return out;
}

result<self_reflect_args> read_self_reflect_args(const boost::json::object& args) {
  json_fields in(args);
  self_reflect_args out;
  out.goal = in.string("goal");
  out.mood_state = in.optional_string("moodState").value_or("");
  PARLEY_TRY(in.status());
  return out;
}

result<reminder_args> read_reminder_args(std::string_view tool, const boost::json::object& args) {
  json_fields in(args);
  reminder_args out;
  if (tool != dialog_tool::add_reminder) out.reminder_no = in.integer("reminder_no");
  if (tool != dialog_tool::delete_reminder) out.content = in.string("content");
  PARLEY_TRY(in.status());
  return out;
}

result<change_mind_args> read_change_mind_args(const boost::json::object& args) {
  json_fields in(args);
  change_mind_args out;
  out.selector = in.string("selector");
  out.content = in.string("content");
  out.expected_hash = in.optional_string("expectedHash").value_or("");
  PARLEY_TRY(in.status());
  return out;
}

result<clear_mind_args> read_clear_mind_args(const boost::json::object& args) {
  json_fields in(args);
  clear_mind_args out;
  out.reminder_content = in.optional_string("reminder_content").value_or("");
  PARLEY_TRY(in.status());
  return out;
}

}  // namespace parley::engine

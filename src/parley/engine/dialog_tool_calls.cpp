// The dialog tools a model calls (dialog_tools.hpp): whether this dialog is offered the tool, and
// whether its arguments are well formed, checked here for every one of them; then the Tellask
// family goes to the router (tellask_router.hpp) and the working-memory tools to
// working_memory. A refused call is answered to the model as a tool error it can correct.
#include "parley/core/json.hpp"
#include "parley/core/json_read.hpp"
#include "parley/engine/dialog_tools.hpp"
#include "parley/engine/dominds_control.hpp"
#include "parley/engine/dominds_pads.hpp"
#include "parley/engine/drive_loop.hpp"
#include "parley/tools/json_schema.hpp"

namespace parley::engine {
namespace {

tool_reply refuse(std::string message) { return tools::tool_outcome{false, std::move(message)}; }

// Checks made before the schema, for mistakes the seed names: a clearer message than "unknown field".
std::optional<std::string> misplaced_field(std::string_view call, const boost::json::object& raw) {
  if (call == dialog_tool::tellask_back && raw.contains("sessionSlug")) {
    return "tellaskBack takes no sessionSlug: it always goes to your tellasker. Use tellask(...) to reach a "
           "registered session.";
  }
  if (call == dialog_tool::fresh_boots_reasoning && (raw.contains("sessionSlug") || raw.contains("mentionList"))) {
    return "freshBootsReasoning takes neither sessionSlug nor mentionList: it always starts a new tool-less "
           "subdialog of yourself.";
  }
  if (call == dialog_tool::tellask_sessionless && raw.contains("sessionSlug")) {
    return "tellaskSessionless takes no sessionSlug; use tellask(...) for a registered session.";
  }
  return std::nullopt;
}

}  // namespace

result<tool_reply> drive_loop::handle_dialog_tool(dialog_runtime& dialog, const llm::tool_call& call,
                                                  round_effects& fx) {
  // The team's version: its targetAgentId enum refuses an id that is not a member's.
  const auto* spec = members_.dialog_spec(call.name);
  // A text-syntax member makes the same calls through its text, so what it may call is the
  // function-calling set of its place.
  const dialog_place place = dialog.is_fbr()   ? dialog_place::fbr
                             : dialog.is_sub() ? dialog_place::sub
                                               : dialog_place::root;
  const auto* member = members_.find(dialog.speaking_member());
  const bool may_reflect = member != nullptr && member->config->self_reflection;
  const auto& offered = dialog_tool_specs(place, false, may_reflect);
  auto offers = [&](const std::vector<llm::tool_spec>& specs) {
    return std::any_of(specs.begin(), specs.end(), [&](const llm::tool_spec& s) { return s.name == call.name; });
  };
  // Dominds' control tools, for a team from `.minds/` only (dominds_control.hpp).
  const bool dominds_control = members_.offers_dominds_control() && is_dominds_control_tool(call.name);
  // Dominds' scratch pads, for the members given them, in any dialog with tools (dominds_pads.hpp).
  const bool pad = is_pad_tool(call.name) && member != nullptr && member->pads && place != dialog_place::fbr;
  const bool is_offered = offers(offered) || (dominds_control && offers(dominds_control_specs_for(place))) || pad;
  if (is_offered && member != nullptr && !member->offers_dialog_tool(call.name)) {
    return refuse("tool '" + call.name + "' is not offered to member '" + member->config->id +
                  "' (team.yaml dialog_tools)");
  }
  if (!is_offered) {
    if (call.name == dialog_tool::tellask_back) {
      return refuse(
          "tellaskBack is only available inside a subdialog; this is a root dialog. Use askHuman to ask "
          "the human.");
    }
    if (dominds_control && place == dialog_place::sub) return refuse(dominds_control_main_only(call.name));
    if (call.name == dialog_tool::change_mind) {
      return refuse(
          "change_mind is only available in the root dialog; ask your tellasker with tellaskBack to update "
          "the Taskdoc.");
    }
    return refuse("tool '" + call.name + "' is not available in this dialog");
  }
  boost::system::error_code ec;
  const auto raw = read_json(call.arguments.empty() ? std::string_view("{}") : call.arguments, ec);
  if (!ec && raw.is_object()) {
    if (auto problem = misplaced_field(call.name, raw.get_object())) return refuse(*problem);
  }
  auto args = tools::parse_tool_arguments(call.arguments.empty() ? "{}" : call.arguments, spec->parameters);
  if (!args) {
    return refuse("invalid arguments for " + call.name + ": " + args.err().message + ". Fix them and call again.");
  }
  // The Tellask family goes where seed 001's flowchart sends it (tellask_router.hpp).
  if (is_tellask_call(call.name)) return router_.route(dialog, call, *args, fx);
  if (call.name == dialog_tool::change_mind) return memory_.change_mind(dialog, *args);
  if (dominds_control) return run_dominds_control_tool(dialogs_, team_.workspace, dialog, call.name, *args);
  if (pad) {
    const tools::tool_context reads{dialog.id(), member->config->id, team_.workspace, &member->config->access,
                                    &protected_dirs_};
    return run_dominds_pad_tool(dialogs_, reads, dialog, call.name, *args, team_.language);
  }
  if (members_.offers_dominds_control() && is_reminder_tool(call.name)) {
    return run_dominds_reminder_tool(dialogs_, dialog, call.name, *args);
  }
  return memory_.edit_reminders(dialog, call, *args);
}

}  // namespace parley::engine

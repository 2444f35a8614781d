// The tools the engine itself answers, offered to every member next to its configured tools:
// the Tellask family and askHuman (seed 001), reminders, clear_mind and change_mind. Which of them a
// dialog gets depends on where it stands: tellaskBack only inside subdialogs, change_mind only in
// roots, none at all in a Fresh Boots Reasoning subdialog.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "parley/llm/provider.hpp"

namespace parley::engine {

namespace dialog_tool {
inline constexpr std::string_view tellask = "tellask";
inline constexpr std::string_view tellask_sessionless = "tellaskSessionless";
inline constexpr std::string_view tellask_back = "tellaskBack";
inline constexpr std::string_view fresh_boots_reasoning = "freshBootsReasoning";
inline constexpr std::string_view ask_human = "askHuman";
inline constexpr std::string_view add_reminder = "add_reminder";
inline constexpr std::string_view update_reminder = "update_reminder";
inline constexpr std::string_view delete_reminder = "delete_reminder";
inline constexpr std::string_view clear_mind = "clear_mind";
inline constexpr std::string_view change_mind = "change_mind";
inline constexpr std::string_view self_reflect = "selfReflect";
}  // namespace dialog_tool

bool is_dialog_tool(std::string_view name);
// A call that waits for another dialog or the human instead of returning a result at once.
bool is_tellask_call(std::string_view name);

enum class dialog_place { root, sub, fbr };

// The specs a dialog in `place` is offered; `text_syntax` members Tellask in text instead, so they
// get only the working-memory tools. `self_reflection`: the member may call selfReflect.
const std::vector<llm::tool_spec>& dialog_tool_specs(dialog_place place, bool text_syntax,
                                                     bool self_reflection = false);
const llm::tool_spec* find_dialog_tool_spec(std::string_view name);
// Every dialog tool's spec as a team's members are offered it: `targetAgentId` is an enum of the
// team's member ids, so a model sees whom it can ask, and the argument check refuses any other id.
std::vector<llm::tool_spec> team_dialog_tool_specs(const std::vector<std::string>& member_ids);
std::vector<std::string> dialog_tool_names();

}  // namespace parley::engine

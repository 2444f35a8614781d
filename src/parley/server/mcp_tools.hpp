// The tools a Parley team offers as an MCP server (docs/mcp.md, "Parley as an MCP server"):
// `ask_<member id>` for each member a client may delegate to, `answer_question` for the questions
// the team asks the human (Q4H) and `wait_for_answer` for a call that returned "working". Member
// ids are [A-Za-z][A-Za-z0-9_-]* (config/team_rules.hpp), so `ask_<id>` matches the names MCP
// clients and model APIs accept, ^[a-zA-Z0-9_-]{1,64}$, whenever it fits 64 characters.
#pragma once

#include <boost/json/array.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "parley/config/team.hpp"

namespace parley::server {

inline constexpr std::string_view kMemberToolPrefix = "ask_";
inline constexpr std::string_view kAnswerQuestionTool = "answer_question";
inline constexpr std::string_view kWaitForAnswerTool = "wait_for_answer";
inline constexpr std::size_t kMaxToolNameChars = 64;

std::string member_tool_name(std::string_view member_id);
// The members offered, in the team's order: those the engine drives (a flow member's dialogs are
// the flow layer's), not hidden (Dominds' shadow members), whose tool name fits.
std::vector<const config::member_config*> offered_members(const config::team_config& team);
// The offered member a tool name asks; nullptr for any other name.
const config::member_config* member_of_tool(const config::team_config& team, std::string_view tool_name);

// tools/list's `tools` for a client that negotiated `version` (titles and output schemas from
// 2025-06-18 on).
boost::json::array tool_list(const config::team_config& team, std::string_view version);

}  // namespace parley::server

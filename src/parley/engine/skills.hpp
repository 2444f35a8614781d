// Dominds' skills as a member meets them (dominds@1.29.0 skills/load.js, tools/skills.js): an
// index in its system prompt, after the Pitfalls, of the skills it sees (team-shared ones and its
// own) — title, id, scope, description, and how to read the body — and the `read_skill` tool, which
// returns one body. Dominds gives read_skill to every member; Parley offers it to a member that
// sees at least one skill (or names it, or the `skills` toolset), so teams without skills pay
// nothing for it in their prompts.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "parley/config/team.hpp"
#include "parley/tools/tool.hpp"

namespace parley::engine {

inline constexpr std::string_view kReadSkillTool = "read_skill";

// The skills `member_id` sees: team-shared first, then its own.
std::vector<const config::skill_config*> skills_visible_to(const std::vector<config::skill_config>& skills,
                                                           std::string_view member_id);
// The `### Skills` index (English or Chinese, as Dominds words it); empty when there are none.
std::string skills_index(std::string_view language, const std::vector<const config::skill_config*>& skills);
// The read_skill tool over a copy of the team's skills; a member reads only those it sees.
std::unique_ptr<tools::tool> make_read_skill_tool(std::vector<config::skill_config> skills, std::string_view language);

}  // namespace parley::engine

// What the CLI says about a member's model and about token usage, in a language (issue 43 item
// 7): the wording of core/messages.hpp, the values (ids, paths, URLs, numbers) as they are.
// describe_member_model (assembly.hpp) and describe_usage (usage_report.hpp) are the English of
// these, kept for the server's JSON and logs.
#pragma once

#include <string>
#include <string_view>

#include "parley/config/team.hpp"
#include "parley/engine/usage_report.hpp"

namespace parley::engine {

// "the built-in scripted model (offline, script demo.yaml)", "openai model gpt-4o at https://...".
std::string describe_member_model_in(const config::team_config& team, const std::string& member_id,
                                     std::string_view language);
// "1234 in (200 cached) / 567 out (12 reasoning) tokens, 3 calls, $0.0123" in `language`.
std::string describe_usage_in(const usage_totals& totals, std::string_view language);

}  // namespace parley::engine

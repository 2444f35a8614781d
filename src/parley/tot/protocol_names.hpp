// The seed's spellings of the protocol's enumerations, both ways. Reading names the allowed values
// when a text is not one of them.
#pragma once

#include <string>
#include <string_view>

#include "parley/core/result.hpp"
#include "parley/tot/protocol.hpp"

namespace parley::tot {

std::string_view name_of(task_type value);
std::string_view name_of(search_strategy value);
std::string_view name_of(generation_strategy value);
std::string_view name_of(evaluation_strategy value);
std::string_view name_of(node_status value);
std::string_view name_of(agent_role value);
std::string_view name_of(error_code value);  // INVALID_FORMAT ...
// The `type` of a message: "decompose_task" ...
std::string_view type_name_of(const message_payload& payload);

// `field` names the field in the error: "task_type: 'poetry' is not one of math_reasoning, ...".
result<task_type> parse_task_type(std::string_view text, std::string_view field = "task_type");
result<search_strategy> parse_search_strategy(std::string_view text, std::string_view field = "strategy");
result<generation_strategy> parse_generation_strategy(std::string_view text, std::string_view field);
result<evaluation_strategy> parse_evaluation_strategy(std::string_view text, std::string_view field);
result<node_status> parse_node_status(std::string_view text, std::string_view field);
result<agent_role> parse_agent_role(std::string_view text, std::string_view field);
result<error_code> parse_error_code(std::string_view text, std::string_view field);

}  // namespace parley::tot

// Assembles what the model sees for one round: the member's persona as the system prompt and
// the messages of the dialog's current course, in log order.
#pragma once

#include <vector>

#include "parley/config/team.hpp"
#include "parley/engine/dialog_runtime.hpp"
#include "parley/llm/provider.hpp"

namespace parley::engine {

llm::model_request build_model_request(const dialog_runtime& dialog, const config::member_config& member,
                                       const std::vector<llm::tool_spec>& tools, std::int64_t round);

// Converts one projected message back into the provider-neutral form.
llm::chat_message to_chat_message(const message_row& row);

}  // namespace parley::engine

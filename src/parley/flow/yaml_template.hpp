// The templates of YAML flow agents (a Starter's message, a Responsor's feedback). Placeholders:
//   {{main.last_user}}  the last user message of the main thread's first level
//   {{thread.last_bot}} the last bot message of the thread the unit serves (placeholders skipped)
//   {{parent.last_bot}} the same in the thread that holds the served one
//   {{task.message}}    the task's message
// Anything else in {{ }} is refused when the agent is loaded.
#pragma once

#include <string>
#include <string_view>

#include "parley/core/result.hpp"
#include "parley/flow/flow_thread.hpp"
#include "parley/flow/task.hpp"

namespace parley::flow {

result<void> check_template(std::string_view text);
result<std::string> expand_template(std::string_view text, const task& t, flow_thread& main);

}  // namespace parley::flow

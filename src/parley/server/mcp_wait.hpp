// A tools/call waiting for the root dialog it started or went on with (dialog_answers.hpp): until
// the tree is at rest, the call's time runs out (mcp_settings::call_timeout), the client cancels
// it or goes away. Meanwhile each step of the tree is told as notifications/progress when the
// request asked for them (a progressToken). The tree itself never waits for the caller: a call
// that ends early leaves it working, durable in the log.
#pragma once

#include <boost/asio/awaitable.hpp>

#include <memory>
#include <optional>
#include <string>

#include "parley/server/dialog_answers.hpp"
#include "parley/server/mcp_progress.hpp"
#include "parley/server/mcp_request.hpp"
#include "parley/server/mcp_tool_result.hpp"

namespace parley::server {

// The steps a call counts, and the tap that feeds them: give it to the dialog_answers function
// that starts or follows the tree, so that no step is missed.
struct call_progress {
  std::shared_ptr<progress_steps> steps;
  event_tap tap() const;
};
call_progress new_call_progress(std::string member_id);

// How the call ends; nullopt when it was cancelled or its client is gone (no response is sent).
// `waiting_again`: the call posted nothing (wait_for_answer), so when the tree said nothing new
// while followed, the answer is the root's last saying as the log has it.
boost::asio::awaitable<std::optional<call_outcome>> wait_for_outcome(mcp_call_env& env, followed_answer answer,
                                                                     call_progress progress, std::string member_id,
                                                                     bool waiting_again);

}  // namespace parley::server

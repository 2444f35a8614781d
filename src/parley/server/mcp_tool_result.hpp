// How an MCP tool call of Parley's ends (docs/mcp.md, "What a client sees"), and the
// CallToolResult written from it: text for a model (the answer, the questions, what to call next,
// the dialog id) and, from revision 2025-06-18 on, the same as structuredContent.
#pragma once

#include <boost/json/object.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "parley/server/asked_question.hpp"

namespace parley::server {

enum class call_status {
  answered,           // the tree is at rest; `answer` is the root's final saying
  waiting_for_human,  // the tree is at rest and asks the human `questions`
  working,            // the call's time ran out; the tree goes on
  failed,             // the root's drive failed; `error` says why
};
std::string_view wire_name(call_status status);

struct call_outcome {
  call_status status = call_status::answered;
  std::string dialog_id;  // the root dialog
  std::string member_id;  // the root's member
  std::string answer;
  std::vector<asked_question> questions;
  std::string error;
};

boost::json::object tool_result(const call_outcome& outcome, std::string_view version);
// A tool error the caller (a model) can act on: arguments it must fix, a dialog it may not use.
boost::json::object tool_error(std::string message);

}  // namespace parley::server

// The flow side of `run`, `say` and `resume` (verb_flow.cpp): members of kind flow.
#pragma once

#include <optional>
#include <string>

#include "cli_args.hpp"
#include "parley/model/events/dialog_events.hpp"

namespace parley::cli {

struct flow_request {
  std::optional<std::string> dialog_id;  // empty: a new main thread
  std::string member_id;
  std::string message;
  bool resume = false;
  std::string ui_action;  // "retry" or ""
  // Set: the dialog is completed, archived or reopened (flow_runner::set_status), nothing printed.
  std::optional<events::dialog_status> status;
};

// The exit status when the request is for a flow (a member of kind flow, or a flow's dialog);
// nullopt when it is not, and the engine should handle it.
std::optional<int> drive_flow(const parsed_args& args, const flow_request& request);

}  // namespace parley::cli

// The JSON shapes REST and WebSocket share (docs/server.md): DialogSummary and Message.
#pragma once

#include <boost/json/object.hpp>

#include "parley/engine/dialog_runtime.hpp"
#include "parley/model/records.hpp"

namespace parley::server {

boost::json::object dialog_summary_json(const dialog_row& row, bool has_children);
boost::json::object message_json(const message_row& message);
// Adds `resumable` and `resumeReason` (resume_check.hpp) to a DialogSummary of a loaded dialog:
// whether POST resume would drive it, so a client offers Resume only then.
void add_resume_state(boost::json::object& summary, const engine::dialog_runtime& dialog);

}  // namespace parley::server

// The JSON shapes REST and WebSocket share (docs/server.md): DialogSummary and Message.
#pragma once

#include <boost/json/object.hpp>

#include "parley/model/records.hpp"

namespace parley::server {

boost::json::object dialog_summary_json(const dialog_row& row, bool has_children);
boost::json::object message_json(const message_row& message);

}  // namespace parley::server

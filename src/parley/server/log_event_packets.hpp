// The PubChan packets a log event is shown as, when what it shows is in the event itself: a user's
// message, a generation's start and end (with one tool_call_evt per call), a tool's result, a
// Tellask call and reply, a course, a discarded attempt, a human's answer (docs/server.md). Events
// whose packets depend on more than the event (reminders, dialog state, the dialog list) are the
// PubChan's own business; so is the numbering.
#pragma once

#include <boost/json/object.hpp>

#include <string_view>
#include <vector>

#include "parley/model/events/event_payload.hpp"

namespace parley::server {

struct packet_fields {
  std::string_view type;      // the packet's type, e.g. "user_message_evt"
  boost::json::object extra;  // its fields beside the dialog event's head
};

std::vector<packet_fields> packets_for(const events::event_payload& payload);

}  // namespace parley::server

// Seed 004's flows in seed 002's records: a flow's dialog is a human_ai dialogue whose messages are
// the first level of its main thread — the user's messages and the bot's — never what is inside a
// sub-thread (meta._thread) and never a virtual message, as the flow's AIAdapter sends them too.
// The flow layer owns the thread's format; this reads only the few fields the records need, from
// the log's flow events, so the records reducer stays free of the flow layer.
#pragma once

#include <optional>
#include <string>

#include "parley/model/events/flow_events.hpp"

namespace parley {

struct flow_main_message {
  std::string id;      // the thread message's id
  std::string sender;  // "user" | "bot"
  std::string text;
  bool placeholder = false;  // a bot message holding a sub-thread's result to come (meta._step "placeholder")
};

// The main-thread message an append adds, or nullopt when it adds none there (only sub-thread
// messages, settings). The runner adds one main-thread message per event; were there several, the
// last is the one returned.
std::optional<flow_main_message> main_message_added(const events::flow_thread_appended& appended);
// The last first-level message of a whole saved thread (a new thread holds just the user's first).
std::optional<flow_main_message> last_main_message(const events::flow_thread_saved& saved);

}  // namespace parley

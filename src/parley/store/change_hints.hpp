// What the processes sharing one store (PostgreSQL, docs/scale-out.md) tell each other, off the
// write path: hints that a dialog has new events (the events themselves are read from the log), and
// input a user sent to a node that does not drive the input's tree, for the node that does.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "parley/model/event.hpp"
#include "parley/model/records.hpp"

namespace parley {

// Another process appended to a dialog.
struct appended_hint {
  std::string dialog_id;
  std::string root_id;
  std::int64_t seq = 0;       // the dialog's last seq as that process appended it
  bool created = false;       // the dialog was created by those events (its parent shows it)
  bool list_changed = false;  // a root whose entry in the list of dialogs changed (created, status)
};

struct change_hints {
  std::vector<appended_hint> appended;
  std::vector<std::string> inputs_for;  // roots with forwarded input waiting (store::forward_input)
  // Hints may have been lost (the listening connection was re-established): whoever watches
  // catches up on everything it watches by reading the log.
  bool missed = false;
};

// Runs on a thread of the store's; must not block.
using change_handler = std::function<void(change_hints)>;

// A watched dialog's row and the events past what its watcher had (store::read_since).
struct dialog_since {
  dialog_row row;
  std::vector<event> events;  // in seq order
};

// A user's message or answer posted on a node that does not hold the tree's lease, kept in the
// store until the node that does has made it durable in the log.
struct forwarded_input {
  std::int64_t id = 0;  // the store's, for drop_input
  std::string root_id;
  std::string dialog_id;
  std::string question_id;  // the question an answer answers; "" for a message
  std::string content;
  std::string msg_id;  // never empty: the owner's find_input makes a second delivery a no-op
  std::string from;    // the user who sent it
};

}  // namespace parley

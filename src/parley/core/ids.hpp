// Identifiers: random UUIDv4 text for dialogs, messages, questions and tool calls.
#pragma once

#include <string>

namespace parley {

std::string new_uuid();
// Dialog ids: 16 lowercase hex digits, increasing with time within a process (52 bits of
// milliseconds-and-counter, then 12 random bits). Time order keeps the log's indexes
// append-mostly, which is what makes group commits cheap.
std::string new_dialog_id();

}  // namespace parley

// Identifiers: random UUIDv4 text for dialogs, messages, questions and tool calls.
#pragma once

#include <string>

namespace parley {

std::string new_uuid();
// A shorter id for places humans type (dialog ids in the CLI): 12 lowercase hex digits.
std::string new_short_id();

}  // namespace parley

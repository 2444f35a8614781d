// A transcript as the CLI prints it (`parley show`, and the verbs that go through a running
// server): a human's message under its time and origin, a model's saying indented, each tool call
// as "→ name arguments", a tool's result under "← name".
#pragma once

#include "parley/model/records.hpp"

namespace parley::cli {

void print_transcript_line(const message_row& row);

}  // namespace parley::cli

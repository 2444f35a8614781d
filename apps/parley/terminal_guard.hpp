// Output to a terminal never carries control characters from outside (issue 36): whatever a verb
// prints — a model's answer, a tool's output, a file name, a title, an error naming any of them —
// goes through terminal_escaper (core/terminal_text.hpp) on its way to stdout and stderr. The
// guard sits on the streams themselves, so a verb added later cannot forget it. The CLI's own
// colours are the one thing written around it, by write_terminal_control.
#pragma once

#include <string_view>

namespace parley::cli {

// Replaces stdout and stderr by streams that escape control characters other than newline and tab
// before writing to file descriptors 1 and 2. Called once, first thing in main.
void guard_terminal_output();

// Writes one of the CLI's own escape sequences (a colour) to stdout as it is, in order with what
// was printed before it.
void write_terminal_control(std::string_view sequence);

}  // namespace parley::cli

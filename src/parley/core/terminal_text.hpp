// Text from outside — a model's answer, a tool's output, a file name, a title a user typed — on
// its way to a terminal (issue 36). A terminal acts on control characters: ESC starts sequences
// that recolour, move the cursor, retitle the window or (on some terminals) write files, and a
// bare CR overwrites what was shown. Only newline and tab pass; every other C0 control, DEL and
// the C1 controls (U+0080–U+009F, which some terminals also obey) are shown escaped as \xNN
// (\u0080 … \u009f for C1), so the user sees what was there and nothing acts on it.
#pragma once

#include <string>
#include <string_view>

namespace parley {

// Escapes a stream that arrives in pieces: a C1 control split between two pieces is still found
// (its first byte is held back until the next piece, or `finish`).
class terminal_escaper {
 public:
  // The safe form of `bytes`, given everything fed before.
  std::string feed(std::string_view bytes);
  // What was held back at the end of the stream.
  std::string finish();

 private:
  bool pending_c2_ = false;  // the last piece ended with 0xC2, the lead byte of U+0080–U+00BF
};

// The safe form of one whole text.
std::string terminal_safe(std::string_view text);

}  // namespace parley

// A Dominds scratch pad (ws_mod's pad_* tools, dominds_pads.hpp) as data: its id, its lines and
// what it says about itself. A pad is one of its dialog's reminders, whose text is Dominds' display
// block ("[Scratch Pad]", the pad_id / intent / completion / lifecycle / source lines, a note, and a
// fenced body of "   N| line" lines); render_pad writes that block and parse_pad reads it back, so
// a pad is stored, replayed and shown to the model exactly as any reminder is, with no store of its
// own. The line ranges are Dominds' ('10~50', '300~', '~20', '~', 'N'), with its append position
// 'N~' where N is one past the last line.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parley/core/result.hpp"

namespace parley::engine {

// A pad's text is its lines (each ends with a newline when written out); Parley folds the
// metadata onto one line, as the display block has one line for each.
struct scratch_pad {
  std::string id;
  std::vector<std::string> lines;
  std::optional<std::string> intent;
  std::optional<std::string> completion;
  std::optional<std::string> source_note;
  bool delete_when_done = true;
  // The language of its display block's notes, as Dominds writes them: "en" or "zh" (the team's
  // work language when the pad was made; kept by every later change of the pad).
  std::string language = "en";
};

// At most this many bytes of text in one pad: it is in every prompt of its dialog.
inline constexpr std::size_t kMaxPadBytes = 256 * 1024;

// Dominds' pad_id: /^[A-Za-z0-9_-]{1,64}$/ after trimming; the error names `field`.
result<std::string> normalize_pad_id(std::string_view raw, std::string_view field);

// The reminder text that is the pad (in the pad's language), and the pad a reminder text is, in
// either language (nullopt: another reminder).
std::string render_pad(const scratch_pad& pad);
std::optional<scratch_pad> parse_pad(std::string_view reminder);

// Dominds' split of a text into lines: "" has none; a final newline ends the last line.
std::vector<std::string> pad_text_lines(std::string_view text);
// Dominds' split of inserted text: "" is no line; one final newline is dropped, so "\n" is one empty line.
std::vector<std::string> pad_body_lines(std::string_view text);
std::size_t pad_bytes(const std::vector<std::string>& lines);

// A range of `total` lines: [first, last] (1-based), or the append position after the last line.
struct pad_range {
  std::size_t first = 1;
  std::size_t last = 0;
  bool append = false;
};
// Errors name `field` and say what is wrong ("range: '7~9' is out of bounds: the pad has 3 lines").
result<pad_range> parse_pad_range(std::string_view spec, std::size_t total, std::string_view field);
// The lines `spec` selects (an append position is refused).
result<std::vector<std::string>> select_pad_lines(const std::vector<std::string>& lines, std::string_view spec,
                                                  std::string_view field);
// `lines` with the range `spec` replaced by `replacement` (appended at an append position).
result<std::vector<std::string>> replace_pad_lines(const std::vector<std::string>& lines, std::string_view spec,
                                                   std::string_view field, const std::vector<std::string>& replacement);

}  // namespace parley::engine

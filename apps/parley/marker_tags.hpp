// Seed 001's content markers (【最终完成】, 【FBR-直接回复】, 【FBR-仅推理】, 【tellaskBack】) and the
// runtime's 【运行时自动继续】 are protocol between dialogs, not words for people (issue 43): where
// the CLI shows a message (`parley run` as it streams, `parley show`), a marker that opens it is
// shown as a short tag in the team's language ("[final reply]", "[最终回复]"), the rest as written.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace parley::cli {

// The team's `language` ("zh", else English), set once a verb knows its team.
void set_marker_language(std::string_view language);

// `text` with a marker at its start (after leading whitespace) replaced by its tag.
std::string tag_markers(std::string_view text);

// For a stream: whether `start`, the first bytes of a message, may still grow into a marker (so
// the printer holds them back until it knows).
bool may_become_marker(std::string_view start);

}  // namespace parley::cli

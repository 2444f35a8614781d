// The patch format GPT-5 and Codex models are trained to send to an apply_patch tool ("Codex
// apply_patch"), parsed and applied to text, for apply_patch beside unified diffs. Pure: no file
// access here.
//
//   *** Begin Patch
//   *** Add File: <path>          then every line of the new file written as '+<line>'
//   *** Delete File: <path>
//   *** Update File: <path>
//   *** Move to: <path>           optional, right after Update File: the file is renamed
//   @@ <anchor>                   optional; a line of the file the hunk comes after. Several in a
//                                 row narrow successively; a bare '@@' only starts a hunk
//    context / -removed / +added  the hunk's lines
//   *** End of File               optional: the hunk matches only at the end of the file
//   *** End Patch
//
// Hunks carry no line numbers. Each is searched for below the previous one (and below its anchor
// lines): its old lines (context and removals) exactly, failing that ignoring trailing whitespace,
// failing that ignoring leading and trailing whitespace, since models copy indentation and line
// ends carelessly. A hunk with no old lines inserts right after its last anchor, or at the end of
// the file when it has none.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/tools/unified_diff.hpp"

namespace parley::tools {

struct codex_line {
  char kind = ' ';   // ' ' context, '-' removed, '+' added
  std::string text;  // without the kind and without terminator
};

struct codex_hunk {
  std::size_t patch_line = 0;        // 1-based line of the patch where the hunk starts
  std::vector<std::string> anchors;  // the '@@ <anchor>' lines before it, outermost first
  std::vector<codex_line> lines;
  bool end_of_file = false;
  // How messages name the hunk: "patch line 7, @@ def total():".
  std::string label() const;
};

enum class codex_action { add, update, remove };

struct codex_file_change {
  codex_action action = codex_action::update;
  std::string path;
  std::size_t patch_line = 0;     // the '*** ... File:' line
  std::string content;            // add: the new file's text
  std::string move_to;            // update: the new path, or empty when the file stays
  std::vector<codex_hunk> hunks;  // update; none only for a pure rename
};

// True when the first non-blank line is "*** Begin Patch": the patch is in this format.
bool is_codex_patch(std::string_view patch);

// Errors (errc::invalid_argument) name the patch line and what was expected there.
result<std::vector<codex_file_change>> parse_codex_patch(std::string_view patch);

enum class match_looseness { exact, trailing_whitespace, surrounding_whitespace };

// "ignoring trailing whitespace" ...; empty for an exact match.
std::string_view describe(match_looseness how);

struct loose_match {
  std::size_t number = 0;  // 1-based within its file
  match_looseness how = match_looseness::exact;
};

struct codex_patched_text {
  std::string text;
  std::vector<hunk_rejection> rejected;  // header: the hunk's label()
  std::vector<loose_match> loose;        // hunks (or their anchors) that matched only loosely
};

// Applies every hunk it can; the text is meaningful only when none was rejected. Added lines end
// like the file's lines do ("\r\n" when its first line does).
codex_patched_text apply_codex_hunks(std::string_view original, const std::vector<codex_hunk>& hunks);

}  // namespace parley::tools

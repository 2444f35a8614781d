// A title for a root dialog that was given none, made from its first message, as chat products do
// (issue 24): dialogs in a list, a tree and `parley dialogs` can then be told apart.
#pragma once

#include <string>
#include <string_view>

namespace parley::engine {

// At most this many characters (code points) before the "…".
inline constexpr std::size_t kTitleMaxChars = 60;

// The first line with words in it, Markdown markers at its start (`#`, `>`, list bullets) and runs
// of whitespace reduced; longer than kTitleMaxChars, cut at the last word that fits (or inside
// one when a single word is too long) and ended with "…". Empty for a message of no words.
std::string title_from_message(std::string_view message);

}  // namespace parley::engine

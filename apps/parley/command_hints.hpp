// The commands the CLI prints for the user to type next (issue 43): "see `parley questions`",
// "answer: parley answer …", "next page: …", "did you mean …; try: …". Each carries the options
// that told this command where its dialogs and team are (--data, --store, --team, --workspace,
// --allow-data-in-workspace) as the user gave them, every word shell-quoted, so that a hint
// pasted into the same shell in the same folder finds the same dialogs.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace parley::cli {

// Called once by main with the verb and the arguments after it.
void set_hint_context(std::string_view verb, const std::vector<std::string>& args);

// `word` as one POSIX shell word: as it is when it holds only characters no shell treats
// specially, else in single quotes ('' for the empty word).
std::string shell_quoted(std::string_view word);

// A flag of a hint: {"cursor", "C"}; a switch has an empty value ({"json", ""}).
using hint_option = std::pair<std::string, std::string>;

// "parley VERB [the context options VERB accepts] [extra] WORDS...", every word shell-quoted.
std::string hint_command(std::string_view verb, const std::vector<std::string>& words = {},
                         const std::vector<hint_option>& extra = {});

// The command line this process was given, corrected for a "did you mean" that names the whole
// command: with the verb replaced by `verb`; with every value of --`flag` replaced by `value`.
std::string command_with_verb(std::string_view verb);
std::string command_with_flag_value(std::string_view flag, std::string_view value);

// For an argument list the verb's parser refuses with an unknown option that is close to one it
// knows: "unknown option --tema (did you mean --team?); try: parley run --team x y". Empty when
// the arguments parse or no flag is close.
std::string unknown_option_with_correction(std::string_view verb, const std::vector<std::string>& args);

}  // namespace parley::cli

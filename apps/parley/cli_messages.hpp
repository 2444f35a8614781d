// The CLI's fixed lines in the team's language (issue 43 item 7): the catalog of core/messages.hpp
// read with the language of the team this command loaded (English until it loads one).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

#include "parley/core/messages.hpp"
#include "parley/core/result.hpp"

namespace parley::cli {

// Called when a verb knows its team (load_team does): the CLI's messages and the seed markers'
// tags (marker_tags.hpp) follow `language` from then on.
void set_cli_language(std::string_view language);
std::string_view cli_language();

// `id` in the CLI's language, its placeholders filled.
std::string say_cli(msg id, std::initializer_list<msg_arg> args = {});
// `one` when n is 1, else `many` with {n} filled: "1 event", "3 events".
std::string say_count_cli(msg one, msg many, std::int64_t n);

// The language a command without a team speaks: PARLEY_LANG, else the locale (LC_ALL, LC_MESSAGES,
// LANG, the first one set); "zh" when it names Chinese (zh, zh_CN.UTF-8, ...), else "en".
std::string language_of_environment();

// An error from any layer as the CLI prints it after "parley: ": in English its message as it is;
// in Chinese the kind of error (its code) said first, the message (field names, values) verbatim.
std::string error_text(const error& err);
// "problem: TEXT", "warning: TEXT", "note: TEXT" in the CLI's language.
std::string problem_line(std::string_view text);
std::string warning_line(std::string_view text);
std::string note_line(std::string_view text);

}  // namespace parley::cli

// The CLI's fixed lines in the team's language (issue 43 item 7): the catalog of core/messages.hpp
// read with the language of the team this command loaded (English until it loads one).
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>

#include "parley/core/messages.hpp"

namespace parley::cli {

// Called when a verb knows its team (load_team does): the CLI's messages and the seed markers'
// tags (marker_tags.hpp) follow `language` from then on.
void set_cli_language(std::string_view language);
std::string_view cli_language();

// `id` in the CLI's language, its placeholders filled.
std::string say_cli(msg id, std::initializer_list<msg_arg> args = {});

}  // namespace parley::cli

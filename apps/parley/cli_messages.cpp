#include "cli_messages.hpp"

#include "marker_tags.hpp"

namespace parley::cli {
namespace {

// One command, one team: set once, read by every line printed after.
std::string& cli_language_setting() {
  static std::string language = "en";
  return language;
}

}  // namespace

void set_cli_language(std::string_view language) {
  cli_language_setting() = language == "zh" ? "zh" : "en";
  set_marker_language(language);
}

std::string_view cli_language() { return cli_language_setting(); }

std::string say_cli(msg id, std::initializer_list<msg_arg> args) { return say(id, cli_language(), args); }

}  // namespace parley::cli

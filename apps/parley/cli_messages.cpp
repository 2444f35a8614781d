#include "cli_messages.hpp"

#include <array>
#include <cstdlib>
#include <utility>

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

std::string say_count_cli(msg one, msg many, std::int64_t n) {
  return n == 1 ? say_cli(one) : say_cli(many, {{"n", std::to_string(n)}});
}

std::string language_of_environment() {
  // POSIX's order for messages: LC_ALL over LC_MESSAGES over LANG; PARLEY_LANG over all of them.
  for (const char* name : {"PARLEY_LANG", "LC_ALL", "LC_MESSAGES", "LANG"}) {
    const char* value = std::getenv(name);
    if (value == nullptr || *value == '\0') continue;
    return std::string_view(value).starts_with("zh") ? "zh" : "en";
  }
  return "en";
}

namespace {

msg kind_message_of(errc code) {
  static constexpr std::array<std::pair<errc, msg>, 12> kinds{{
      {errc::invalid_argument, msg::err_invalid_argument},
      {errc::not_found, msg::err_not_found},
      {errc::conflict, msg::err_conflict},
      {errc::limit_exceeded, msg::err_limit_exceeded},
      {errc::config_error, msg::err_config_error},
      {errc::io_error, msg::err_io_error},
      {errc::corrupt, msg::err_corrupt},
      {errc::provider_error, msg::err_provider_error},
      {errc::cancelled, msg::err_cancelled},
      {errc::internal, msg::err_internal},
      {errc::storage_full, msg::err_storage_full},
      {errc::unavailable, msg::err_unavailable},
  }};
  for (const auto& [kind, id] : kinds) {
    if (kind == code) return id;
  }
  return msg::err_internal;
}

}  // namespace

std::string error_text(const error& err) {
  if (cli_language() != "zh") return err.message;
  // A usage line is already in the language: it needs no kind before it.
  if (err.message.starts_with(say_cli(msg::usage_head))) return err.message;
  return say_cli(msg::error_with_kind, {{"kind", say_cli(kind_message_of(err.code))}, {"message", err.message}});
}

std::string problem_line(std::string_view text) { return say_cli(msg::line_problem, {{"text", text}}); }
std::string warning_line(std::string_view text) { return say_cli(msg::line_warning, {{"text", text}}); }
std::string note_line(std::string_view text) { return say_cli(msg::line_note, {{"text", text}}); }

}  // namespace parley::cli

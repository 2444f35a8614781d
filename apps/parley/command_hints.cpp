#include "command_hints.hpp"

#include <array>

#include "cli_args.hpp"
#include "cli_context.hpp"
#include "cli_messages.hpp"
#include "parley/core/text.hpp"
#include "verb_usage.hpp"

namespace parley::cli {
namespace {

// The options that say where the dialogs and the team are: a hint without them looks elsewhere.
constexpr std::array<std::string_view, 4> kContextValueFlags = {"data", "store", "team", "workspace"};

struct hint_context {
  std::string verb;
  std::vector<std::string> args;
  std::vector<hint_option> options;  // the context options given, in the order given
};

hint_context& hint_context_slot() {
  static hint_context context;
  return context;
}

bool is_context_value_flag(std::string_view name) {
  for (const auto flag : kContextValueFlags) {
    if (flag == name) return true;
  }
  return false;
}

// A verb this binary does not know (a typo being corrected) has no spec: its arguments are read
// for the context flags alone, `--flag value` and `--flag=value`, up to `--`.
std::vector<hint_option> scan_context_options(const std::vector<std::string>& args) {
  std::vector<hint_option> found;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") break;
    if (arg.rfind("--", 0) != 0) continue;
    std::string name = arg.substr(2);
    const auto eq = name.find('=');
    std::string value;
    if (eq != std::string::npos) {
      value = name.substr(eq + 1);
      name.resize(eq);
    } else if (is_context_value_flag(name) && i + 1 < args.size()) {
      value = args[++i];
    }
    if (is_context_value_flag(name)) found.emplace_back(name, value);
    if (name == kAllowDataInWorkspace) found.emplace_back(name, "");
  }
  return found;
}

std::vector<hint_option> context_options_of(std::string_view verb, const std::vector<std::string>& args) {
  auto parsed = parse_args(args, arg_spec_of(verb));
  if (!parsed) return scan_context_options(args);
  std::vector<hint_option> found;
  for (const auto flag : kContextValueFlags) {
    if (const auto value = parsed->value(std::string(flag))) found.emplace_back(std::string(flag), *value);
  }
  if (parsed->has(kAllowDataInWorkspace)) found.emplace_back(kAllowDataInWorkspace, "");
  return found;
}

bool accepts(const arg_spec& spec, const hint_option& option) {
  return option.second.empty() ? spec.switches.count(option.first) != 0 : spec.value_flags.count(option.first) != 0;
}

void append_option(std::string& out, const hint_option& option) {
  out += " --" + option.first;
  if (!option.second.empty()) out += " " + shell_quoted(option.second);
}

std::string quoted_words(std::string_view verb, const std::vector<std::string>& args) {
  std::string out = "parley " + std::string(verb);
  for (const auto& arg : args) out += " " + shell_quoted(arg);
  return out;
}

}  // namespace

void set_hint_context(std::string_view verb, const std::vector<std::string>& args) {
  hint_context_slot() = hint_context{std::string(verb), args, context_options_of(verb, args)};
}

std::string shell_quoted(std::string_view word) {
  bool plain = !word.empty();
  for (const char c : word) {
    const bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      std::string_view("_-./:=@%+,").find(c) != std::string_view::npos;
    plain = plain && safe;
  }
  if (plain) return std::string(word);
  std::string out = "'";
  for (const char c : word) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

std::string hint_command(std::string_view verb, const std::vector<std::string>& words,
                         const std::vector<hint_option>& extra) {
  const arg_spec& spec = arg_spec_of(verb);
  std::string out = "parley " + std::string(verb);
  for (const auto& option : hint_context_slot().options) {
    if (accepts(spec, option)) append_option(out, option);
  }
  for (const auto& option : extra) append_option(out, option);
  // A word that looks like an option is still a positional after `--`.
  bool ended = false;
  for (const auto& word : words) {
    if (!ended && word.rfind("-", 0) == 0) {
      out += " --";
      ended = true;
    }
    out += " " + shell_quoted(word);
  }
  return out;
}

std::string command_with_verb(std::string_view verb) { return quoted_words(verb, hint_context_slot().args); }

std::string command_with_flag_value(std::string_view flag, std::string_view value) {
  const auto& context = hint_context_slot();
  std::vector<std::string> args = context.args;
  const std::string spelled = "--" + std::string(flag);
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--") break;
    if (args[i] == spelled && i + 1 < args.size()) {
      args[++i] = std::string(value);
    } else if (args[i].rfind(spelled + "=", 0) == 0) {
      args[i] = spelled + "=" + std::string(value);
    }
  }
  return quoted_words(context.verb, args);
}

std::string unknown_option_with_correction(std::string_view verb, const std::vector<std::string>& args) {
  const arg_spec& spec = arg_spec_of(verb);
  if (parse_args(args, spec)) return {};
  std::vector<std::string> known(spec.value_flags.begin(), spec.value_flags.end());
  known.insert(known.end(), spec.switches.begin(), spec.switches.end());
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--" || arg == "--help" || arg == "-h") return {};
    if (arg.rfind("--", 0) != 0 || arg.size() == 2) continue;
    const auto eq = arg.find('=');
    const std::string name = arg.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
    if (spec.switches.count(name) != 0) continue;
    if (spec.value_flags.count(name) != 0) {
      if (eq == std::string::npos) ++i;
      continue;
    }
    const std::string best = closest_match(name, known);
    if (best.empty()) return {};
    std::vector<std::string> corrected = args;
    corrected[i] = "--" + best + (eq == std::string::npos ? "" : arg.substr(eq));
    // Only a correction that leaves a command line the verb takes is offered as one.
    if (!parse_args(corrected, spec)) return {};
    return say_cli(msg::unknown_option_try,
                   {{"name", name}, {"best", best}, {"command", quoted_words(verb, corrected)}});
  }
  return {};
}

}  // namespace parley::cli

#include "cli_args.hpp"

#include <charconv>
#include <cmath>

#include "parley/core/text.hpp"

namespace parley::cli {

std::optional<std::string> parsed_args::value(const std::string& flag) const {
  const auto it = values.find(flag);
  if (it == values.end()) return std::nullopt;
  return it->second;
}

std::vector<std::string> parsed_args::values_of(const std::string& flag) const {
  const auto it = all_values.find(flag);
  return it == all_values.end() ? std::vector<std::string>{} : it->second;
}

namespace {

// Flags whose value is free text (a reason, a goal, a search): it may span lines. Every other
// flag's value is a name, an id, a path or a number: one line of visible text.
bool free_text_flag(std::string_view name) { return name == "reason" || name == "reflect-goal" || name == "q"; }

// A flag's value holds no control character but tab and (in free text) newline. Nothing a user
// means is lost: such a byte in a name is a paste gone wrong.
result<void> check_flag_value(std::string_view name, std::string_view value) {
  const bool free_text = free_text_flag(name);
  const auto bad = first_control_character(value, free_text ? "\t\n" : "\t");
  if (!bad) return ok();
  return make_error(errc::invalid_argument,
                    "--" + std::string(name) + ": " + *bad + (free_text ? "" : "; give one line of visible text"));
}

}  // namespace

result<parsed_args> parse_args(const std::vector<std::string>& args, const arg_spec& spec) {
  parsed_args parsed;
  std::vector<std::string> known(spec.value_flags.begin(), spec.value_flags.end());
  known.insert(known.end(), spec.switches.begin(), spec.switches.end());
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") {
      parsed.positionals.insert(parsed.positionals.end(), args.begin() + static_cast<long>(i) + 1, args.end());
      break;
    }
    if (arg == "--help" || arg == "-h") {
      parsed.help = true;
      return parsed;
    }
    if (arg.rfind("--", 0) != 0 || arg.size() == 2) {
      parsed.positionals.push_back(arg);
      continue;
    }
    std::string name = arg.substr(2);
    std::optional<std::string> inline_value;
    if (const auto eq = name.find('='); eq != std::string::npos) {
      inline_value = name.substr(eq + 1);
      name.resize(eq);
    }
    if (spec.switches.count(name) != 0) {
      if (inline_value) return make_error(errc::invalid_argument, "--" + name + " takes no value");
      parsed.switches.insert(name);
    } else if (spec.value_flags.count(name) != 0) {
      if (!inline_value) {
        if (i + 1 >= args.size()) return make_error(errc::invalid_argument, "--" + name + " needs a value");
        inline_value = args[++i];
      }
      PARLEY_TRY(check_flag_value(name, *inline_value));
      parsed.values[name] = *inline_value;
      parsed.all_values[name].push_back(*inline_value);
    } else {
      std::string hint = closest_match(name, known);
      return make_error(errc::invalid_argument,
                        "unknown option --" + name + (hint.empty() ? "" : " (did you mean --" + hint + "?)"));
    }
  }
  return parsed;
}

result<std::optional<std::int64_t>> parsed_args::integer(const std::string& flag, std::int64_t min,
                                                         std::int64_t max) const {
  const auto text = value(flag);
  if (!text) return std::optional<std::int64_t>{};
  std::int64_t number = 0;
  const auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), number);
  if (ec != std::errc{} || end != text->data() + text->size() || number < min || number > max) {
    const bool ranged =
        min != std::numeric_limits<std::int64_t>::min() || max != std::numeric_limits<std::int64_t>::max();
    const std::string range = ranged ? " from " + std::to_string(min) + " to " + std::to_string(max) : "";
    return make_error(errc::invalid_argument,
                      "--" + flag + ": expected a whole number" + range + ", got '" + text->substr(0, 40) + "'");
  }
  return std::optional<std::int64_t>{number};
}

result<std::optional<double>> parsed_args::number(const std::string& flag) const {
  const auto text = value(flag);
  if (!text) return std::optional<double>{};
  double number = 0;
  const auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), number);
  if (ec != std::errc{} || end != text->data() + text->size() || !std::isfinite(number)) {
    return make_error(errc::invalid_argument, "--" + flag + ": expected a number, got '" + text->substr(0, 40) + "'");
  }
  return std::optional<double>{number};
}

}  // namespace parley::cli

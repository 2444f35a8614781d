#include "cli_args.hpp"

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

}  // namespace parley::cli

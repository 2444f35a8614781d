// A small command-line parser: `--flag value`, `--flag=value`, boolean switches and positionals.
// Unknown flags are usage errors with a "did you mean" hint.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "parley/core/result.hpp"

namespace parley::cli {

struct arg_spec {
  std::set<std::string> value_flags;  // flags that take a value, without the leading "--"
  std::set<std::string> switches;     // flags without a value
};

struct parsed_args {
  std::map<std::string, std::string> values;                   // the last value of each flag
  std::map<std::string, std::vector<std::string>> all_values;  // every value, in order, for repeatable flags
  std::set<std::string> switches;
  std::vector<std::string> positionals;

  std::optional<std::string> value(const std::string& flag) const;
  // Every value a repeatable flag was given (`--f a --f b` → {a, b}); empty when absent.
  std::vector<std::string> values_of(const std::string& flag) const;
  bool has(const std::string& flag) const { return switches.count(flag) != 0; }
};

result<parsed_args> parse_args(const std::vector<std::string>& args, const arg_spec& spec);

}  // namespace parley::cli

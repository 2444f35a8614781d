// A small command-line parser: `--flag value`, `--flag=value`, boolean switches and positionals.
// Unknown flags are usage errors with a "did you mean" hint.
#pragma once

#include <cstdint>
#include <limits>
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
  // --flag N: a whole number from `min` to `max`; nullopt when absent. The error names the flag,
  // the range (when there is one) and what was given ("--limit: expected a whole number from 1 to
  // 500, got '0'"). Without a range, what the value means is checked where it is used.
  result<std::optional<std::int64_t>> integer(const std::string& flag,
                                              std::int64_t min = std::numeric_limits<std::int64_t>::min(),
                                              std::int64_t max = std::numeric_limits<std::int64_t>::max()) const;
  // --flag X: a finite decimal number; nullopt when absent.
  result<std::optional<double>> number(const std::string& flag) const;
  // `--help` or `-h` where an option may stand (not after `--`, not as an option's value): the
  // verb shows its usage and does nothing else.
  bool help = false;
};

result<parsed_args> parse_args(const std::vector<std::string>& args, const arg_spec& spec);

}  // namespace parley::cli

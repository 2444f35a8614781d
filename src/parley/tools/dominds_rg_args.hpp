// The rg flags Dominds' ripgrep_search takes in `rg_args`, read against an allowlist: only flags
// that change what matches or how the answer is laid out, never where rg looks, what it runs or
// which rules it reads (`--pre`, `-z`/`--search-zip`, `--ignore-file`, `-L`/`--follow`, paths ...
// are refused, each named). Private to tools/.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "parley/core/result.hpp"

namespace parley::tools::dominds_detail {

struct rg_raw_args {
  std::optional<std::string> case_mode;  // "smart", "sensitive" or "insensitive": the last case flag
  bool fixed_strings = false;
  std::vector<std::string> globs;  // -g / --glob
  std::int64_t before = 0;         // -B / -C, at most 10
  std::int64_t after = 0;          // -A / -C, at most 10
  // Flags passed to rg as they are: --word-regexp, --line-regexp, --hidden, --type=T, --type-not=T.
  std::vector<std::string> vetted_flags;
};

// The error names the refused argument and says why, or lists what is allowed.
result<rg_raw_args> read_rg_args(const std::vector<std::string>& args);

}  // namespace parley::tools::dominds_detail

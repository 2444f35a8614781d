// Reads a whole file that Parley was pointed at (a team file, a script, a users file, an index).
// Only regular files are read, and only up to a bound: a path naming a directory, a FIFO (which
// would block the read forever) or a device such as /dev/zero (which never ends) is refused with
// an error that says which it is, never reported as "not found" or read without end.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>

#include "parley/core/result.hpp"

namespace parley {

inline constexpr std::size_t kMaxConfigFileBytes = std::size_t{16} << 20;

// Errors (with `code`, naming the file): no such file, a directory, not a regular file, larger
// than `max_bytes`, unreadable.
result<std::string> read_regular_file(const std::filesystem::path& file, errc code,
                                      std::size_t max_bytes = kMaxConfigFileBytes);

}  // namespace parley

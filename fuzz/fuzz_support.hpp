// What the fuzz targets share: invariant checks that stop the run (libFuzzer then saves the input
// as a crash), a temporary folder that cleans up after itself, and splitting one input into parts.
#pragma once

#include <boost/json/value.hpp>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "parley/core/result.hpp"

namespace parley::fuzz {

[[noreturn]] inline void fail(const char* condition, std::string_view detail, const char* file, int line) {
  std::fprintf(stderr, "%s:%d: invariant violated: %s\n  %.*s\n", file, line, condition,
               static_cast<int>(std::min<std::size_t>(detail.size(), 4000)), detail.data());
  std::abort();
}

// FUZZ_CHECK(condition, detail): `detail` (anything convertible to std::string_view) is only
// evaluated when the condition fails.
#define FUZZ_CHECK(condition, detail) \
  ((condition) ? void(0) : ::parley::fuzz::fail(#condition, (detail), __FILE__, __LINE__))

// For set-up steps that cannot fail unless something is badly wrong.
inline void must(const result<void>& done, std::string_view what) {
  FUZZ_CHECK(done.has_value(), std::string(what) + ": " + done.err().message);
}

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// The parts of `input` between occurrences of `separator` (a line of its own in the corpus files).
inline std::vector<std::string_view> split_parts(std::string_view input, std::string_view separator) {
  std::vector<std::string_view> parts;
  while (true) {
    const std::size_t at = input.find(separator);
    if (at == std::string_view::npos) {
      parts.push_back(input);
      return parts;
    }
    parts.push_back(input.substr(0, at));
    input.remove_prefix(at + separator.size());
  }
}

// A fresh folder under the system's temporary directory, removed with everything in it.
class temp_dir {
 public:
  explicit temp_dir(std::string_view prefix) {
    std::random_device device;
    path_ = std::filesystem::temp_directory_path() /
            (std::string(prefix) + "-" + std::to_string(device()) + "-" + std::to_string(device()));
    std::filesystem::create_directories(path_);
  }
  ~temp_dir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;

  const std::filesystem::path& path() const noexcept { return path_; }

 private:
  std::filesystem::path path_;
};

inline void write_file(const std::filesystem::path& file, std::string_view text) {
  std::filesystem::create_directories(file.parent_path());
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
}

}  // namespace parley::fuzz

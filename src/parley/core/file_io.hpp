// Whole-file reads and atomic writes: the workspace tools', the uploads', the Taskdoc's and the
// `.dialogs/` export's. Never throws; errors carry the system's reason so callers can pass it on.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "parley/core/result.hpp"

namespace parley {

struct file_text {
  std::string bytes;        // at most the requested number of bytes
  std::uintmax_t size = 0;  // of the whole file
};

result<file_text> read_file_prefix(const std::filesystem::path& file, std::uintmax_t max_bytes);
// Writes to a temporary file beside `file`, fsyncs it, renames it over `file` and fsyncs the
// folder, so readers — and a restart after a crash — see the old or the new content, never a mix.
// Keeps an existing file's permissions.
result<void> write_file_atomically(const std::filesystem::path& file, std::string_view content);

// The two halves of write_file_atomically, for changes to several files that must all be written
// before any is replaced (apply_patch): stage every file, then commit each (a rename). A staged
// file that is not committed must be discarded.
struct staged_file {
  std::filesystem::path file;
  std::filesystem::path temp;
};
result<staged_file> stage_file(const std::filesystem::path& file, std::string_view content);
result<void> commit_staged(const staged_file& staged);
void discard_staged(const staged_file& staged);

}  // namespace parley

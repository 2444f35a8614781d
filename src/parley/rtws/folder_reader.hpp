// Reading one dialog folder of an exported rtws: its course files back into events (checked line
// by line and replayed), and its index files compared with what those events imply. Problems are
// collected rather than returned one at a time, so one import run reports everything wrong.
#pragma once

#include <boost/json/value.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/model/event.hpp"
#include "parley/rtws/dialog_replay.hpp"

namespace parley::rtws {

// Everything wrong with an rtws, each entry naming its file (and line or field).
class problem_list {
 public:
  void add(std::string problem, errc code = errc::invalid_argument);
  bool empty() const noexcept { return total_ == 0; }
  std::size_t size() const noexcept { return total_; }
  // One error listing the problems (the first few dozen) under `headline`. Its code is conflict
  // when every problem is one (ids already in the store), invalid_argument otherwise.
  error to_error(const std::string& headline) const;

 private:
  std::vector<std::string> items_;
  std::size_t total_ = 0;
  bool only_conflicts_ = true;
};

struct read_dialog {
  std::string id;
  std::filesystem::path folder;
  std::vector<event> events;  // seq order
  dialog_replay replay;
};

// Reads `folder`, the dialog `id` filed under the root `root_id` (itself when `is_root`).
// Returns nothing when the course files cannot be turned into a log; index-file problems are
// reported but the dialog is still returned, so that its root can check the registry.
std::optional<read_dialog> read_dialog_folder(const std::filesystem::path& folder, const std::string& id,
                                              const std::string& root_id, bool is_root, problem_list& problems,
                                              std::int64_t& files);

// Compares one index file (YAML, or JSON for a .json file) with what the log implies; a missing
// file is a problem unless `optional_when_empty` and `expected` is an empty list or mapping.
void check_index_file(const std::filesystem::path& file, const boost::json::value& expected, bool optional_when_empty,
                      problem_list& problems, std::int64_t& files);

}  // namespace parley::rtws

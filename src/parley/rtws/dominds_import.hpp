// `parley import --rtws` on a Dominds 1.29 `.dialogs/` folder (dominds_layout.hpp): every root of
// run/, done/ and archive/ with its side dialogs, read into Parley events (dominds_dialog.hpp) and
// appended one tree at a time, so memory does not grow with the number of dialogs.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/store/store.hpp"

namespace parley::rtws::dominds {

// A tree left out: its root's Dominds id, its folder, and the first problem found in it.
struct quarantined_tree {
  std::string dominds_id;
  std::filesystem::path folder;
  std::string problem;
};

struct import_summary {
  std::int64_t roots = 0;
  std::int64_t dialogs = 0;
  std::int64_t events = 0;
  std::int64_t files = 0;
  std::int64_t already_imported = 0;  // roots the store already holds: skipped, so a rerun adds nothing
  std::vector<quarantined_tree> quarantined;
};

// Imports what it can: a tree with a truncated or foreign record, or any other problem, is left
// out whole and listed in `quarantined`, and the rest is imported. A tree whose root (or any of
// whose dialogs) the store already has is skipped. Fails only when the folder cannot be read at
// all or the store refuses an append; what was appended before stays.
result<import_summary> import_rtws(store& log, const std::filesystem::path& rtws);

}  // namespace parley::rtws::dominds

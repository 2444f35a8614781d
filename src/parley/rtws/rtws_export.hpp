// `parley export`: writes every dialog of the log as seed 001's on-disk layout under
// `<rtws>/.dialogs/` (see rtws_layout.hpp): metadata and index files derived from the log, and
// the log itself as course-NNN.jsonl files, so that import can rebuild the store losslessly.
#pragma once

#include <cstdint>
#include <filesystem>

#include "parley/core/result.hpp"
#include "parley/store/store.hpp"

namespace parley::rtws {

struct export_summary {
  std::int64_t dialogs = 0;
  std::int64_t events = 0;
  std::int64_t files = 0;
};

// Refuses, before writing anything, when a root folder it would write already exists under
// run/ or done/, unless `force`: then each such root is replaced as a whole (stale files of an
// earlier export, such as an answered q4h.yaml, go with it). Each root is written into a hidden
// staging folder and renamed into place, so a crash never leaves a half-written root visible.
result<export_summary> export_rtws(store& log, const std::filesystem::path& rtws, bool force);

}  // namespace parley::rtws

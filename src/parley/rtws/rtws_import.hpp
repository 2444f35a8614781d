// `parley import`: reads seed 001's on-disk layout under `<rtws>/.dialogs/` (run/ and done/)
// back into a store. The course files are the log and are appended as they are; the index files
// (dialog.yaml, latest.yaml, q4h.yaml, reminders.json, registry.yaml) must agree with what the
// events imply, because a disagreement means someone edited the folder by hand.
#pragma once

#include <cstdint>
#include <filesystem>

#include "parley/core/result.hpp"
#include "parley/store/store.hpp"

namespace parley::rtws {

struct import_summary {
  std::int64_t dialogs = 0;
  std::int64_t events = 0;
  std::int64_t files = 0;  // files read
};

// Validates everything first — every line of every course file (JSON, fields, dialogId and rootId
// against the folders, seqs without gaps, the reducer accepting each event), every index file
// against the replayed log, and that no dialog id exists in `log` yet — and appends nothing if
// anything is wrong; the error then lists each problem with its file, line and field. Otherwise
// appends each dialog's events as one batch (roots first, then their subdialogs in creation
// order), so the store rebuilds its projections itself, and waits until they are durable.
result<import_summary> import_rtws(store& log, const std::filesystem::path& rtws);

}  // namespace parley::rtws

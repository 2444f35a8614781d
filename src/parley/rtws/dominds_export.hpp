// `parley export --rtws DIR --dominds`: every dialog of the log written in Dominds 1.29's
// `.dialogs/` layout (dominds_layout.hpp), so that Dominds lists and restores them: per dialog
// `dialog.yaml`, `latest.yaml`, `reminders.json`, `course-NNN.jsonl` records, `q4h.yaml` while a
// question is open, and for a side dialog `asker-stack.jsonl`. Dialog ids map back with
// dominds_id_of, so a history imported from Dominds goes back under its own ids.
// Parley events with no Dominds record (Tellask bookkeeping, context health, …) are not written.
#pragma once

#include <filesystem>

#include "parley/core/result.hpp"
#include "parley/rtws/rtws_export.hpp"
#include "parley/store/store.hpp"

namespace parley::rtws::dominds {

// Refuses, before writing anything, when a root folder it would write exists under run/, done/ or
// archive/, unless `force`: then each such root is replaced whole. Each root is written into a
// hidden staging folder and renamed into place.
result<export_summary> export_rtws(store& log, const std::filesystem::path& rtws, bool force);

}  // namespace parley::rtws::dominds

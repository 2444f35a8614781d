// Dominds 1.29's `.dialogs/` layout, as its compiled persistence code writes it (dist/persistence.js,
// class DialogPersistence): roots under `run/`, `done/` or `archive/` at the path of their id
// (`aa/bb/cccccccc`, from dist/utils/id.js generateDialogID), each root's side dialogs flat under
// `sideDialogs/` at the path of theirs, every dialog folder holding `dialog.yaml`, `latest.yaml`,
// `course-NNN.jsonl` records and, as they arise, `reminders.json`, `q4h.yaml`, `asker-stack.jsonl`
// (side dialogs) and `registry.yaml` (roots). Names, id mapping and layout detection; no import.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "parley/core/result.hpp"
#include "parley/model/events/enums.hpp"

namespace parley::rtws::dominds {

inline constexpr std::string_view archive_folder = "archive";  // DialogPersistence.ARCHIVE_DIR
inline constexpr std::string_view side_dialogs_folder = "sideDialogs";
inline constexpr std::string_view asker_stack_file = "asker-stack.jsonl";

// The bucket a status is filed under (getPersistableStatusDirName): running → run, completed →
// done, archived → archive.
std::string_view bucket_for_status(events::dialog_status status);

// A Dominds id ("aa/bb/cccccccc") as a Parley dialog id ("aa-bb-cccccccc"): Parley ids are one
// path and URL component. Each segment must be letters, digits, '_' or '.', not start with '.',
// so that the mapping is one to one and dominds_id_of gives the Dominds id back.
result<std::string> parley_id_of(std::string_view dominds_id);
// The inverse: '-' separates the segments of the Dominds id (a Parley id of 16 hex digits stays one
// segment, which Dominds reads as an id of one segment).
std::string dominds_id_of(std::string_view parley_id);

// Dominds' timestamps: RFC 3339 ("2024-01-15T10:30:00Z", its docs' form), or the same with a space
// for the 'T' and no zone, read as UTC.
result<std::int64_t> read_timestamp_ms(std::string_view text);
// What export writes: RFC 3339 UTC with milliseconds.
std::string format_timestamp(std::int64_t unix_ms);

enum class folder_layout { empty, parley, dominds };
// Which layout `<rtws>/.dialogs` holds, by its markers: an `archive/` bucket, a `sideDialogs/`
// folder, a root filed at a nested path, or a course record with a `type` ending in `_record` and
// no `dialogId` make it Dominds'; a course line with `dialogId` and `seq` makes it Parley's.
folder_layout detect_layout(const std::filesystem::path& rtws);

}  // namespace parley::rtws::dominds

#pragma once
// The ids of seed 002's records (docs/records.md): UUIDs named by what made the row, so a rebuild of
// the records from the log gives every row the id it had.
#include <cstdint>
#include <string>
#include <string_view>

namespace parley {

// A deterministic RFC 9562 version-8 UUID named by `kind` and `name`: rebuilding the records
// from the log gives every row the id it had. Ids of records made by an event begin with the
// event's time, and a dialogue's with its dialog's (Parley's dialog ids begin with it), so ids made
// later sort later: each index on an id grows at its end instead of taking every insert on a
// random page, which at a million messages made every commit rewrite pages all over the file.
std::string record_uuid(std::string_view kind, std::string_view name);
std::string record_uuid(std::string_view kind, std::string_view name, std::int64_t time_ms);
// The dialogue that records dialog `dialog_id` (kind "dialogue"), ordered by the dialog id's time.
std::string dialogue_uuid(std::string_view dialog_id);

}  // namespace parley

// `parley check` and `parley repair` for events whose stored text does not read back as a JSON
// object. Parley refuses such events before they are appended (store/append_check.hpp), but a
// log written by an older version may hold them, and a disk may damage any byte. Reads tolerate
// what can be repaired (row_codec.cpp); these make it visible and then permanent, keeping a record.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/store/store.hpp"

namespace parley::sqlite {

class connection;

// Every event of the log whose payload is not strict JSON (UTF-8, finite numbers) of an object.
result<std::vector<damaged_event>> find_damaged_events(connection& db);

struct repaired_event {
  damaged_event event;
  // "rewritten: 1 invalid UTF-8 sequence(s) replaced by U+FFFD", "quarantined: …", or, when the
  // unreadable event created its dialog, "quarantined with its dialog (N events)".
  std::string action;
};

// Opens `<dir>/parley.db` on its own (no store may have it open), and in one transaction rewrites
// each damaged event that a repairing read understands, replaces each other one with an
// `event_quarantined` event of the same seq, and copies every original, byte for byte, into the
// table `quarantined_events` with what was done and when. The caller rebuilds the projections.
result<std::vector<repaired_event>> repair_damaged_events(const std::string& dir);

}  // namespace parley::sqlite

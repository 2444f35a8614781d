// Seed 002's write rules ("对话写入接口标准定义"): which writes of the records write API the records
// as they are allow — a message belongs to an open turn, a turn to the dialogue's current session,
// a turn never spans two sessions. The server asks these under the dialog's lock, just before it
// appends the write; the records reducer (conversation_reducer.cpp) folds the same events and
// ignores a write that no longer fits, so the two cannot make different records.
//
// Also how the seed's request words map to the records' own values; the vocabularies themselves
// (the seed's and Parley's names for the same things) are enums, events/records_enums.hpp.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "parley/core/result.hpp"
#include "parley/model/conversation_records.hpp"

namespace parley::records_rules {

// Content types a client may write (image and audio with their content_meta), in the order the
// write API lists them.
inline constexpr std::array<events::content_type, 7> kWritableContentTypes{
    events::content_type::text,        events::content_type::markdown,    events::content_type::prompt,
    events::content_type::quote_reply, events::content_type::tool_output, events::content_type::image,
    events::content_type::audio};
// The trigger sources' wire names (from their enum_wire table), for checks that read a string
// (engine/reflection.cpp's trigger).
inline constexpr auto kTriggerSources = [] {
  std::array<std::string_view, events::enum_wire<events::trigger_source>::values.size()> names{};
  for (std::size_t i = 0; i < names.size(); ++i) names[i] = events::enum_wire<events::trigger_source>::values[i].second;
  return names;
}();

// The records' session type for a request's word ("interaction" is a dialogue session).
events::session_type session_type_of(events::requested_session_type requested);
// The status a turn closed with `outcome` gets: expired and ignored are unresponded turns.
events::turn_status turn_status_of(events::turn_close outcome);
// The seed's word for a turn's state: "open" while pending, else its outcome or status.
std::string seed_turn_status(const record_turn& turn);
// A self-reflection's trigger_source for the seed's `triggered_by`.
events::trigger_source trigger_source_of(events::triggered_by by);
// created_by for the seed's `triggered_by` (a schedule is the system's).
events::record_role created_by_of(events::triggered_by by);

// The dialogue's open turn as the rules see it.
struct open_turn {
  std::string turn_id;
  std::int64_t deadline_ms = 0;
};

// Opening a session (which ends the current one) while a turn waits would split that turn.
result<void> may_open_session(const std::optional<open_turn>& pending);
result<void> may_close_session(const record_session& session, const std::optional<open_turn>& pending);
result<void> may_open_turn(const record_session& session, const std::optional<open_turn>& pending);
// Closing a turn, or writing a message into it: it must be the dialogue's open turn, in its window.
result<void> may_write_to_turn(const record_turn& turn, const std::optional<open_turn>& pending, std::int64_t now_ms);
// Introspection turns belong to an open self-reflection session.
result<void> may_record_introspection(const record_session& session);

}  // namespace parley::records_rules

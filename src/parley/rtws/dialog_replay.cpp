#include "parley/rtws/dialog_replay.hpp"

#include "parley/core/json.hpp"
#include "parley/model/projection.hpp"

namespace parley::rtws {

result<std::int64_t> dialog_replay::apply(const event& ev) {
  auto step = apply_event(ev, row_);
  if (!step) return std::move(step).err();
  apply_state_event(ev, state_);
  ++events_;
  if (ev.type == event_type::dialog_created) last_accessed_ms_ = ev.ts_ms;
  if (ev.type == event_type::user_message && json_string_or(ev.payload, "origin") == "tellask") {
    last_accessed_ms_ = ev.ts_ms;
  }
  return row_.course;
}

}  // namespace parley::rtws

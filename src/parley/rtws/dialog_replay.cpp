#include "parley/rtws/dialog_replay.hpp"

#include "parley/model/projection.hpp"

namespace parley::rtws {

result<std::int64_t> dialog_replay::apply(const event& ev) {
  auto step = apply_event(ev, row_);
  if (!step) return std::move(step).err();
  apply_state_event(ev, state_);
  ++events_;
  // Accessed when created and whenever a tellasker calls it.
  const auto* input = ev.as<events::user_message>();
  if (ev.is<events::dialog_created>() || (input != nullptr && input->origin == events::message_origin::tellask)) {
    last_accessed_ms_ = ev.ts_ms;
  }
  return row_.course;
}

}  // namespace parley::rtws

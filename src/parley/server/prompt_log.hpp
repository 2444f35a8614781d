// The prompts a dialog's model was given, as its log holds them (prompt_logged events): seed 002's
// ActivePromptLog, read by GET /api/dialogs/{id}/prompts and by the ConversationThread's context
// snapshots.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/model/events/event_payload.hpp"
#include "parley/store/store.hpp"

namespace parley::server {

struct logged_prompt {
  events::prompt_logged prompt;
  std::int64_t seq = 0;
  std::int64_t logged_at_ms = 0;
  std::vector<std::int64_t> genseqs;  // the generations given this version (generation_finished)
};

// In the order they were logged; a version logged again (the prompt went back to an earlier one)
// is a new entry, and a generation counts towards the latest entry of its version.
result<std::vector<logged_prompt>> read_logged_prompts(store& log, std::string_view dialog_id);

}  // namespace parley::server

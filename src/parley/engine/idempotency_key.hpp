// The idempotency key of a tool call (issue 38): what lets a tool with effects outside the log
// recognise a call it has already carried out. A tree is driven by whichever process holds its
// lease; when that process dies after a call's effect but before the call's result is durable,
// the process that takes the tree over (or a restart, a resume, the stalled-dialog retry) runs the
// call again. Effects are therefore at least once; the key is what makes them deduplicable.
//
//   <root_id>/<dialog_id>/<course>.<genseq>/<call_id>
//
// Every part is read from the log, never from the process: the envelope of the dialog's
// `generation_finished` event (root and dialog) and its payload (course, genseq, and the call's id
// in `toolCalls`). That event is durable before any call with effects runs (write-ahead,
// drive_loop::generate), so the key is recorded before the effect, and every process that reads
// the log computes the same key for the same call. A generation made again after a crash is a new
// genseq once the old one is durable (closed as interrupted), so its calls get new keys even when
// the model reuses a call id; a generation that never became durable ran no call with effects.
// (A tool without effects may run before its generation is durable: its key is not recorded then,
// and a generation made again in its place may reuse it. Nothing needs to deduplicate a read.)
//
// Ids are Parley's (hex) and the model's (usually [A-Za-z0-9_-]); any byte outside
// [A-Za-z0-9._~:-] is written %XX, so the key is one line of ASCII that fits an environment
// variable and an HTTP header, and different ids never give the same key.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "parley/engine/dialog_runtime.hpp"

namespace parley::engine {

// Where a round's calls were made: the dialog and the generation whose generation_finished holds them.
struct call_origin {
  std::string root_id;
  std::string dialog_id;
  std::int64_t course = 1;
  std::int64_t genseq = 0;
};

// The origin of the calls unanswered_tool_calls returns (the newest assistant message), read from
// the dialog as the log rebuilt it. Falls back on the row's course and genseq when the dialog has
// no assistant message (no calls to key then).
call_origin origin_of_calls(const dialog_runtime& dialog);

std::string idempotency_key(const call_origin& origin, std::string_view call_id);

}  // namespace parley::engine

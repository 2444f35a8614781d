// What the engine tells the outside world (the CLI's terminal, the server's PubChan): streamed
// text as it arrives, and log events once they are durable. Called on the engine's executor;
// an observer must not block.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "parley/model/event.hpp"

namespace parley::engine {

// `discard`: everything streamed so far in this generation is void (the provider's connection broke
// and the call starts again); its text is the reason.
enum class stream_kind {
  thinking_start,
  thinking_chunk,
  thinking_finish,
  saying_start,
  saying_chunk,
  saying_finish,
  discard
};

struct stream_event {
  std::string_view dialog_id;
  std::string_view root_id;
  std::int64_t course = 0;
  std::int64_t genseq = 0;
  stream_kind kind = stream_kind::saying_chunk;
  std::string_view text;  // chunks; the reason of a discard
};

// Seed 001 `questions_count_update`: the number of open questions of a dialog changed.
struct questions_count_update {
  std::int64_t previous_count = 0;
  std::int64_t question_count = 0;
  std::string_view self_id;
  std::string_view root_id;
  std::int64_t course = 0;
};

class engine_observer {
 public:
  virtual ~engine_observer() = default;
  virtual void on_stream(const stream_event& /*ev*/) {}
  // An event as soon as it is produced, before it is durable: for live display.
  virtual void on_event(const event& /*ev*/) {}
  // The same event once its transaction is durable: for acknowledgements.
  virtual void on_durable(const event& /*ev*/) {}
  virtual void on_questions_count(const questions_count_update& /*update*/) {}
  // A dialog stopped being driven (idle, suspended, failed or completed).
  virtual void on_drive_finished(std::string_view /*dialog_id*/) {}
  // A tree another node drove is driven here from now on (a takeover on a shared store,
  // drive_control::adopt_orphaned_trees), told before any drive of it starts: what was shown of it
  // here may lack what that node wrote.
  virtual void on_tree_adopted(std::string_view /*root_id*/) {}
};

}  // namespace parley::engine

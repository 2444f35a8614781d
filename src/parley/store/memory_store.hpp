// The in-memory store: the same contract as the SQLite store without a file, for tests and
// benchmarks. Appends apply synchronously under one mutex; `on_durable` runs before `append` returns.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "parley/core/guarded.hpp"
#include "parley/store/fork_checkpoint.hpp"
#include "parley/store/store.hpp"

namespace parley {

class memory_store final : public store, public fork_checkpoint_source {
 public:
  void append(std::vector<event> batch, append_callback on_durable) override;
  void flush() override {}

  result<std::vector<event>> read_events(std::string_view dialog_id, std::int64_t after_seq) override;
  result<std::vector<event>> read_all_events() override;
  result<std::vector<event>> read_event_range(std::string_view dialog_id, std::int64_t after_seq,
                                              std::int64_t through_seq) override;
  result<std::optional<fork_checkpoint>> fork_checkpoint_before(std::string_view dialog_id, std::int64_t max_seq,
                                                                std::int64_t max_ts_ms) override;
  result<std::optional<std::int64_t>> next_fork_checkpoint(std::string_view dialog_id, std::int64_t after_seq) override;
  result<std::vector<dialog_row>> list_dialogs(const dialog_filter& filter) override;
  result<std::optional<dialog_row>> get_dialog(std::string_view dialog_id) override;
  result<std::vector<message_row>> messages(std::string_view dialog_id, std::int64_t course) override;
  result<std::optional<input_record>> find_input(std::string_view msg_id) override;

  result<void> rebuild_projections() override;
  store_stats stats() const override;

 private:
  struct projections {
    std::map<std::string, dialog_row, std::less<>> dialogs;
    std::map<std::string, std::vector<message_row>, std::less<>> messages;  // every course, seq order
    // Fork checkpoints (fork_checkpoint.hpp): each dialog's rest state, and its checkpoints in seq order.
    std::map<std::string, fork_rest, std::less<>> rests;
    std::map<std::string, std::vector<fork_checkpoint>, std::less<>> checkpoints;
  };

  // Folds `batch` into `into`, touching it only when every event applies.
  static result<void> apply_batch(std::span<const event> batch, projections& into);
  // Indexes a user message's or an answer's msgId (the first one sent with it stays).
  void remember_input(const event& ev) PARLEY_REQUIRES(mutex_);

  mutable parley::mutex mutex_;
  std::vector<event> events_ PARLEY_GUARDED_BY(mutex_);                                // commit order
  std::map<std::string, input_record, std::less<>> inputs_ PARLEY_GUARDED_BY(mutex_);  // msgId → its first input
  projections projections_ PARLEY_GUARDED_BY(mutex_);
  store_stats stats_ PARLEY_GUARDED_BY(mutex_);
};

}  // namespace parley

// The read side of a SQLite store: its own connection, so queries run while the writer commits
// (WAL gives each query a consistent snapshot). A mutex serializes callers on that connection.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parley/core/guarded.hpp"
#include "parley/core/result.hpp"
#include "parley/store/fork_checkpoint.hpp"
#include "parley/store/sqlite/sqlite_handle.hpp"
#include "parley/store/store.hpp"

namespace parley::sqlite {

// What a reader sees. A writer's own reader reads live: its store catches the projections up before
// each read. A process that only reads (the CLI beside a running server) cannot catch them up, so
// it reads one snapshot for its whole life (`snapshot`: the log may be a few milliseconds ahead of
// the projections there, as they trail it), or one whose log ends where the projections do
// (`projected_snapshot`, the watermark in `projected_through`): the log and the projections then
// agree, as `parley check` needs, whatever the writer is doing meanwhile.
enum class reader_view { live, snapshot, projected_snapshot };

class sqlite_reader {
 public:
  // Opens `path` read-only; the writer must have created and migrated it.
  static result<std::unique_ptr<sqlite_reader>> open(const std::string& path, reader_view view = reader_view::live);

  result<std::vector<event>> read_events(std::string_view dialog_id, std::int64_t after_seq);
  result<std::vector<event>> read_all_events();
  // Fork checkpoints (fork_checkpoint_source); defined in sqlite_fork_reads.cpp.
  result<std::vector<event>> read_event_range(std::string_view dialog_id, std::int64_t after_seq,
                                              std::int64_t through_seq);
  result<std::optional<fork_checkpoint>> fork_checkpoint_before(std::string_view dialog_id, std::int64_t max_seq,
                                                                std::int64_t max_ts_ms);
  result<std::optional<std::int64_t>> next_fork_checkpoint(std::string_view dialog_id, std::int64_t after_seq);
  result<std::vector<damaged_event>> damaged_events();
  result<std::optional<input_record>> find_input(std::string_view msg_id);
  result<std::vector<dialog_row>> list_dialogs(const dialog_filter& filter);
  // By status, from the index on it: no row is read.
  result<dialog_counts> count_dialogs();
  // Defined in sqlite_root_listing.cpp.
  result<root_page> list_roots(const root_listing& listing);
  result<std::optional<dialog_row>> get_dialog(std::string_view dialog_id);
  result<std::vector<message_row>> messages(std::string_view dialog_id, std::int64_t course);

 private:
  // One statement per combination of the optional filters (status, member, root, roots only).
  static constexpr std::size_t kFilterCombinations = 128;  // one bit per dialog_filter condition

  sqlite_reader() = default;
  result<void> pin_snapshot(bool log_as_projected) PARLEY_REQUIRES(mutex_);
  result<void> prepare_all() PARLEY_REQUIRES(mutex_);
  result<void> prepare_fork_reads(const std::string& through) PARLEY_REQUIRES(mutex_);
  result<statement*> list_statement(const dialog_filter& filter) PARLEY_REQUIRES(mutex_);
  result<statement*> root_statement(unsigned shape) PARLEY_REQUIRES(mutex_);
  result<root_page> root_page_of(const root_listing& listing, unsigned shape, std::int64_t window)
      PARLEY_REQUIRES(mutex_);

  parley::mutex mutex_;
  // Opened and prepared before the reader is shared; used under mutex_ after that.
  connection db_ PARLEY_GUARDED_BY(mutex_);
  // With reader_view::projected_snapshot, the last event the snapshot's projections include; the
  // log's statements read no further. nullopt for the other views.
  std::optional<std::int64_t> through_event_id_ PARLEY_GUARDED_BY(mutex_);
  statement events_of_dialog_ PARLEY_GUARDED_BY(mutex_), all_events_ PARLEY_GUARDED_BY(mutex_),
      get_dialog_ PARLEY_GUARDED_BY(mutex_), messages_all_ PARLEY_GUARDED_BY(mutex_),
      messages_of_course_ PARLEY_GUARDED_BY(mutex_), input_by_msg_id_ PARLEY_GUARDED_BY(mutex_),
      event_range_ PARLEY_GUARDED_BY(mutex_), checkpoint_before_ PARLEY_GUARDED_BY(mutex_),
      next_checkpoint_ PARLEY_GUARDED_BY(mutex_);
  std::array<statement, kFilterCombinations> list_dialogs_ PARLEY_GUARDED_BY(mutex_);  // prepared on first use
  std::map<unsigned, statement> list_roots_ PARLEY_GUARDED_BY(mutex_);  // by the shape of the query, on first use
};

}  // namespace parley::sqlite

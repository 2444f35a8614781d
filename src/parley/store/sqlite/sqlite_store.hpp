// The SQLite store: glue between the writer thread (appends, rebuild) and the read connections.
// Every read first waits for the batches appended before it and catches the projections up.
//
// Opened read-only (open_sqlite_store_read_only: the CLI's reading verbs beside a running server,
// issue 36) it has no writer: nothing is ever written — no migration, no projection catch-up, no
// checkpoint — so the process that writes is never disturbed; its reader reads one snapshot
// (reader_view) and appends fail, naming the reason.
// Reads may come from several threads (the event loop, the server's read thread, the writer's
// callbacks): the read connections are used by one at a time, under `read_mutex_`, which is taken
// only once the catch-up is done, so no thread waits for a commit while holding it.
#pragma once

#include <memory>

#include "parley/store/data_dir_lock.hpp"
#include "parley/store/fork_checkpoint.hpp"
#include "parley/store/sqlite/caught_up_records.hpp"
#include "parley/store/sqlite/records_reader.hpp"
#include "parley/store/sqlite/sqlite_reader.hpp"
#include "parley/store/sqlite/sqlite_writer.hpp"
#include "parley/store/store.hpp"

namespace parley::sqlite {

class sqlite_store final : public store, public fork_checkpoint_source {
 public:
  // `lock` is the data directory's writer lock, held for as long as the store is open; `writer`
  // null (and no lock) opens the store read-only.
  sqlite_store(std::optional<data_dir_lock> lock, std::unique_ptr<sqlite_writer> writer,
               std::unique_ptr<sqlite_reader> reader, std::unique_ptr<records_reader> records, std::string path);
  // Drains and commits everything queued (every callback runs) before closing the connections.
  ~sqlite_store() override;

  void append(std::vector<event> batch, append_callback on_durable) override;
  void append_deferred(std::vector<event> batch, append_callback on_durable) override;
  void flush() override;

  result<std::vector<event>> read_events(std::string_view dialog_id, std::int64_t after_seq) override;
  result<std::vector<event>> read_all_events() override;
  result<std::vector<event>> read_event_range(std::string_view dialog_id, std::int64_t after_seq,
                                              std::int64_t through_seq) override;
  result<std::optional<fork_checkpoint>> fork_checkpoint_before(std::string_view dialog_id, std::int64_t max_seq,
                                                                std::int64_t max_ts_ms) override;
  result<std::optional<std::int64_t>> next_fork_checkpoint(std::string_view dialog_id, std::int64_t after_seq) override;
  result<std::vector<damaged_event>> damaged_events() override;
  result<std::optional<input_record>> find_input(std::string_view msg_id) override;
  result<std::vector<dialog_row>> list_dialogs(const dialog_filter& filter) override;
  result<dialog_counts> count_dialogs() override;
  result<root_page> list_roots(const root_listing& listing) override;
  result<std::optional<dialog_row>> get_dialog(std::string_view dialog_id) override;
  result<std::vector<message_row>> messages(std::string_view dialog_id, std::int64_t course) override;

  result<void> rebuild_projections() override;
  store_stats stats() const override;
  std::string health_problem() const override;
  records_query* records() noexcept override { return &caught_up_; }
  result<void> announce_api(std::string_view url) override;
  std::vector<std::string> open_notices() const override;

 private:
  // Waits for the batches appended before a read and brings the projections up to them; nothing
  // to do read-only.
  result<void> catch_up();
  error read_only(std::string_view what) const;
  // Refuses a batch a read-only store cannot take or the log would refuse (append_check.hpp).
  result<void> appendable(const std::vector<event>& batch) const;

  std::string path_;
  std::optional<data_dir_lock> lock_;  // released last, once the writer has closed the database
  std::unique_ptr<sqlite_writer> writer_;
  parley::mutex read_mutex_;
  std::unique_ptr<sqlite_reader> reader_ PARLEY_PT_GUARDED_BY(read_mutex_);
  std::unique_ptr<records_reader> records_ PARLEY_PT_GUARDED_BY(read_mutex_);
  caught_up_records caught_up_;
};

}  // namespace parley::sqlite

// The SQLite store: glue between the writer thread (appends, rebuild) and the read connections.
// Every read first waits for the batches appended before it and catches the projections up.
// Reads may come from several threads (the event loop, the server's read thread, the writer's
// callbacks): the read connections are used by one at a time, under `read_mutex_`, which is taken
// only once the catch-up is done, so no thread waits for a commit while holding it.
#pragma once

#include <memory>

#include "parley/store/sqlite/caught_up_records.hpp"
#include "parley/store/sqlite/records_reader.hpp"
#include "parley/store/sqlite/sqlite_reader.hpp"
#include "parley/store/sqlite/sqlite_writer.hpp"
#include "parley/store/store.hpp"

namespace parley::sqlite {

class sqlite_store final : public store {
 public:
  sqlite_store(std::unique_ptr<sqlite_writer> writer, std::unique_ptr<sqlite_reader> reader,
               std::unique_ptr<records_reader> records);
  // Drains and commits everything queued (every callback runs) before closing the connections.
  ~sqlite_store() override;

  void append(std::vector<event> batch, append_callback on_durable) override;
  void append_deferred(std::vector<event> batch, append_callback on_durable) override;
  void flush() override;

  result<std::vector<event>> read_events(std::string_view dialog_id, std::int64_t after_seq) override;
  result<std::vector<event>> read_all_events() override;
  result<std::vector<damaged_event>> damaged_events() override;
  result<std::optional<input_record>> find_input(std::string_view msg_id) override;
  result<std::vector<dialog_row>> list_dialogs(const dialog_filter& filter) override;
  result<root_page> list_roots(const root_listing& listing) override;
  result<std::optional<dialog_row>> get_dialog(std::string_view dialog_id) override;
  result<std::vector<message_row>> messages(std::string_view dialog_id, std::int64_t course) override;

  result<void> rebuild_projections() override;
  store_stats stats() const override;
  std::string health_problem() const override { return writer_->health_problem(); }
  records_query* records() noexcept override { return &caught_up_; }

 private:
  std::unique_ptr<sqlite_writer> writer_;
  parley::mutex read_mutex_;
  std::unique_ptr<sqlite_reader> reader_ PARLEY_PT_GUARDED_BY(read_mutex_);
  std::unique_ptr<records_reader> records_ PARLEY_PT_GUARDED_BY(read_mutex_);
  caught_up_records caught_up_;
};

}  // namespace parley::sqlite

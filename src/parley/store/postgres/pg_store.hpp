// The PostgreSQL store: the same contract as the SQLite store (store.hpp), for several `parley
// serve` nodes sharing one database (docs/scale-out.md). Appends go through one writer thread per
// process (pg_writer.hpp); reads go through a bounded pool of connections (pg_read_pool.hpp) and
// first wait for every batch this process appended before them, so a read sees its own writes.
#pragma once

#include <condition_variable>
#include <memory>
#include <string>
#include <thread>

#include "parley/store/postgres/pg_read_pool.hpp"
#include "parley/store/postgres/pg_records.hpp"
#include "parley/store/postgres/pg_writer.hpp"
#include "parley/store/store.hpp"

namespace parley::pg {

class pg_store final : public store {
 public:
  pg_store(std::string url, std::unique_ptr<pg_writer> writer, std::shared_ptr<lease_book> leases,
           std::shared_ptr<change_feed> feed, const postgres_options& options);
  ~pg_store() override;

  void append(std::vector<event> batch, append_callback on_durable) override;
  void flush() override;

  result<std::vector<event>> read_events(std::string_view dialog_id, std::int64_t after_seq) override;
  result<std::vector<event>> read_all_events() override;
  result<std::vector<dialog_row>> list_dialogs(const dialog_filter& filter) override;
  result<std::optional<dialog_row>> get_dialog(std::string_view dialog_id) override;
  result<std::vector<message_row>> messages(std::string_view dialog_id, std::int64_t course) override;
  result<void> rebuild_projections() override;
  store_stats stats() const override;
  result<dialog_counts> count_dialogs() override;
  result<std::optional<input_record>> find_input(std::string_view msg_id) override;
  std::string health_problem() const override;

  result<bool> claim_tree(std::string_view root_id) override;
  void release_tree(std::string_view root_id) override;
  result<std::vector<std::string>> orphaned_trees() override;
  bool shared_between_processes() const noexcept override { return true; }
  bool holds_tree(std::string_view root_id) const override;
  void watch_changes(change_handler handler) override { feed_->watch(std::move(handler)); }
  result<void> forward_input(const forwarded_input& input) override;
  result<std::vector<forwarded_input>> pending_inputs() override;
  result<void> drop_input(std::int64_t id) override;
  result<std::vector<dialog_since>> read_since(
      const std::vector<std::pair<std::string, std::int64_t>>& watched) override;
  records_query* records() noexcept override { return &records_; }

 private:
  // Runs a query on a pooled connection after this process's earlier appends have landed.
  result<rows> read(std::string_view sql, std::span<const std::optional<std::string_view>> args,
                    std::string_view doing);

  // Renews the held leases every third of their length, on a connection of its own so that a
  // pool busy with long reads never lets a lease lapse.
  void keep_leases();

  const std::string url_;
  const std::string application_name_;
  std::shared_ptr<lease_book> leases_;
  std::shared_ptr<change_feed> feed_;
  std::unique_ptr<pg_writer> writer_;
  mutable read_pool readers_;
  pg_records records_;  // seed 002's records, written by writer_ with their events
  parley::mutex keeper_mutex_;
  std::condition_variable keeper_wake_;
  bool stopping_ PARLEY_GUARDED_BY(keeper_mutex_) = false;
  std::thread keeper_;
};

}  // namespace parley::pg

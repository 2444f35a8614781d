#include "parley/store/sqlite/sqlite_store.hpp"

#include "parley/store/append_check.hpp"

namespace parley::sqlite {

sqlite_store::sqlite_store(std::optional<data_dir_lock> lock, std::unique_ptr<sqlite_writer> writer,
                           std::unique_ptr<sqlite_reader> reader, std::unique_ptr<records_reader> records,
                           std::string path)
    : path_(std::move(path)),
      lock_(std::move(lock)),
      writer_(std::move(writer)),
      reader_(std::move(reader)),
      records_(std::move(records)),
      caught_up_(writer_.get(), *records_, read_mutex_) {}

sqlite_store::~sqlite_store() {
  // Callbacks that run while the queue drains may still read, so the reader outlives the drain.
  // The read-only connection closes before the writer's, letting the last (writable) close
  // checkpoint the WAL back into the database file.
  if (writer_) writer_->shutdown();
  reader_.reset();
  records_.reset();
  writer_.reset();
}

error sqlite_store::read_only(std::string_view what) const {
  return make_error(errc::conflict,
                    std::string(what) + ": the store " + path_ + " is open read-only here (a verb that only reads)");
}

result<void> sqlite_store::catch_up() { return writer_ ? writer_->catch_up() : ok(); }

result<void> sqlite_store::appendable(const std::vector<event>& batch) const {
  if (!writer_) return read_only("cannot append");
  return check_appendable(batch);
}

void sqlite_store::append(std::vector<event> batch, append_callback on_durable) {
  if (auto refused = appendable(batch); !refused) {
    if (on_durable) on_durable(std::move(refused));
    return;
  }
  writer_->append(std::move(batch), std::move(on_durable));
}

void sqlite_store::append_deferred(std::vector<event> batch, append_callback on_durable) {
  if (auto refused = appendable(batch); !refused) {
    if (on_durable) on_durable(std::move(refused));
    return;
  }
  writer_->append_deferred(std::move(batch), std::move(on_durable));
}

void sqlite_store::flush() {
  if (writer_) writer_->flush();
}

std::string sqlite_store::health_problem() const { return writer_ ? writer_->health_problem() : "open read-only"; }

result<void> sqlite_store::announce_api(std::string_view url) {
  if (!lock_) return read_only("cannot announce an API");
  return lock_->announce_url(url);
}

std::vector<std::string> sqlite_store::open_notices() const {
  if (!lock_ || !lock_->took_over()) return {};
  return {"took over the store's lock from " + describe_holder(*lock_->took_over()) +
          ", which ended without releasing it (killed or crashed); the log is replayed as after a crash"};
}

// The log is read whatever state the projections are in: catching up waits for the batches
// appended before the read, which is all a read of the log needs from it.
result<std::vector<event>> sqlite_store::read_events(std::string_view dialog_id, std::int64_t after_seq) {
  (void)catch_up();
  parley::lock_guard lock(read_mutex_);
  return reader_->read_events(dialog_id, after_seq);
}

result<std::vector<event>> sqlite_store::read_event_range(std::string_view dialog_id, std::int64_t after_seq,
                                                          std::int64_t through_seq) {
  (void)catch_up();
  parley::lock_guard lock(read_mutex_);
  return reader_->read_event_range(dialog_id, after_seq, through_seq);
}

// Checkpoints are projections: caught up like the dialogs' rows before they are read.
result<std::optional<fork_checkpoint>> sqlite_store::fork_checkpoint_before(std::string_view dialog_id,
                                                                            std::int64_t max_seq,
                                                                            std::int64_t max_ts_ms) {
  PARLEY_TRY(catch_up());
  parley::lock_guard lock(read_mutex_);
  return reader_->fork_checkpoint_before(dialog_id, max_seq, max_ts_ms);
}

result<std::optional<std::int64_t>> sqlite_store::next_fork_checkpoint(std::string_view dialog_id,
                                                                       std::int64_t after_seq) {
  PARLEY_TRY(catch_up());
  parley::lock_guard lock(read_mutex_);
  return reader_->next_fork_checkpoint(dialog_id, after_seq);
}

// The log itself answers, so only the batches queued before the call are waited for.
result<std::optional<input_record>> sqlite_store::find_input(std::string_view msg_id) {
  (void)catch_up();
  parley::lock_guard lock(read_mutex_);
  return reader_->find_input(msg_id);
}

result<std::vector<damaged_event>> sqlite_store::damaged_events() {
  (void)catch_up();
  parley::lock_guard lock(read_mutex_);
  return reader_->damaged_events();
}

result<std::vector<event>> sqlite_store::read_all_events() {
  (void)catch_up();
  parley::lock_guard lock(read_mutex_);
  return reader_->read_all_events();
}

result<std::vector<dialog_row>> sqlite_store::list_dialogs(const dialog_filter& filter) {
  PARLEY_TRY(catch_up());
  parley::lock_guard lock(read_mutex_);
  return reader_->list_dialogs(filter);
}

result<dialog_counts> sqlite_store::count_dialogs() {
  PARLEY_TRY(catch_up());
  parley::lock_guard lock(read_mutex_);
  return reader_->count_dialogs();
}

result<root_page> sqlite_store::list_roots(const root_listing& listing) {
  PARLEY_TRY(catch_up());
  parley::lock_guard lock(read_mutex_);
  return reader_->list_roots(listing);
}

result<std::optional<dialog_row>> sqlite_store::get_dialog(std::string_view dialog_id) {
  PARLEY_TRY(catch_up());
  parley::lock_guard lock(read_mutex_);
  return reader_->get_dialog(dialog_id);
}

result<std::vector<message_row>> sqlite_store::messages(std::string_view dialog_id, std::int64_t course) {
  PARLEY_TRY(catch_up());
  parley::lock_guard lock(read_mutex_);
  return reader_->messages(dialog_id, course);
}

result<void> sqlite_store::rebuild_projections() {
  if (!writer_) return read_only("cannot rebuild the projections");
  return writer_->rebuild_projections();
}

store_stats sqlite_store::stats() const {
  if (!writer_) return {};
  return store_stats{writer_->events(),         writer_->transactions(),   writer_->projection_transactions(),
                     writer_->cached_dialogs(), writer_->commit_seconds(), writer_->projection_lag(),
                     writer_->queued_requests()};
}

}  // namespace parley::sqlite

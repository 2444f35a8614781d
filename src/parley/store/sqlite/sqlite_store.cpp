#include "parley/store/sqlite/sqlite_store.hpp"

#include "parley/store/append_check.hpp"

namespace parley::sqlite {

sqlite_store::sqlite_store(std::unique_ptr<sqlite_writer> writer, std::unique_ptr<sqlite_reader> reader,
                           std::unique_ptr<records_reader> records)
    : writer_(std::move(writer)),
      reader_(std::move(reader)),
      records_(std::move(records)),
      caught_up_(*writer_, *records_, read_mutex_) {}

sqlite_store::~sqlite_store() {
  // Callbacks that run while the queue drains may still read, so the reader outlives the drain.
  // The read-only connection closes before the writer's, letting the last (writable) close
  // checkpoint the WAL back into the database file.
  writer_->shutdown();
  reader_.reset();
  records_.reset();
  writer_.reset();
}

void sqlite_store::append(std::vector<event> batch, append_callback on_durable) {
  if (auto refused = check_appendable(batch); !refused) {
    if (on_durable) on_durable(std::move(refused));
    return;
  }
  writer_->append(std::move(batch), std::move(on_durable));
}

void sqlite_store::append_deferred(std::vector<event> batch, append_callback on_durable) {
  if (auto refused = check_appendable(batch); !refused) {
    if (on_durable) on_durable(std::move(refused));
    return;
  }
  writer_->append_deferred(std::move(batch), std::move(on_durable));
}

void sqlite_store::flush() { writer_->flush(); }

// The log is read whatever state the projections are in: catching up waits for the batches
// appended before the read, which is all a read of the log needs from it.
result<std::vector<event>> sqlite_store::read_events(std::string_view dialog_id, std::int64_t after_seq) {
  (void)writer_->catch_up();
  parley::lock_guard lock(read_mutex_);
  return reader_->read_events(dialog_id, after_seq);
}

// The log itself answers, so only the batches queued before the call are waited for.
result<std::optional<input_record>> sqlite_store::find_input(std::string_view msg_id) {
  (void)writer_->catch_up();
  parley::lock_guard lock(read_mutex_);
  return reader_->find_input(msg_id);
}

result<std::vector<damaged_event>> sqlite_store::damaged_events() {
  (void)writer_->catch_up();
  parley::lock_guard lock(read_mutex_);
  return reader_->damaged_events();
}

result<std::vector<event>> sqlite_store::read_all_events() {
  (void)writer_->catch_up();
  parley::lock_guard lock(read_mutex_);
  return reader_->read_all_events();
}

result<std::vector<dialog_row>> sqlite_store::list_dialogs(const dialog_filter& filter) {
  PARLEY_TRY(writer_->catch_up());
  parley::lock_guard lock(read_mutex_);
  return reader_->list_dialogs(filter);
}

result<root_page> sqlite_store::list_roots(const root_listing& listing) {
  PARLEY_TRY(writer_->catch_up());
  parley::lock_guard lock(read_mutex_);
  return reader_->list_roots(listing);
}

result<std::optional<dialog_row>> sqlite_store::get_dialog(std::string_view dialog_id) {
  PARLEY_TRY(writer_->catch_up());
  parley::lock_guard lock(read_mutex_);
  return reader_->get_dialog(dialog_id);
}

result<std::vector<message_row>> sqlite_store::messages(std::string_view dialog_id, std::int64_t course) {
  PARLEY_TRY(writer_->catch_up());
  parley::lock_guard lock(read_mutex_);
  return reader_->messages(dialog_id, course);
}

result<void> sqlite_store::rebuild_projections() { return writer_->rebuild_projections(); }

store_stats sqlite_store::stats() const {
  return store_stats{writer_->events(), writer_->transactions(), writer_->projection_transactions(),
                     writer_->cached_dialogs()};
}

}  // namespace parley::sqlite

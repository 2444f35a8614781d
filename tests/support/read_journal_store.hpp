// A store that notes the thread of every read it serves, for the tests that show no read of the
// store runs on the thread of the event loop (issue 20 item 3): the engine's
// (unit/engine/engine_loop_reads_test.cpp) and the server's (unit/rest/server_loop_reads_test.cpp).
// A read of the SQLite store first waits for the writer's catch-up — a commit and its fsync — so one
// made on the loop stalls every stream. Appends are not reads: the writer's thread takes them
// without waiting.
#pragma once

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "parley/store/records_query.hpp"
#include "parley/store/store.hpp"

namespace parley::test {

// Where each read ran: its name and its thread, while watched (from the start, unless told).
class read_journal {
 public:
  void watch(bool on) { watching_ = on; }
  void note(const char* name) {
    if (!watching_) return;
    const std::lock_guard lock(mutex_);
    reads_.push_back({name, std::this_thread::get_id()});
  }
  // The reads that ran on `thread`, by name.
  std::vector<std::string> on(std::thread::id thread) const {
    const std::lock_guard lock(mutex_);
    std::vector<std::string> out;
    for (const auto& read : reads_) {
      if (read.thread == thread) out.push_back(read.name);
    }
    return out;
  }
  // How many reads of that name ran, on any thread.
  std::size_t count(std::string_view name) const {
    const std::lock_guard lock(mutex_);
    return static_cast<std::size_t>(
        std::count_if(reads_.begin(), reads_.end(), [name](const entry& read) { return read.name == name; }));
  }
  // Forgets the reads so far (those of an earlier process, of the set-up).
  void clear() {
    const std::lock_guard lock(mutex_);
    reads_.clear();
  }

 private:
  struct entry {
    std::string name;
    std::thread::id thread;
  };
  std::atomic<bool> watching_{true};
  mutable std::mutex mutex_;
  std::vector<entry> reads_;
};

// Seed 002's records of the inner store, each query noted as "records.<name>".
class journaling_records final : public records_query {
 public:
  journaling_records(records_query& inner, read_journal& journal) : inner_(inner), journal_(journal) {}

  result<std::optional<record_dialogue>> dialogue(std::string_view id) override {
    journal_.note("records.dialogue");
    return inner_.dialogue(id);
  }
  result<std::optional<record_session>> session(std::string_view id) override {
    journal_.note("records.session");
    return inner_.session(id);
  }
  result<std::optional<record_turn>> turn(std::string_view id) override {
    journal_.note("records.turn");
    return inner_.turn(id);
  }
  result<std::optional<record_message>> message(std::string_view id) override {
    journal_.note("records.message");
    return inner_.message(id);
  }
  result<records_page<record_session>> sessions(const records_filter& filter) override {
    journal_.note("records.sessions");
    return inner_.sessions(filter);
  }
  result<records_page<record_turn>> turns(const records_filter& filter) override {
    journal_.note("records.turns");
    return inner_.turns(filter);
  }
  result<records_page<record_message>> messages(const records_filter& filter) override {
    journal_.note("records.messages");
    return inner_.messages(filter);
  }
  result<records_page<record_dialogue>> dialogues(const records_filter& filter) override {
    journal_.note("records.dialogues");
    return inner_.dialogues(filter);
  }
  result<records_page<record_message>> search(std::string_view match, const records_filter& filter) override {
    journal_.note("records.search");
    return inner_.search(match, filter);
  }
  result<std::optional<message_embedding>> embedding(std::string_view message_id) override {
    journal_.note("records.embedding");
    return inner_.embedding(message_id);
  }
  result<records_page<scored_message>> nearest(std::string_view model, std::span<const float> query,
                                               const records_filter& filter) override {
    journal_.note("records.nearest");
    return inner_.nearest(model, query, filter);
  }
  result<records_page<record_introspection>> introspections(const records_filter& filter) override {
    journal_.note("records.introspections");
    return inner_.introspections(filter);
  }
  result<records_page<record_system_utterance>> system_utterances(const records_filter& filter) override {
    journal_.note("records.system_utterances");
    return inner_.system_utterances(filter);
  }
  result<std::optional<record_memory_entry>> memory_entry(std::string_view id) override {
    journal_.note("records.memory_entry");
    return inner_.memory_entry(id);
  }
  result<std::vector<record_memory_link>> memory_links(std::string_view turn_id) override {
    journal_.note("records.memory_links");
    return inner_.memory_links(turn_id);
  }
  result<std::vector<std::string>> linked_memories(std::string_view dialogue_id) override {
    journal_.note("records.linked_memories");
    return inner_.linked_memories(dialogue_id);
  }
  result<std::vector<pending_turn>> pending_turns() override {
    journal_.note("records.pending_turns");
    return inner_.pending_turns();
  }
  result<std::optional<pending_turn>> pending_turn_of(std::string_view dialog_id) override {
    journal_.note("records.pending_turn_of");
    return inner_.pending_turn_of(dialog_id);
  }

 private:
  records_query& inner_;
  read_journal& journal_;
};

// The inner store, every read noted in journal().
class journaling_store final : public store {
 public:
  explicit journaling_store(std::unique_ptr<store> inner) : inner_(std::move(inner)) {
    if (inner_->records() != nullptr) records_.emplace(*inner_->records(), journal_);
  }

  void append(std::vector<event> batch, append_callback on_durable) override {
    inner_->append(std::move(batch), std::move(on_durable));
  }
  void append_deferred(std::vector<event> batch, append_callback on_durable) override {
    inner_->append_deferred(std::move(batch), std::move(on_durable));
  }
  void flush() override { inner_->flush(); }
  result<std::vector<event>> read_events(std::string_view id, std::int64_t after) override {
    journal_.note("read_events");
    return inner_->read_events(id, after);
  }
  result<std::vector<event>> read_all_events() override {
    journal_.note("read_all_events");
    return inner_->read_all_events();
  }
  result<std::vector<dialog_row>> list_dialogs(const dialog_filter& filter) override {
    journal_.note("list_dialogs");
    return inner_->list_dialogs(filter);
  }
  result<root_page> list_roots(const root_listing& listing) override {
    journal_.note("list_roots");
    return inner_->list_roots(listing);
  }
  result<std::optional<dialog_row>> get_dialog(std::string_view id) override {
    journal_.note("get_dialog");
    return inner_->get_dialog(id);
  }
  result<std::vector<message_row>> messages(std::string_view id, std::int64_t course) override {
    journal_.note("messages");
    return inner_->messages(id, course);
  }
  result<std::optional<input_record>> find_input(std::string_view msg_id) override {
    journal_.note("find_input");
    return inner_->find_input(msg_id);
  }
  result<std::vector<damaged_event>> damaged_events() override {
    journal_.note("damaged_events");
    return inner_->damaged_events();
  }
  result<void> rebuild_projections() override { return inner_->rebuild_projections(); }
  store_stats stats() const override { return inner_->stats(); }
  std::string health_problem() const override { return inner_->health_problem(); }
  records_query* records() noexcept override { return records_ ? &*records_ : nullptr; }

  read_journal& journal() { return journal_; }

 private:
  std::unique_ptr<store> inner_;
  read_journal journal_;
  std::optional<journaling_records> records_;
};

}  // namespace parley::test

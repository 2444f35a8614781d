// Seed 002's records as a reader sees them: every query first brings the projections up to the
// log (sqlite_writer::catch_up), so a client that heard of an event finds its records.
#pragma once

#include "parley/core/guarded.hpp"
#include "parley/store/records_query.hpp"
#include "parley/store/sqlite/records_reader.hpp"
#include "parley/store/sqlite/sqlite_writer.hpp"

namespace parley::sqlite {

class caught_up_records final : public records_query {
 public:
  // `reader` is used under `read_mutex` (the store's, shared with its other read connection).
  // `writer` is null for a store opened read-only: it cannot catch the projections up and reads
  // them as the process that writes left them.
  caught_up_records(sqlite_writer* writer, records_reader& reader, parley::mutex& read_mutex)
      : writer_(writer), reader_(reader), read_mutex_(read_mutex) {}

  result<std::optional<record_dialogue>> dialogue(std::string_view id) override {
    return caught_up([&] { return reader_.dialogue(id); });
  }
  result<std::optional<record_session>> session(std::string_view id) override {
    return caught_up([&] { return reader_.session(id); });
  }
  result<std::optional<record_turn>> turn(std::string_view id) override {
    return caught_up([&] { return reader_.turn(id); });
  }
  result<std::optional<record_message>> message(std::string_view id) override {
    return caught_up([&] { return reader_.message(id); });
  }
  result<records_page<record_session>> sessions(const records_filter& filter) override {
    return caught_up([&] { return reader_.sessions(filter); });
  }
  result<records_page<record_turn>> turns(const records_filter& filter) override {
    return caught_up([&] { return reader_.turns(filter); });
  }
  result<records_page<record_message>> messages(const records_filter& filter) override {
    return caught_up([&] { return reader_.messages(filter); });
  }
  result<records_page<record_dialogue>> dialogues(const records_filter& filter) override {
    return caught_up([&] { return reader_.dialogues(filter); });
  }
  result<records_page<record_message>> search(std::string_view match, const records_filter& filter) override {
    return caught_up([&] { return reader_.search(match, filter); });
  }
  result<std::optional<message_embedding>> embedding(std::string_view message_id) override {
    return caught_up([&] { return reader_.embedding(message_id); });
  }
  result<records_page<scored_message>> nearest(std::string_view model, std::span<const float> query,
                                               const records_filter& filter) override {
    return caught_up([&] { return reader_.nearest(model, query, filter); });
  }
  result<records_page<record_introspection>> introspections(const records_filter& filter) override {
    return caught_up([&] { return reader_.introspections(filter); });
  }
  result<records_page<record_system_utterance>> system_utterances(const records_filter& filter) override {
    return caught_up([&] { return reader_.system_utterances(filter); });
  }
  result<std::optional<record_memory_entry>> memory_entry(std::string_view id) override {
    return caught_up([&] { return reader_.memory_entry(id); });
  }
  result<std::vector<record_memory_link>> memory_links(std::string_view turn_id) override {
    return caught_up([&] { return reader_.memory_links(turn_id); });
  }
  result<std::vector<std::string>> linked_memories(std::string_view dialogue_id) override {
    return caught_up([&] { return reader_.linked_memories(dialogue_id); });
  }
  result<std::vector<pending_turn>> pending_turns() override {
    return caught_up([&] { return reader_.pending_turns(); });
  }
  result<std::optional<pending_turn>> pending_turn_of(std::string_view dialog_id) override {
    return caught_up([&] { return reader_.pending_turn_of(dialog_id); });
  }

 private:
  template <class Read>
  auto caught_up(Read read) -> decltype(read()) {
    if (writer_ != nullptr) {
      if (auto current = writer_->catch_up(); !current) return std::move(current).err();
    }
    parley::lock_guard lock(read_mutex_);
    return read();
  }

  sqlite_writer* writer_;
  records_reader& reader_;
  parley::mutex& read_mutex_;
};

}  // namespace parley::sqlite

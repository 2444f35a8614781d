// The PostgreSQL side of records_query (seed 002's conversation records, docs/records.md): reads
// through the store's pool of connections, each first waiting for every batch this process
// appended before it. Since the records are written in the same transaction as their events
// (pg_records_folder.hpp), that is all a read needs to see them — there is nothing to catch up, and
// another process's committed events come with their records too.
#pragma once

#include "parley/store/postgres/pg_read_pool.hpp"
#include "parley/store/postgres/pg_writer.hpp"
#include "parley/store/records_query.hpp"

namespace parley::pg {

class pg_records final : public records_query {
 public:
  // Both must outlive this object (the store owns all three).
  pg_records(pg_writer& writer, read_pool& readers) : writer_(writer), readers_(readers) {}

  result<std::optional<record_dialogue>> dialogue(std::string_view id) override;
  result<std::optional<record_session>> session(std::string_view id) override;
  result<std::optional<record_turn>> turn(std::string_view id) override;
  result<std::optional<record_message>> message(std::string_view id) override;

  result<records_page<record_session>> sessions(const records_filter& filter) override;
  result<records_page<record_turn>> turns(const records_filter& filter) override;
  result<records_page<record_message>> messages(const records_filter& filter) override;
  result<records_page<record_dialogue>> dialogues(const records_filter& filter) override;
  // pg_records_search.cpp, with the two below.
  result<records_page<record_message>> search(std::string_view match, const records_filter& filter) override;

  result<std::optional<message_embedding>> embedding(std::string_view message_id) override;
  result<records_page<scored_message>> nearest(std::string_view model, std::span<const float> query,
                                               const records_filter& filter) override;

  result<records_page<record_introspection>> introspections(const records_filter& filter) override;
  result<records_page<record_system_utterance>> system_utterances(const records_filter& filter) override;
  result<std::optional<record_memory_entry>> memory_entry(std::string_view id) override;
  result<std::vector<record_memory_link>> memory_links(std::string_view turn_id) override;
  result<std::vector<std::string>> linked_memories(std::string_view dialogue_id) override;

  result<std::vector<pending_turn>> pending_turns() override;
  result<std::optional<pending_turn>> pending_turn_of(std::string_view dialog_id) override;

 private:
  // Runs `read` on a pooled connection once this process's earlier appends have committed.
  template <class Read>
  auto read(Read&& read) -> decltype(read(std::declval<connection&>())) {
    writer_.wait_for_earlier();
    return readers_.with_connection(std::forward<Read>(read));
  }

  pg_writer& writer_;
  read_pool& readers_;
};

}  // namespace parley::pg

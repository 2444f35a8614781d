// The SQLite side of records_query: its own read-only connection (WAL snapshots, so reads never
// wait for the writer), serialized by a mutex. Queries are built per call from fixed fragments;
// every value the caller gives is bound, never spliced into SQL.
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "parley/core/guarded.hpp"
#include "parley/store/records_query.hpp"
#include "parley/store/sqlite/sqlite_handle.hpp"

namespace parley::sqlite {

class records_reader final : public records_query {
 public:
  static result<std::unique_ptr<records_reader>> open(const std::string& path);

  result<std::optional<record_dialogue>> dialogue(std::string_view id) override;
  result<std::optional<record_session>> session(std::string_view id) override;
  result<std::optional<record_turn>> turn(std::string_view id) override;
  result<std::optional<record_message>> message(std::string_view id) override;

  result<records_page<record_session>> sessions(const records_filter& filter) override;
  result<records_page<record_turn>> turns(const records_filter& filter) override;
  result<records_page<record_message>> messages(const records_filter& filter) override;
  result<records_page<record_dialogue>> dialogues(const records_filter& filter) override;
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
  records_reader() = default;

  parley::mutex mutex_;
  connection db_ PARLEY_GUARDED_BY(mutex_);
};

}  // namespace parley::sqlite

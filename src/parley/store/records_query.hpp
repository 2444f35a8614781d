// Reading seed 002's conversation records (docs/records.md). A store that keeps them offers this
// interface through `store::records()`; the in-memory store does not keep them (nullptr).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/model/conversation_records.hpp"

namespace parley {

// Every field is optional (empty / unset = any). The caller validates enum values and `sort_by`;
// a reader refuses a sort column it does not know instead of putting it into SQL.
struct records_filter {
  std::string dialogue_id;
  std::string session_id;
  std::string turn_id;
  // Nested loading (docs/records.md "Nested loading"): the rows of any of these parents, all in one
  // query; empty = any. Read by sessions (dialogue_ids), turns (session_ids), messages (turn_ids).
  std::vector<std::string> dialogue_ids;
  std::vector<std::string> session_ids;
  std::vector<std::string> turn_ids;
  // Each absent: any.
  std::optional<events::record_role> role;             // message sender_role
  std::optional<events::content_type> content_type;    // message content_type
  std::optional<events::turn_status> status;           // turn status
  std::optional<events::session_type> session_type;    // session session_type
  std::optional<events::dialogue_type> dialogue_type;  // sessions: only those of dialogues of this type
  std::string ai_id;                                   // sessions of dialogues this member speaks in
  std::string participant;                             // dialogues: roots this user takes part in
  // Only rows of dialogues under a root this user takes part in (empty: every row); with
  // `or_unowned` also under roots no human takes part in.
  std::string visible_to;
  bool or_unowned = false;
  std::optional<std::int64_t> since;  // UTC ms, inclusive, on the row's own time
  std::optional<std::int64_t> until;  // UTC ms, inclusive
  std::string sort_by;                // a time column of the row; empty = the row's own time
  bool descending = false;
  std::int64_t limit = 50;
  std::int64_t offset = 0;
};

template <class Row>
struct records_page {
  std::vector<Row> items;
  std::int64_t total = 0;  // rows matching the filter, before limit/offset
};

// A pending turn and when its response window ends, for the window timers.
struct pending_turn {
  std::string dialog_id;
  std::string turn_id;
  std::int64_t deadline_ms = 0;
};

// A message's stored embedding (seed 002's embedding_vector; docs/records.md "Analysis and
// embeddings").
struct message_embedding {
  std::string model;
  std::vector<float> vector;
};

// A message found by semantic search, with its cosine similarity to the query.
struct scored_message {
  record_message message;
  double score = 0.0;
};

class records_query {
 public:
  virtual ~records_query() = default;

  // By the dialogue's UUID or by the id of the Parley dialog it records.
  virtual result<std::optional<record_dialogue>> dialogue(std::string_view id) = 0;
  virtual result<std::optional<record_session>> session(std::string_view id) = 0;
  virtual result<std::optional<record_turn>> turn(std::string_view id) = 0;
  virtual result<std::optional<record_message>> message(std::string_view id) = 0;

  virtual result<records_page<record_session>> sessions(const records_filter& filter) = 0;
  virtual result<records_page<record_turn>> turns(const records_filter& filter) = 0;
  virtual result<records_page<record_message>> messages(const records_filter& filter) = 0;
  // Root dialogues, by `participant` and `visible_to`; newest first unless sort_by says otherwise.
  virtual result<records_page<record_dialogue>> dialogues(const records_filter& filter) = 0;
  // Full-text search; `match` is one or more double-quoted phrases separated by spaces (a quote
  // inside doubled), as fts_match_of writes them. A message is found when its text contains every
  // phrase, case folded as FTS5's trigram tokenizer folds; a phrase under three characters is no
  // condition beside longer ones and finds nothing alone (as FTS5's phrase queries did).
  virtual result<records_page<record_message>> search(std::string_view match, const records_filter& filter) = 0;

  // The embedding of a message, if it has one.
  virtual result<std::optional<message_embedding>> embedding(std::string_view message_id) = 0;
  // Semantic search: the messages embedded by `model` with as many dimensions as `query`, nearest
  // first by cosine similarity (ties in log order), under `filter`'s conditions and page. A scan of
  // the candidates' vectors: no vector index.
  virtual result<records_page<scored_message>> nearest(std::string_view model, std::span<const float> query,
                                                       const records_filter& filter) = 0;

  // A self-reflection session's introspection turns (by `session_id`), oldest first by default.
  virtual result<records_page<record_introspection>> introspections(const records_filter& filter) = 0;
  // The system's utterances of a dialogue (`dialogue_id`), optionally of one turn (`turn_id`).
  virtual result<records_page<record_system_utterance>> system_utterances(const records_filter& filter) = 0;
  virtual result<std::optional<record_memory_entry>> memory_entry(std::string_view id) = 0;
  // The memory entries a turn (dialogue or introspection) refers to or produced.
  virtual result<std::vector<record_memory_link>> memory_links(std::string_view turn_id) = 0;
  // Every memory entry a turn of the dialogue (dialogue or introspection turn) links to.
  virtual result<std::vector<std::string>> linked_memories(std::string_view dialogue_id) = 0;

  // Every open turn, earliest deadline first; and one dialog's (none when no turn is open).
  virtual result<std::vector<pending_turn>> pending_turns() = 0;
  virtual result<std::optional<pending_turn>> pending_turn_of(std::string_view dialog_id) = 0;
};

}  // namespace parley

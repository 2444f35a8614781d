// The prepared statements that write seed 002's records on PostgreSQL, each taking one JSON record
// set ($1) as pg_records_rows.hpp writes its elements. Optional columns hold NULL where the record
// has "" or 0, as the SQLite store's do; a row inserted in log order (`n`) gets its identity `n`
// in that order, which breaks ties between rows of the same millisecond as SQLite's rowid does.
#pragma once

#include "parley/core/result.hpp"
#include "parley/store/postgres/pg_connection.hpp"

namespace parley::pg::records_sql {

inline constexpr const char* kInsertDialogues = "parley_records_insert_dialogues";
inline constexpr const char* kDialogueActivity = "parley_records_dialogue_activity";
inline constexpr const char* kInsertSessions = "parley_records_insert_sessions";
inline constexpr const char* kCloseSessions = "parley_records_close_sessions";
inline constexpr const char* kInsertTurns = "parley_records_insert_turns";
inline constexpr const char* kCloseTurns = "parley_records_close_turns";
inline constexpr const char* kInsertMessages = "parley_records_insert_messages";
inline constexpr const char* kMessageMetadata = "parley_records_message_metadata";
inline constexpr const char* kUpsertEmbeddings = "parley_records_upsert_embeddings";
inline constexpr const char* kInsertUtterances = "parley_records_insert_utterances";
inline constexpr const char* kInsertIntrospections = "parley_records_insert_introspections";
inline constexpr const char* kInsertMemories = "parley_records_insert_memories";
inline constexpr const char* kInsertLinks = "parley_records_insert_links";
inline constexpr const char* kSaveCursors = "parley_records_save_cursors";

// Prepares every statement above on `conn` (once per connection, like the writer's own).
result<void> prepare(connection& conn);

// Every records table, for TRUNCATE when the projections are rebuilt.
inline constexpr const char* kTables =
    "dialogue, session, turn, message, system_utterance, introspection_turn, memory_entry, memory_links, "
    "message_embedding, records_cursor";

}  // namespace parley::pg::records_sql

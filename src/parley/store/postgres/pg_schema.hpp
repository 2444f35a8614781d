// The PostgreSQL store's tables and their versioned migrations. The logical layout is the SQLite
// store's (schema.cpp): the event log, the dialogs projection, messages as references to their
// events, the msgId index, and seed 002's conversation records (version 2). What differs is said
// where it is made.
#pragma once

#include <cstdint>

#include "parley/core/result.hpp"
#include "parley/store/postgres/pg_connection.hpp"

namespace parley::pg {

// The schema version this binary writes and reads.
inline constexpr std::int64_t kSchemaVersion = 3;
// The log is partitioned by event id in ranges of this many events; a partition whose events are
// all old can be detached (`ALTER TABLE events DETACH PARTITION ...`) and archived.
inline constexpr std::int64_t kEventsPerPartition = std::int64_t{1} << 24;

// What the records' search matches phrases against (`message` columns, schema version 2): a
// message's search text folded as SQLite's trigram tokenizer folds case, kept in `search_folded`
// only where PostgreSQL's lower() of its content does not already give exactly that — which it
// does for most text, so most rows store no second copy. A macro, to be one string in the
// migration's index and in the query the index must match (pg_records_search.cpp).
#define PARLEY_PG_MESSAGE_SEARCH_KEY "coalesce(search_folded, lower(content))"

// Brings the database to kSchemaVersion, one transaction per step, under an advisory lock so that
// several nodes starting together migrate once. Refuses a database whose schema is newer than
// this binary's, naming both versions, and changes nothing then.
result<void> migrate(connection& conn);
// The version the database is at (0: no Parley tables yet), without changing anything.
result<std::int64_t> schema_version(connection& conn);
// Makes sure a partition exists for the event ids from `event_id` on, up to one whole partition
// ahead, so that an append never lands in the default partition. Idempotent; any node may call it.
result<void> ensure_partitions(connection& conn, std::int64_t event_id);

}  // namespace parley::pg

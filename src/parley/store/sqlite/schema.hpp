// The database schema as an ordered list of forward migrations. A migration, once released, is
// never edited: a later change is a new migration, so every existing database can be upgraded.
#pragma once

#include <cstdint>

#include "parley/core/result.hpp"
#include "parley/store/sqlite/sqlite_handle.hpp"

namespace parley::sqlite {

// The version a database has after `migrate` (the number of the newest migration).
std::int64_t latest_schema_version() noexcept;

// The newest version that made seed 002's records tables (again): a database migrated across it
// has them empty until its projections are rebuilt from the log, which opening the store does.
std::int64_t records_schema_version() noexcept;

// Brings the schema up to `target` (by default the latest), each migration in its own transaction.
// Refuses a database written by a newer binary instead of guessing at its layout. Tests stop
// early to build the databases an older release left behind.
result<void> migrate(connection& db, std::int64_t target = latest_schema_version());

// The version recorded in `schema_version` (0 for a database without the table).
result<std::int64_t> read_schema_version(connection& db);

// Removes every projection row; the event log is untouched. Call inside a transaction.
result<void> clear_projections(connection& db);

}  // namespace parley::sqlite

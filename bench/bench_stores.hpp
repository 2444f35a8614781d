// The stores a benchmark runs its workload on, as `--store` names them (engine, fanout3): the
// in-memory store, the SQLite store in a temp dir, and the PostgreSQL store — on a server the URL
// names, or on a throwaway cluster the bench starts and stops itself (pg_bench_server.hpp).
#pragma once

#include <filesystem>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/store/store.hpp"
#include "pg_bench_server.hpp"

namespace parley::bench {

enum class store_kind { memory, sqlite, postgresql };

// "memory", "sqlite", "postgresql": the names `--store` takes and the figures' key prefixes.
const char* store_name(store_kind kind) noexcept;

struct store_choice {
  store_kind kind = store_kind::sqlite;
  std::string url;  // postgresql only: the server's URL; empty: a throwaway cluster for the run
};

// `--store`: a comma-separated list of memory, sqlite, postgresql (a throwaway cluster) and
// postgresql://… (or postgres://…). A URL runs to the end of the value, since libpq's multi-host
// URLs hold commas of their own. Refuses, naming --store, anything else, a store listed twice and a
// kind not in `allowed`.
result<std::vector<store_choice>> parse_store_list(std::string_view text, std::initializer_list<store_kind> allowed);

// The choice of `kind` in `choices`, or nullptr.
const store_choice* find_choice(const std::vector<store_choice>& choices, store_kind kind) noexcept;

// Starts (or connects to) the PostgreSQL server when one of `choices` needs it; nullopt otherwise.
result<std::optional<pg_server>> server_for(const std::vector<store_choice>& choices);

// An open store, with the PostgreSQL schema it writes to when it has one. The schema is declared
// first so that it is dropped only after the store has closed its connections.
struct bench_store {
  std::optional<pg_schema> schema;
  std::unique_ptr<store> log;
};

// Opens `choice`'s store: SQLite in `sqlite_dir` with `sqlite`'s options, memory, or PostgreSQL in a
// fresh schema of `server` (which must be set for it).
result<bench_store> open_bench_store(const store_choice& choice, const std::filesystem::path& sqlite_dir,
                                     const sqlite_options& sqlite, pg_server* server);

}  // namespace parley::bench

// Direct access to a store's database file, for tests that check what is really on disk.
#pragma once

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "parley/store/sqlite/sqlite_handle.hpp"

namespace parley::test {

using table_dump = std::vector<std::vector<std::string>>;

// Every event as the `events` view gives it, and as the readable view does, in log order.
inline constexpr const char* kEveryColumn =
    "SELECT id, dialog_id, root_id, seq, type, payload, ts_ms FROM events ORDER BY id";
inline constexpr const char* kReadable = "SELECT * FROM events_readable ORDER BY id";

// Every row of `sql`, every column as text, on a fresh connection to `db_file`.
inline table_dump query(const std::string& db_file, const std::string& sql) {
  table_dump rows;
  auto db = sqlite::connection::open_read_write(db_file);
  EXPECT_TRUE(db) << db.err().message;
  if (!db) return rows;
  auto stmt = db->prepare(sql, false);
  EXPECT_TRUE(stmt) << stmt.err().message;
  if (!stmt) return rows;
  const int columns = sqlite3_column_count(stmt->get());
  for (;;) {
    auto has_row = stmt->step();
    EXPECT_TRUE(has_row);
    if (!has_row || !*has_row) break;
    auto& row = rows.emplace_back();
    for (int c = 0; c < columns; ++c) row.push_back(stmt->text_at(c));
  }
  return rows;
}

inline void exec(const std::string& db_file, const char* sql) {
  auto db = sqlite::connection::open_read_write(db_file);
  ASSERT_TRUE(db) << db.err().message;
  auto done = db->exec(sql);
  ASSERT_TRUE(done) << done.err().message;
}

// Every projection table (seed 002's records included), fully, in a stable order.
inline std::vector<table_dump> dump_projections(const std::string& db_file) {
  return {query(db_file, "SELECT * FROM dialogs ORDER BY id"),
          query(db_file, "SELECT * FROM messages ORDER BY event_id"),
          query(db_file, "SELECT * FROM courses ORDER BY dialog_id, course"),
          query(db_file, "SELECT * FROM dialogue ORDER BY id"),
          query(db_file, "SELECT rowid, * FROM session ORDER BY rowid"),
          query(db_file, "SELECT rowid, * FROM turn ORDER BY rowid"),
          query(db_file, "SELECT rowid, * FROM message ORDER BY rowid"),
          query(db_file, "SELECT * FROM records_cursor ORDER BY dialog_id"),
          query(db_file, "SELECT rowid, * FROM system_utterance_log ORDER BY rowid"),
          query(db_file, "SELECT rowid, content FROM message_fts ORDER BY rowid"),
          query(db_file, "SELECT count(*) FROM message_fts WHERE message_fts MATCH 'the'")};
}

inline std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void write_bytes(const std::string& path, const std::string& bytes, std::streamoff at = 0) {
  std::fstream out(path, std::ios::binary | std::ios::in | std::ios::out);
  if (!out) out.open(path, std::ios::binary | std::ios::out);
  out.seekp(at);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace parley::test

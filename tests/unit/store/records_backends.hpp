// The stores that keep seed 002's records, for the tests of the records contract: each opens (and
// opens again) its own fresh store and reads its tables directly, where a test checks what a
// rebuild keeps. The tables have the same names and logical columns in both (records_schema.hpp,
// postgres/pg_schema.cpp).
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <type_traits>

#include "sqlite_raw.hpp"
#include "store_test_support.hpp"
#include "support/pg_test_schema.hpp"

namespace parley::test {

class sqlite_records_backend {
 public:
  static constexpr const char* kName = "Sqlite";
  // A hand edit past the tables' CHECKs: a turn's status no vocabulary has.
  static constexpr const char* kCorruptTurnStatus =
      "PRAGMA ignore_check_constraints = ON; UPDATE turn SET status = 'maybe'";

  std::unique_ptr<store> open() {
    auto opened = open_sqlite_store(dir_.str());
    EXPECT_TRUE(opened) << opened.err().message;
    return opened ? std::move(*opened) : nullptr;
  }
  // Reads the file directly: call after the store's flush (its projections trail the log).
  table_dump query(const std::string& sql) const { return test::query(dir_.db_file(), sql); }
  // Runs on the closed store's file.
  void exec(const std::string& sql) const { test::exec(dir_.db_file(), sql.c_str()); }
  // Every row of a records table, in a stable order.
  table_dump dump(const std::string& table) const { return query("SELECT * FROM " + table + " ORDER BY 1, 2"); }
  const temp_dir& dir() const { return dir_; }

 private:
  temp_dir dir_;
};

class postgres_records_backend {
 public:
  static constexpr const char* kName = "Postgres";
  static constexpr const char* kCorruptTurnStatus =
      "ALTER TABLE turn DROP CONSTRAINT turn_status_check; UPDATE turn SET status = 'maybe'";

  std::unique_ptr<store> open() {
    if (url_.empty()) return nullptr;
    auto opened = open_postgres_store(url_);
    EXPECT_TRUE(opened) << opened.err().message;
    return opened ? std::move(*opened) : nullptr;
  }
  table_dump query(const std::string& sql) const { return pg_rows(url_, sql); }
  void exec(const std::string& sql) const { ASSERT_TRUE(pg_admin(url_, sql)); }
  // Without `n`, the rows' insertion order: a sequence hands out values a rolled-back batch never
  // uses, so a rebuild numbers the same rows in the same order with other values.
  table_dump dump(const std::string& table) const {
    return query("SELECT (to_jsonb(x) - 'n')::text FROM " + table + " x ORDER BY 1");
  }
  const std::string& url() const { return url_; }

 private:
  std::string url_ = pg_fresh_schema_url();
};

using records_backends = ::testing::Types<sqlite_records_backend, postgres_records_backend>;

class records_backend_names {
 public:
  template <class T>
  static std::string GetName(int) {  // NOLINT(readability-identifier-naming): GoogleTest's hook
    return T::kName;
  }
};

}  // namespace parley::test

// A PostgreSQL database for one test: a fresh schema in the cluster ctest started for the run
// (scripts/pg_test_cluster.sh, the `postgres` fixture in tests/CMakeLists.txt), whose URL file
// PARLEY_TEST_PG_URL_FILE names. The store's tables are made in that schema alone (the URL sets
// its search_path), so tests never see each other's rows.
#pragma once

#include <gtest/gtest.h>
#include <libpq-fe.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

namespace parley::test {

// The cluster's URL (its `postgres` database), or "" with a test failure saying why.
inline std::string pg_cluster_url() {
  const char* file = std::getenv("PARLEY_TEST_PG_URL_FILE");
  if (file == nullptr) {
    ADD_FAILURE() << "PARLEY_TEST_PG_URL_FILE is not set: run this test through ctest, which starts the cluster";
    return {};
  }
  std::ifstream in(file);
  std::string url;
  if (!std::getline(in, url) || url.empty()) ADD_FAILURE() << "no PostgreSQL test cluster URL in " << file;
  return url;
}

// Runs one statement on the cluster; false (with a test failure) when it fails.
inline bool pg_admin(const std::string& url, const std::string& sql) {
  std::unique_ptr<PGconn, decltype(&PQfinish)> conn(PQconnectdb(url.c_str()), &PQfinish);
  PQsetNoticeProcessor(
      conn.get(), [](void*, const char*) {}, nullptr);  // "does not exist, skipping"
  if (PQstatus(conn.get()) != CONNECTION_OK) {
    ADD_FAILURE() << "cannot connect to the test cluster: " << PQerrorMessage(conn.get());
    return false;
  }
  std::unique_ptr<PGresult, decltype(&PQclear)> res(PQexec(conn.get(), sql.c_str()), &PQclear);
  const auto status = PQresultStatus(res.get());
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
    ADD_FAILURE() << sql << ": " << PQresultErrorMessage(res.get());
    return false;
  }
  return true;
}

// Every row of one query on `url`, every column as text (NULL as ""); empty with a test failure
// when it fails.
inline std::vector<std::vector<std::string>> pg_rows(const std::string& url, const std::string& sql) {
  std::vector<std::vector<std::string>> out;
  std::unique_ptr<PGconn, decltype(&PQfinish)> conn(PQconnectdb(url.c_str()), &PQfinish);
  if (PQstatus(conn.get()) != CONNECTION_OK) {
    ADD_FAILURE() << "cannot connect to the test cluster: " << PQerrorMessage(conn.get());
    return out;
  }
  std::unique_ptr<PGresult, decltype(&PQclear)> res(PQexec(conn.get(), sql.c_str()), &PQclear);
  if (PQresultStatus(res.get()) != PGRES_TUPLES_OK) {
    ADD_FAILURE() << sql << ": " << PQresultErrorMessage(res.get());
    return out;
  }
  for (int row = 0; row < PQntuples(res.get()); ++row) {
    auto& values = out.emplace_back();
    for (int column = 0; column < PQnfields(res.get()); ++column)
      values.emplace_back(PQgetvalue(res.get(), row, column), PQgetlength(res.get(), row, column));
  }
  return out;
}

// A new, empty schema; the URL that makes it the only one a connection sees.
inline std::string pg_fresh_schema_url() {
  static std::atomic<int> counter{0};
  const std::string url = pg_cluster_url();
  if (url.empty()) return {};
  const std::string schema = "t" + std::to_string(::getpid()) + "_" + std::to_string(counter++);
  // pg_trgm (the records' search) lives in `public`, outside every test's schema, as in a database
  // where it was made before Parley's: made by a migration, it would live in the first test's
  // schema, and a DROP ... CASCADE of that schema (a pid used again) would take every other test's
  // index with it. Under the lock Parley's migrations take, so that tests starting together make
  // it once. The lock is the transaction's (as the migrations take it): a session lock released by
  // the last statement let a second test in before the first one's CREATE committed, to find no
  // extension yet and fail on the catalogue's unique index ("duplicate key value").
  if (!pg_admin(
          url,
          "SELECT pg_advisory_xact_lock(7235018804721537); CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public")) {
    return {};
  }
  if (!pg_admin(url, "DROP SCHEMA IF EXISTS " + schema + " CASCADE; CREATE SCHEMA " + schema)) return {};
  return url + (url.find('?') == std::string::npos ? "?" : "&") + "options=-csearch_path%3D" + schema;
}

}  // namespace parley::test

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

// The first column of the first row of `sql` as a number (-1, with a test failure, when it fails).
inline long long pg_number(const std::string& url, const std::string& sql) {
  std::unique_ptr<PGconn, decltype(&PQfinish)> conn(PQconnectdb(url.c_str()), &PQfinish);
  std::unique_ptr<PGresult, decltype(&PQclear)> res(PQexec(conn.get(), sql.c_str()), &PQclear);
  if (PQresultStatus(res.get()) != PGRES_TUPLES_OK || PQntuples(res.get()) < 1) {
    ADD_FAILURE() << sql << ": " << PQresultErrorMessage(res.get());
    return -1;
  }
  return std::atoll(PQgetvalue(res.get(), 0, 0));
}

// A new, empty schema; the URL that makes it the only one a connection sees.
inline std::string pg_fresh_schema_url() {
  static std::atomic<int> counter{0};
  const std::string url = pg_cluster_url();
  if (url.empty()) return {};
  const std::string schema = "t" + std::to_string(::getpid()) + "_" + std::to_string(counter++);
  if (!pg_admin(url, "DROP SCHEMA IF EXISTS " + schema + " CASCADE; CREATE SCHEMA " + schema)) return {};
  return url + (url.find('?') == std::string::npos ? "?" : "&") + "options=-csearch_path%3D" + schema;
}

}  // namespace parley::test

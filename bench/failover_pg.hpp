// parley-bench failover's own connections to the PostgreSQL server the nodes share: the bench's
// queries (leases before a kill, the audit after the run) and the long transaction of the vacuum
// check. Each query's rows come back as text; an error throws, naming the statement.
#pragma once

#include <libpq-fe.h>

#include <memory>
#include <string>
#include <vector>

namespace parley::bench {

using pg_rows_t = std::vector<std::vector<std::string>>;

class pg_link {
 public:
  // Throws std::runtime_error when the server refuses the connection.
  explicit pg_link(const std::string& url);
  pg_rows_t rows(const std::string& sql);
  void run(const std::string& sql) { (void)rows(sql); }
  // The first column of the first row, or `fallback` when there is none or it is NULL.
  std::string value(const std::string& sql, std::string fallback = {});
  // The database's clock (clock_timestamp()), in milliseconds since the epoch: every time the
  // bench compares is on it.
  double now_ms();

 private:
  std::unique_ptr<PGconn, decltype(&PQfinish)> conn_;
};

// A SQL string literal ('…', quotes doubled).
std::string sql_literal(const std::string& text);
// A SQL array of text literals: ARRAY['a','b']::text[].
std::string sql_text_array(const std::vector<std::string>& items);

}  // namespace parley::bench

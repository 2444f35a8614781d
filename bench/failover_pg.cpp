#include "failover_pg.hpp"

#include <stdexcept>

namespace parley::bench {

pg_link::pg_link(const std::string& url) : conn_(PQconnectdb(url.c_str()), &PQfinish) {
  if (PQstatus(conn_.get()) != CONNECTION_OK)
    throw std::runtime_error(std::string("cannot connect to PostgreSQL: ") + PQerrorMessage(conn_.get()));
  // Drops and notices between the bench's lines are noise.
  PQsetNoticeProcessor(
      conn_.get(), [](void*, const char*) {}, nullptr);
}

pg_rows_t pg_link::rows(const std::string& sql) {
  std::unique_ptr<PGresult, decltype(&PQclear)> res(PQexec(conn_.get(), sql.c_str()), &PQclear);
  const auto status = PQresultStatus(res.get());
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK)
    throw std::runtime_error(sql.substr(0, 120) + ": " + PQresultErrorMessage(res.get()));
  pg_rows_t out;
  for (int row = 0; row < PQntuples(res.get()); ++row) {
    auto& columns = out.emplace_back();
    for (int column = 0; column < PQnfields(res.get()); ++column)
      columns.emplace_back(PQgetisnull(res.get(), row, column) ? "" : PQgetvalue(res.get(), row, column));
  }
  return out;
}

std::string pg_link::value(const std::string& sql, std::string fallback) {
  const auto got = rows(sql);
  return got.empty() || got[0].empty() || got[0][0].empty() ? fallback : got[0][0];
}

double pg_link::now_ms() { return std::stod(value("SELECT extract(epoch FROM clock_timestamp()) * 1000", "0")); }

std::string sql_literal(const std::string& text) {
  std::string out = "'";
  for (const char c : text) {
    if (c == '\'') out += '\'';
    out += c;
  }
  return out + "'";
}

std::string sql_text_array(const std::vector<std::string>& items) {
  std::string out = "ARRAY[";
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? "," : "") + sql_literal(items[i]);
  return out + "]::text[]";
}

}  // namespace parley::bench

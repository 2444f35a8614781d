#pragma once
// The PostgreSQL records reader's SQL pieces (pg_records.cpp): a WHERE clause built with its bound
// values ($1, $2, ...), and the runs of a page (with its total) and of one row. Every value the
// caller gives is bound, never spliced into the SQL; the SQL is made of fixed fragments.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/model/events/wire.hpp"
#include "parley/store/postgres/pg_connection.hpp"
#include "parley/store/records_query.hpp"
#include "parley/store/records_sort.hpp"

namespace parley::pg {

class sql_conditions {
 public:
  // Binds `value`; its placeholder ("$n") to write into the SQL.
  std::string bind(std::string value) {
    values_.push_back(std::move(value));
    return "$" + std::to_string(values_.size());
  }
  // A condition whose one `?` takes `value`.
  void where(std::string_view condition, std::string value) {
    const std::string placeholder = bind(std::move(value));
    std::string clause(condition);
    clause.replace(clause.find('?'), 1, placeholder);
    sql_ += (sql_.empty() ? " WHERE " : " AND ") + clause;
  }
  // `column IN ($a, $b, ...)` for `values`, when there are any (nested loading of many parents).
  void where_in(std::string_view column, const std::vector<std::string>& values) {
    if (values.empty()) return;
    std::string clause = std::string(column) + " IN (";
    for (std::size_t i = 0; i < values.size(); ++i) clause += (i == 0 ? "" : ", ") + bind(values[i]);
    sql_ += (sql_.empty() ? " WHERE " : " AND ") + clause + ")";
  }
  void where_text(std::string_view condition, const std::string& value) {
    if (!value.empty()) where(condition, value);
  }
  // A vocabulary column, when the filter names a value (its wire string).
  template <events::wire_enum E>
  void where_vocab(std::string_view condition, const std::optional<E>& value) {
    if (value) where(condition, std::string(events::to_wire(*value)));
  }
  void where_time(std::string_view column, const records_filter& f) {
    if (f.since) where(std::string(column) + " >= ?::bigint", std::to_string(*f.since));
    if (f.until) where(std::string(column) + " <= ?::bigint", std::to_string(*f.until));
  }
  const std::string& clause() const noexcept { return sql_; }
  // The bound values, for connection::query; valid while this object is and binds nothing more.
  std::vector<std::optional<std::string_view>> params() const {
    return std::vector<std::optional<std::string_view>>(values_.begin(), values_.end());
  }

 private:
  std::string sql_;
  std::vector<std::string> values_;
};

// " ORDER BY alias.column, alias.tie": the sort column, then `tie` (log order, the identity `n`,
// unless said otherwise), both the same way. NULL (a time still open) sorts before every value,
// as SQLite sorts it.
inline std::string order_of(const records_sort& sort, std::string_view alias, std::string_view tie = "n") {
  const char* direction = sort.descending ? " DESC NULLS LAST" : " ASC NULLS FIRST";
  return " ORDER BY " + std::string(alias) + "." + std::string(sort.column) + direction + ", " + std::string(alias) +
         "." + std::string(tie) + direction;
}

// Rows whose dialogue (its id in `dialogue_column`) lies under a root `f.visible_to` takes part in,
// and with `f.or_unowned` under roots no human takes part in (a root's humans are comma-joined ids,
// which never contain a comma).
void visibility_condition(sql_conditions& q, std::string_view dialogue_column, const records_filter& f);
// The filter's conditions on messages (`message m`).
void message_conditions(sql_conditions& q, const records_filter& f);

// Each row of `found` read with `read` (row index in, result<Row> out).
template <class Row, class Read>
result<std::vector<Row>> rows_of(const rows& found, Read read) {
  std::vector<Row> out;
  out.reserve(static_cast<std::size_t>(found.size()));
  for (int i = 0; i < found.size(); ++i) {
    auto row = read(found, i);
    if (!row) return std::move(row).err();
    out.push_back(std::move(*row));
  }
  return out;
}

// `SELECT columns FROM from WHERE ... ORDER ... LIMIT/OFFSET` and its count(*), on one connection.
template <class Row, class Read>
result<records_page<Row>> select_page(connection& conn, std::string_view columns, std::string_view from,
                                      const sql_conditions& where, const std::string& order, const records_filter& f,
                                      Read read) {
  records_page<Row> out;
  const auto args = where.params();
  auto counted = conn.query("SELECT count(*) FROM " + std::string(from) + where.clause(), args, "counting records");
  if (!counted) return std::move(counted).err();
  PARLEY_TRY_ASSIGN(out.total, counted->integer(0, 0));
  sql_conditions paged = where;
  const std::string page = " LIMIT " + paged.bind(std::to_string(std::max<std::int64_t>(f.limit, 0))) +
                           "::bigint OFFSET " + paged.bind(std::to_string(std::max<std::int64_t>(f.offset, 0))) +
                           "::bigint";
  auto found =
      conn.query("SELECT " + std::string(columns) + " FROM " + std::string(from) + where.clause() + order + page,
                 paged.params(), "reading records");
  if (!found) return std::move(found).err();
  PARLEY_TRY_ASSIGN(out.items, rows_of<Row>(*found, read));
  return out;
}

// The row `sql` selects by the id bound at $1, if there is one.
template <class Row, class Read>
result<std::optional<Row>> select_one(connection& conn, const std::string& sql, std::string_view id, Read read) {
  const params<1> args{id};
  auto found = conn.query(sql, args, "reading a record");
  if (!found) return std::move(found).err();
  if (found->empty()) return std::optional<Row>{};
  auto row = read(*found, 0);
  if (!row) return std::move(row).err();
  return std::optional<Row>{std::move(*row)};
}

}  // namespace parley::pg

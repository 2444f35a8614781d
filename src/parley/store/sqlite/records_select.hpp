#pragma once
// The records reader's SQL pieces (records_reader.cpp): a WHERE clause built with its bound values,
// a page's ORDER BY, and the runs of a page (with its total) and of one row.
#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/model/events/wire.hpp"
#include "parley/store/records_query.hpp"
#include "parley/store/sqlite/sqlite_handle.hpp"
#include "parley/store/stored_vocab.hpp"

namespace parley::sqlite {

// A WHERE clause and the values it binds, in order (?1, ?2, ...). The values live here until the
// statement that uses them is reset.
class query_builder {
 public:
  void where(std::string_view condition, std::variant<std::string, std::int64_t> value) {
    sql_ += sql_.empty() ? " WHERE " : " AND ";
    std::string clause(condition);
    clause.replace(clause.find('?'), 1, "?" + std::to_string(values_.size() + 1));
    sql_ += clause;
    values_.push_back(std::move(value));
  }
  // A condition whose `?`s take `values` in order (as many as it has).
  void where_each(std::string_view condition, std::vector<std::string> values) {
    sql_ += sql_.empty() ? " WHERE " : " AND ";
    std::size_t next = 0;
    for (const char c : condition) {
      if (c != '?') {
        sql_ += c;
        continue;
      }
      values_.emplace_back(std::move(values.at(next++)));
      sql_ += "?" + std::to_string(values_.size());
    }
  }
  // `column IN (SELECT rowid FROM table WHERE id IN (...))` for the ids of rows of `table`, when
  // there are any (the nested loading of many parents' rows in one query).
  void where_rowid_in(std::string_view column, std::string_view table, const std::vector<std::string>& ids) {
    if (ids.empty()) return;
    sql_ += sql_.empty() ? " WHERE " : " AND ";
    sql_.append(column).append(" IN (SELECT x.rowid FROM ").append(table).append(" AS x WHERE x.id IN (");
    for (std::size_t i = 0; i < ids.size(); ++i) {
      values_.emplace_back(ids[i]);
      sql_.append(i == 0 ? "record_id_blob(?" : ", record_id_blob(?")
          .append(std::to_string(values_.size()))
          .append(")");
    }
    sql_ += "))";
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
    if (f.since) where(std::string(column) + " >= ?", *f.since);
    if (f.until) where(std::string(column) + " <= ?", *f.until);
  }
  const std::string& clause() const noexcept { return sql_; }
  void bind(statement& stmt) const {
    for (std::size_t i = 0; i < values_.size(); ++i) {
      const int index = static_cast<int>(i + 1);
      if (const auto* text = std::get_if<std::string>(&values_[i])) {
        stmt.bind_text(index, *text);
      } else {
        stmt.bind_int(index, std::get<std::int64_t>(values_[i]));
      }
    }
  }

 private:
  std::string sql_;
  std::vector<std::variant<std::string, std::int64_t>> values_;
};

// The ORDER BY of a page: a known time column of the table (never caller text), then log order.
result<std::string> order_by(const records_filter& f, std::string_view alias, std::string_view fallback,
                             std::initializer_list<std::string_view> allowed);

// `read` turns the current row into a Row, or into result<Row> when a stored value may not read.
template <class Row, class Read>
result<Row> read_row(Read& read, const statement& stmt) {
  if constexpr (std::is_same_v<std::invoke_result_t<Read&, const statement&>, result<Row>>) {
    return read(stmt);
  } else {
    return Row(read(stmt));
  }
}

// Steps `stmt` to the end, turning each row into a Row with `read`.
template <class Row, class Read>
result<std::vector<Row>> collect_rows(statement& stmt, Read read) {
  std::vector<Row> rows;
  for (;;) {
    auto has_row = stmt.step();
    if (!has_row) return std::move(has_row).err();
    if (!*has_row) return rows;
    auto row = read_row<Row>(read, stmt);
    if (!row) return std::move(row).err();
    rows.push_back(std::move(*row));
  }
}

// Runs `SELECT columns FROM from_where ORDER ... LIMIT/OFFSET` and its count(*).
template <class Row, class Read>
result<records_page<Row>> select_page(connection& db, std::string_view columns, const std::string& from,
                                      const query_builder& where, const std::string& order, const records_filter& f,
                                      Read read) {
  records_page<Row> out;
  auto count = db.prepare("SELECT count(*) FROM " + from + where.clause(), false);
  if (!count) return std::move(count).err();
  where.bind(*count);
  auto counted = count->step();
  if (!counted) return std::move(counted).err();
  out.total = count->int_at(0);

  auto select = db.prepare("SELECT " + std::string(columns) + " FROM " + from + where.clause() + order + " LIMIT " +
                               std::to_string(f.limit) + " OFFSET " + std::to_string(f.offset),
                           false);
  if (!select) return std::move(select).err();
  where.bind(*select);
  auto rows = collect_rows<Row>(*select, read);
  if (!rows) return std::move(rows).err();
  out.items = std::move(*rows);
  return out;
}

// A page whose WHERE is costly row by row (a text search's exact test reads each candidate's text,
// from the log): the matching rows are found once, as rowids in page order — the total is their
// number — and then only the page's rows are read. select_page tests every candidate twice (the
// count, then the page). `keys_from` may join what the WHERE reads; `order` names only columns of
// the `rows_alias` table of both, and ends with its rowid, so the two steps order alike.
template <class Row, class Read>
result<records_page<Row>> select_page_found_once(connection& db, std::string_view columns, const std::string& keys_from,
                                                 const std::string& rows_from, std::string_view rows_alias,
                                                 const query_builder& where, const std::string& order,
                                                 const records_filter& f, Read read) {
  auto keys =
      db.prepare("SELECT " + std::string(rows_alias) + ".rowid FROM " + keys_from + where.clause() + order, false);
  if (!keys) return std::move(keys).err();
  where.bind(*keys);
  std::vector<std::int64_t> found;
  for (;;) {
    auto has_row = keys->step();
    if (!has_row) return std::move(has_row).err();
    if (!*has_row) break;
    found.push_back(keys->int_at(0));
  }
  records_page<Row> out;
  out.total = static_cast<std::int64_t>(found.size());
  if (f.offset >= out.total || f.limit <= 0) return out;
  const auto first = found.begin() + f.offset;
  const auto last = first + std::min<std::int64_t>(f.limit, out.total - f.offset);
  std::string page = "[";
  for (auto it = first; it != last; ++it) page += (it == first ? "" : ",") + std::to_string(*it);
  page += ']';
  auto select = db.prepare("SELECT " + std::string(columns) + " FROM " + rows_from + " WHERE " +
                               std::string(rows_alias) + ".rowid IN (SELECT value FROM json_each(?1))" + order,
                           false);
  if (!select) return std::move(select).err();
  select->bind_text(1, page);
  auto rows = collect_rows<Row>(*select, read);
  if (!rows) return std::move(rows).err();
  out.items = std::move(*rows);
  return out;
}

// The row `sql` selects by the id bound at ?1, if there is one.
template <class Row, class Read>
result<std::optional<Row>> select_one(connection& db, const std::string& sql, std::string_view id, Read read) {
  auto stmt = db.prepare(sql, false);
  if (!stmt) return std::move(stmt).err();
  stmt->bind_text(1, id);
  auto found = stmt->step();
  if (!found) return std::move(found).err();
  if (!*found) return std::optional<Row>{};
  auto row = read_row<Row>(read, *stmt);
  if (!row) return std::move(row).err();
  return std::optional<Row>{std::move(*row)};
}

}  // namespace parley::sqlite

// Seed 002's nested loading ("支持嵌套查询与批量载入（e.g., include=messages）", docs/records.md
// "Nested loading"): a records route that lists dialogues, sessions or turns can carry each row's
// sessions, turns or messages, one level or a chain (`include=turns.messages`). Each level is one
// batched query for every parent of the page — never a query per parent. Internal to the server
// module.
#pragma once

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/server/rest_router.hpp"
#include "parley/server/rest_support.hpp"
#include "parley/store/records_query.hpp"

namespace parley::server {

enum class nested_level { sessions, turns, messages };

// Children a parent carries at most (`include_limit`, default and range); past it the parent
// names its own list route with the next offset.
inline constexpr std::int64_t kIncludeLimitDefault = 50;
inline constexpr std::int64_t kIncludeLimitMax = 500;
// Nested rows one response reads from the store in all, every level counted: a page whose parents
// have more is refused (400 naming `include`) rather than cut.
inline constexpr std::int64_t kMaxNestedRows = 2000;

struct include_request {
  std::vector<nested_level> chain;  // empty: nothing nested
  std::int64_t per_parent = kIncludeLimitDefault;
  std::string text;  // the `include` value as given, for the cursors
};

// `?include=` (one of `allowed`, e.g. "turns" or "turns.messages") and `?include_limit=`; an
// unknown value is an error naming `include` and listing the allowed ones, `include_limit`
// without `include` one naming `include_limit`.
result<include_request> parse_include(const rest_request& request, std::initializer_list<std::string_view> allowed);

// A row of a page whose JSON is to carry its children.
struct nested_parent {
  std::string id;
  boost::json::object* json = nullptr;
};

// Loads `include.chain` under `parents` (rows of the level above the chain's first), attaching to
// each parent its children (`sessions` | `turns` | `messages`), `<children>_total` and, when it
// has more than `per_parent`, `<children>_next`: its own list route at the next offset. A refusal
// (too many nested rows) is errc::invalid_argument naming `include`.
result<void> load_nested(records_query& records, const include_request& include, std::vector<nested_parent> parents);

// A refusal of load_nested: 400 bad_field naming `include`, or the store's error.
rest_response nested_refusal(const error& err);

// Rows with their nested rows (records_include.hpp): `include` was parsed before the store was
// asked; too many nested rows is a 400 naming it.
template <class Row>
rest_response nested_rows_response(records_query& records, const include_request& include, const std::vector<Row>& rows,
                                   boost::json::object (*to_json)(const Row&),
                                   std::vector<boost::json::object>& items) {
  items.reserve(rows.size());
  std::vector<nested_parent> parents;
  for (const auto& row : rows) items.push_back(to_json(row));
  for (std::size_t i = 0; i < rows.size(); ++i) parents.push_back({rows[i].id, &items[i]});
  if (auto loaded = load_nested(records, include, std::move(parents)); !loaded) return nested_refusal(loaded.err());
  return json_response(200, {});
}

// `{key: [rows], total}`, each row with what `include` nests in it.
template <class Row>
rest_response nested_page(records_query& records, const include_request& include, const char* key,
                          const records_page<Row>& page, boost::json::object (*to_json)(const Row&)) {
  std::vector<boost::json::object> items;
  auto loaded = nested_rows_response(records, include, page.items, to_json, items);
  if (loaded.status != 200) return loaded;
  boost::json::array list;
  for (auto& item : items) list.push_back(std::move(item));
  return json_response(200, {{key, std::move(list)}, {"total", page.total}});
}

// `{key: row}` with what `include` nests in it.
template <class Row>
rest_response nested_one(records_query& records, const include_request& include, const char* key, const Row& row,
                         boost::json::object (*to_json)(const Row&)) {
  std::vector<boost::json::object> items;
  auto loaded = nested_rows_response(records, include, std::vector<Row>{row}, to_json, items);
  if (loaded.status != 200) return loaded;
  return json_response(200, {{key, std::move(items.front())}});
}

}  // namespace parley::server

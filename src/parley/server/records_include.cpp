#include "parley/server/records_include.hpp"

#include <boost/json/array.hpp>

#include <algorithm>
#include <unordered_map>
#include <utility>

#include "parley/server/records_json.hpp"
#include "parley/server/rest_support.hpp"

namespace parley::server {
namespace {

std::string_view nested_level_name(nested_level level) {
  switch (level) {
    case nested_level::sessions:
      return "sessions";
    case nested_level::turns:
      return "turns";
    case nested_level::messages:
      return "messages";
  }
  return "messages";
}

// What the parents of a level are called in a refusal, and the route that lists one parent's rows
// of that level (the cursor past `include_limit`).
std::string_view nested_parents_name(nested_level level) {
  switch (level) {
    case nested_level::sessions:
      return "dialogues";
    case nested_level::turns:
      return "sessions";
    case nested_level::messages:
      return "turns";
  }
  return "turns";
}

std::string nested_route_of(nested_level level, std::string_view parent_id) {
  return "/api/" + std::string(nested_parents_name(level)) + "/" + std::string(parent_id) + "/" +
         std::string(nested_level_name(level));
}

struct nested_state {
  const include_request& include;
  std::int64_t remaining = kMaxNestedRows;
};

// The chain below `depth`, as an `include` value ("messages" under "turns.messages"); empty at the end.
std::string nested_rest_of(const include_request& include, std::size_t depth) {
  std::string rest;
  for (std::size_t i = depth + 1; i < include.chain.size(); ++i) {
    rest += (rest.empty() ? "" : ".") + std::string(nested_level_name(include.chain[i]));
  }
  return rest;
}

result<void> nested_too_many(nested_level level, std::size_t parents, std::int64_t found) {
  return make_error(errc::invalid_argument,
                    "include: the " + std::to_string(parents) + " " + std::string(nested_parents_name(level)) +
                        " of this page have " + std::to_string(found) + " " + std::string(nested_level_name(level)) +
                        " in all, more than the " + std::to_string(kMaxNestedRows) +
                        " nested rows one response reads; ask for fewer rows with limit or page each one's at " +
                        nested_route_of(level, "{id}"));
}

template <class Row>
using nested_fetch = result<records_page<Row>> (records_query::*)(const records_filter&);

// One level: every parent's rows in one query (`ids_of` picks the filter's parent list), grouped
// by parent in log order, capped per parent; returns the rows kept, as the next level's parents.
template <class Row>
result<std::vector<nested_parent>> nested_level_load(records_query& records, nested_state& state, std::size_t depth,
                                                     const std::vector<nested_parent>& parents,
                                                     std::vector<std::string> records_filter::*ids_of,
                                                     nested_fetch<Row> fetch, std::string Row::*parent_of,
                                                     boost::json::object (*to_json)(const Row&),
                                                     std::vector<boost::json::object>& storage) {
  const nested_level level = state.include.chain[depth];
  records_filter filter;
  for (const auto& parent : parents) (filter.*ids_of).push_back(parent.id);
  filter.limit = state.remaining;
  auto page = (records.*fetch)(filter);
  if (!page) return std::move(page).err();
  if (page->total > state.remaining) {
    auto refused = nested_too_many(level, parents.size(), page->total);
    return std::move(refused).err();
  }
  state.remaining -= page->total;
  std::unordered_map<std::string, std::vector<const Row*>> by_parent;
  for (const auto& row : page->items) by_parent[row.*parent_of].push_back(&row);
  const std::string name(nested_level_name(level));
  const std::string rest = nested_rest_of(state.include, depth);
  const auto cap = static_cast<std::size_t>(state.include.per_parent);
  std::vector<std::pair<std::string, std::size_t>> kept;  // row id, index in storage
  for (const auto& parent : parents) {
    const auto& rows = by_parent[parent.id];
    for (std::size_t i = 0; i < rows.size() && i < cap; ++i) {
      storage.push_back(to_json(*rows[i]));
      kept.emplace_back(rows[i]->id, storage.size() - 1);
    }
    (*parent.json)[name + "_total"] = static_cast<std::int64_t>(rows.size());
    if (rows.size() > cap) {
      std::string next =
          nested_route_of(level, parent.id) + "?offset=" + std::to_string(cap) + "&limit=" + std::to_string(cap);
      if (!rest.empty()) next += "&include=" + rest + "&include_limit=" + std::to_string(cap);
      (*parent.json)[name + "_next"] = next;
    } else {
      (*parent.json)[name + "_next"] = nullptr;
    }
  }
  std::vector<nested_parent> next_parents;
  next_parents.reserve(kept.size());
  for (auto& [id, index] : kept) next_parents.push_back({std::move(id), &storage[index]});
  return next_parents;
}

// Moves each level's rows into their parents, deepest first, once every level is loaded (the
// storage of a level must not move while the level below points into it).
void nested_attach(std::vector<std::vector<boost::json::object>>& storage,
                   std::vector<std::vector<nested_parent>>& parents_of, const include_request& include) {
  for (std::size_t depth = include.chain.size(); depth-- > 0;) {
    const std::string name(nested_level_name(include.chain[depth]));
    std::size_t next = 0;
    for (auto& parent : parents_of[depth]) {
      boost::json::array list;
      const auto total = (*parent.json).at(name + "_total").as_int64();
      const auto kept = std::min<std::int64_t>(total, include.per_parent);
      for (std::int64_t i = 0; i < kept; ++i) list.push_back(std::move(storage[depth][next++]));
      (*parent.json)[name] = std::move(list);
    }
  }
}

}  // namespace

rest_response nested_refusal(const error& err) {
  return err.code == errc::invalid_argument ? field_error(err) : error_response(err);
}

result<include_request> parse_include(const rest_request& request, std::initializer_list<std::string_view> allowed) {
  include_request out;
  const auto found = request.query.find("include");
  const bool has_limit = request.query.contains("include_limit");
  if (found == request.query.end()) {
    if (has_limit) return make_error(errc::invalid_argument, "include_limit: only with include");
    return out;
  }
  bool known = false;
  for (const auto value : allowed) known = known || found->second == value;
  if (!known) {
    std::string expected;
    for (const auto value : allowed) expected += (expected.empty() ? "" : ", ") + std::string(value);
    return make_error(errc::invalid_argument, "include: expected one of " + expected + ", got '" + found->second + "'");
  }
  out.text = found->second;
  std::string_view rest = out.text;
  while (!rest.empty()) {
    const auto dot = rest.find('.');
    const auto name = rest.substr(0, dot);
    out.chain.push_back(name == "sessions" ? nested_level::sessions
                        : name == "turns"  ? nested_level::turns
                                           : nested_level::messages);
    rest = dot == std::string_view::npos ? std::string_view{} : rest.substr(dot + 1);
  }
  auto limit = query_integer(request, "include_limit", kIncludeLimitDefault, 1, kIncludeLimitMax);
  if (!limit) return std::move(limit).err();
  out.per_parent = *limit;
  return out;
}

result<void> load_nested(records_query& records, const include_request& include, std::vector<nested_parent> parents) {
  if (include.chain.empty()) return {};
  nested_state state{include};
  std::vector<std::vector<boost::json::object>> storage(include.chain.size());
  std::vector<std::vector<nested_parent>> parents_of;
  parents_of.push_back(std::move(parents));
  for (std::size_t depth = 0; depth < include.chain.size(); ++depth) {
    // Reserved so that the pointers the next level keeps stay valid.
    storage[depth].reserve(static_cast<std::size_t>(kMaxNestedRows));
    result<std::vector<nested_parent>> next = std::vector<nested_parent>{};
    const auto& above = parents_of.back();
    switch (include.chain[depth]) {
      case nested_level::sessions:
        next = nested_level_load<record_session>(records, state, depth, above, &records_filter::dialogue_ids,
                                                 &records_query::sessions, &record_session::dialogue_id, session_json,
                                                 storage[depth]);
        break;
      case nested_level::turns:
        next =
            nested_level_load<record_turn>(records, state, depth, above, &records_filter::session_ids,
                                           &records_query::turns, &record_turn::session_id, turn_json, storage[depth]);
        break;
      case nested_level::messages:
        next = nested_level_load<record_message>(records, state, depth, above, &records_filter::turn_ids,
                                                 &records_query::messages, &record_message::turn_id,
                                                 record_message_json, storage[depth]);
        break;
    }
    if (!next) return std::move(next).err();
    if (depth + 1 < include.chain.size()) parents_of.push_back(std::move(*next));
  }
  nested_attach(storage, parents_of, include);
  return {};
}

}  // namespace parley::server

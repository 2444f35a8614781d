#include "parley/server/records_params.hpp"

#include <algorithm>
#include <cstdint>

#include "parley/core/time.hpp"
#include "parley/model/records_write_rules.hpp"
#include "parley/server/rest_support.hpp"

namespace parley::server {
namespace {

constexpr std::int64_t kMaxPage = 500;
constexpr std::size_t kMaxQueryBytes = 256;

using names = std::vector<std::string_view>;

bool one_of(std::string_view value, const names& allowed) {
  return std::find(allowed.begin(), allowed.end(), value) != allowed.end();
}

std::string joined(const names& list) {
  std::string out;
  for (auto name : list) {
    if (!out.empty()) out += ", ";
    out.append(name);
  }
  return out;
}

// A query parameter that is one of a records vocabulary (events/records_enums.hpp), read through
// its table; `also` are more words the route takes, listed after the table's in the refusal.
template <events::wire_enum E>
result<std::optional<E>> vocab_param(const rest_request& request, std::string_view key, const names& also = {}) {
  const auto found = request.query.find(key);
  if (found == request.query.end()) return std::optional<E>{};
  if (auto value = events::from_wire<E>(found->second)) return std::optional<E>{*value};
  names allowed;
  for (const auto& [value, wire] : events::enum_wire<E>::values) allowed.push_back(wire);
  allowed.insert(allowed.end(), also.begin(), also.end());
  return make_error(errc::invalid_argument,
                    std::string(key) + ": expected one of " + joined(allowed) + ", got '" + found->second + "'");
}

result<std::optional<std::int64_t>> time_param(const rest_request& request, std::string_view key) {
  const auto found = request.query.find(key);
  if (found == request.query.end()) return std::optional<std::int64_t>{};
  const auto ms = read_iso8601_ms(found->second);
  if (!ms) return make_error(errc::invalid_argument, std::string(key) + ": " + ms.err().message);
  return std::optional<std::int64_t>{*ms};
}

std::size_t utf8_length(std::string_view text) {
  return static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xc0) != 0x80; }));
}

}  // namespace

result<records_filter> parse_records_params(const rest_request& request, const records_params_spec& spec) {
  for (const auto& [key, value] : request.query) {
    if (key != "limit" && key != "offset" && !one_of(key, spec.accepted)) {
      return make_error(errc::invalid_argument, key + ": not a parameter of this route; it takes limit, offset" +
                                                    (spec.accepted.empty() ? "" : ", " + joined(spec.accepted)));
    }
  }
  records_filter f;
  auto limit = query_integer(request, "limit", 50, 1, kMaxPage);
  if (!limit) return std::move(limit).err();
  auto offset = query_integer(request, "offset", 0, 0, INT32_MAX);
  if (!offset) return std::move(offset).err();
  f.limit = *limit;
  f.offset = *offset;

  PARLEY_TRY_ASSIGN(f.role, vocab_param<events::record_role>(request, "role"));
  PARLEY_TRY_ASSIGN(f.content_type, vocab_param<events::content_type>(request, "content_type"));
  PARLEY_TRY_ASSIGN(f.status, vocab_param<events::turn_status>(request, "status"));
  // Seed 002's words are taken too: `interaction` and `reflection` (the write API's session types)
  // and `task` (its "?type=task"): the sessions of the work another AI gave the member, i.e. of
  // ai_ai dialogues (a Tellask's subdialog).
  constexpr std::string_view kTask = "task";
  if (const auto type = request.query.find("type"); type != request.query.end() && type->second == kTask) {
    f.dialogue_type = events::dialogue_type::ai_ai;
  } else {
    auto requested = vocab_param<events::requested_session_type>(request, "type", {kTask});
    if (!requested) return std::move(requested).err();
    if (*requested) f.session_type = records_rules::session_type_of(**requested);
  }

  auto since = time_param(request, "since");
  if (!since) return std::move(since).err();
  auto until = time_param(request, "until");
  if (!until) return std::move(until).err();
  f.since = *since;
  f.until = *until;
  if (f.since && f.until && *f.until < *f.since) {
    return make_error(errc::invalid_argument, "until: " + request.query.find("until")->second + " is before since " +
                                                  request.query.find("since")->second);
  }

  if (const auto sort = request.query.find("sort_by"); sort != request.query.end()) {
    std::string_view column = sort->second;
    f.descending = !column.empty() && column.front() == '-';
    if (f.descending) column.remove_prefix(1);
    if (!one_of(column, spec.sortable)) {
      return make_error(errc::invalid_argument, "sort_by: expected one of " + joined(spec.sortable) +
                                                    " (a leading '-' sorts newest first), got '" + sort->second + "'");
    }
    f.sort_by = std::string(column);
  } else if (!spec.sortable.empty()) {
    f.sort_by = std::string(spec.sortable.front());
  }
  return f;
}

result<std::string> fts_match_of(std::string_view q) {
  if (q.size() > kMaxQueryBytes) {
    return make_error(errc::invalid_argument, "q: at most " + std::to_string(kMaxQueryBytes) + " bytes");
  }
  std::string match;
  std::size_t pos = 0;
  while (pos < q.size()) {
    const auto start = q.find_first_not_of(" \t\r\n", pos);
    if (start == std::string_view::npos) break;
    auto end = q.find_first_of(" \t\r\n", start);
    if (end == std::string_view::npos) end = q.size();
    const std::string_view word = q.substr(start, end - start);
    pos = end;
    if (word.find_first_of("\"*():^{}") != std::string_view::npos) {
      return make_error(errc::invalid_argument,
                        "q: '" + std::string(word) + "' has search syntax (\" * ( ) : ^ { }); give plain words");
    }
    if (word == "NEAR" || word == "AND" || word == "OR" || word == "NOT") {
      return make_error(errc::invalid_argument,
                        "q: '" + std::string(word) + "' is a search operator; give plain words (all must match)");
    }
    if (utf8_length(word) < 3) {
      return make_error(errc::invalid_argument,
                        "q: each word needs at least 3 characters, got '" + std::string(word) + "'");
    }
    if (!match.empty()) match += ' ';
    match += '"';
    match.append(word);
    match += '"';
  }
  if (match.empty()) return make_error(errc::invalid_argument, "q: required, the words to search for");
  return match;
}

}  // namespace parley::server

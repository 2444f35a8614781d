// Which column a records page sorts by (records_filter::sort_by), decided before any SQL is
// written: the caller's text only ever picks one of a fixed list, never reaches the query itself.
// Both records readers sort so.
#pragma once

#include <initializer_list>
#include <string_view>

#include "parley/core/result.hpp"
#include "parley/store/records_query.hpp"

namespace parley {

struct records_sort {
  std::string_view column;  // one of the allowed names, never the caller's text
  bool descending = false;
};

// A page of sessions, turns, messages and the like: `fallback` (the row's own time) unless the
// filter names another of `allowed`; ascending unless it says descending.
result<records_sort> records_sort_of(const records_filter& f, std::string_view fallback,
                                     std::initializer_list<std::string_view> allowed);

// A page of root dialogues: newest first by created_at unless the filter sorts by created_at or
// last_activity_at itself.
result<records_sort> dialogues_sort_of(const records_filter& f);

}  // namespace parley

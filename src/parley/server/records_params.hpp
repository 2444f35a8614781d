// Query parameters of the records routes (docs/records.md), checked once into a records_filter.
// Each route names the parameters it takes; anything else, a bad enum value, a bad time or an
// empty time range is an error naming the parameter. Internal to the server module.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/server/rest_router.hpp"
#include "parley/store/records_query.hpp"

namespace parley::server {

struct records_params_spec {
  std::vector<std::string_view> accepted;  // parameter names besides limit and offset
  std::vector<std::string_view> sortable;  // sort_by columns; the first is the default
};

result<records_filter> parse_records_params(const rest_request& request, const records_params_spec& spec);

// Plain words to an FTS5 expression of quoted terms (implicit AND). FTS syntax in `q` (quotes,
// `*`, parentheses, column filters, NEAR/AND/OR/NOT) is refused, not interpreted, and each word
// needs three characters (the trigram index cannot match fewer).
result<std::string> fts_match_of(std::string_view q);

}  // namespace parley::server

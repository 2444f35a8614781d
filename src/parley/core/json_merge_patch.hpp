// A JSON merge patch (RFC 7396), as SQLite's json_patch applies it: members of the patch replace the
// target's (objects merged member by member), a null member removes one, anything that is not an
// object replaces the whole target. The target's members keep their order and new ones follow in
// the patch's, so for inputs as Boost.JSON writes them (as the records' metadata always is) the text
// comes out as SQLite's would — what lets a store without json_patch (PostgreSQL's records,
// pg_records_changes.cpp) keep metadata as SQLite does. (SQLite keeps a number's or an escape's own
// spelling; this writes Boost.JSON's.)
#pragma once

#include <string>
#include <string_view>

#include "parley/core/json.hpp"
#include "parley/core/result.hpp"

namespace parley {

json::value json_merge_patch(const json::value& target, const json::value& patch);
// The same on JSON text; fails naming which of the two does not parse.
result<std::string> json_merge_patch_text(std::string_view target, std::string_view patch);

}  // namespace parley

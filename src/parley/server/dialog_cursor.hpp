// The `cursor` of GET /api/dialogs and its `nextCursor`: the key of the last root a page showed
// (store/root_listing.hpp), written as "<created_at_ms>.<id>". Clients pass it back unchanged;
// the server checks it like any other input, so a forged one can only name a place in the list.
#pragma once

#include <string>
#include <string_view>

#include "parley/core/result.hpp"
#include "parley/store/root_listing.hpp"

namespace parley::server {

std::string cursor_text(const root_page_key& key);
// Errors name the `cursor` field and what is wrong with it.
result<root_page_key> parse_cursor(std::string_view text);

}  // namespace parley::server

// A page of root dialogs, newest first: what `GET /api/dialogs` and `parley dialogs` show. The
// filters are the store's to answer (the SQLite store walks an index of roots and a full-text
// index of their titles and human messages), so a listing costs the page it returns rather than
// the history it pages through. Pages follow each other by a keyset cursor — the (created_at_ms,
// id) of the last row shown — so a deep page costs what the first one does; `offset` is kept for
// old clients and costs the rows it skips.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/model/records.hpp"

namespace parley {

class store;

// Where a page ends: the last row it showed. The next page starts strictly after it.
struct root_page_key {
  std::int64_t created_at_ms = 0;
  std::string id;
  friend bool operator==(const root_page_key&, const root_page_key&) = default;
};

// Whose roots a multi-user server shows (server/users.hpp): those the user takes part in
// (`humans` holds the id) and, for an operator, those no human takes part in.
struct root_viewer {
  std::string user_id;
  bool sees_unowned = false;
};

struct root_listing {
  std::optional<events::dialog_status> status;  // none = any
  std::string member_id;                        // empty = any
  std::optional<root_viewer> viewer;            // nullopt = every root
  // Case-insensitive substring of the title or of a message a human sent in the root; empty = any.
  std::string text;
  std::optional<root_page_key> after;  // keyset: only rows older than this one
  std::int64_t limit = 50;             // > 0
  std::int64_t offset = 0;             // rows skipped after `after`; for old clients
  // Count every root that passes the filters (not the page). With `text`, only on the last page:
  // counting every match of a common term costs far more than finding a page of them.
  bool with_total = false;
};

struct root_page {
  std::vector<dialog_row> rows;
  bool more = false;                  // another page follows the last row
  std::optional<std::int64_t> total;  // when asked for (see with_total)
};

// The row's key, for the cursor of the page that follows it.
root_page_key page_key_of(const dialog_row& row);

// The answer computed by reading every root (list_dialogs and messages): the reference the
// indexed stores are tested against, and the default for a store with no index of its own.
result<root_page> scan_roots(store& log, const root_listing& listing);

}  // namespace parley

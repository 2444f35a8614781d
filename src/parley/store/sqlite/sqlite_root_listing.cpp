// Root listings from the indexes of schema version 8 (schema.cpp): newest first by a keyset over
// (created_at_ms, id), status and member in SQL, a viewer's visibility in SQL, and the text
// filter from two trigram full-text indexes (root titles, and the records' message text). The
// answer equals scan_roots' (root_listing.hpp); StoreConformance.*Roots* hold both to it.
//
// A term that matches nearly every root is the full-text indexes' worst case: they give every
// match, which is then sorted to find the newest page (155 ms at 25,000 roots). So a text filter
// first reads a window of the newest roots in key order and tests each one's title and human
// messages as scan_roots does; when that fills the page, the indexes are never asked. Only a term
// rarer than that (a page not filled from the window) goes to the indexes, which are fast exactly
// when matches are few.
#include <algorithm>
#include <optional>
#include <string>

#include "parley/core/text.hpp"
#include "parley/store/sqlite/records_v16.hpp"
#include "parley/store/sqlite/records_v22.hpp"
#include "parley/store/sqlite/row_codec.hpp"
#include "parley/store/sqlite/sqlite_reader.hpp"
#include "parley/store/sqlite/trigram_text.hpp"

namespace parley::sqlite {
namespace {

constexpr unsigned kRootsByStatus = 1;
constexpr unsigned kRootsByMember = 2;
constexpr unsigned kRootsByViewer = 4;
constexpr unsigned kRootsViewerSeesUnowned = 8;
constexpr unsigned kRootsByIndexedText = 16;  // three characters or more: the trigram indexes answer
constexpr unsigned kRootsByShortText = 32;    // fewer: a trigram index cannot, so titles and messages are read
constexpr unsigned kRootsAfterKey = 64;
constexpr unsigned kRootsCount = 128;     // count(*) of the filtered roots instead of a page
constexpr unsigned kRootsWindowed = 256;  // the text tested row by row over a window of the newest roots

// How many of the newest roots a text filter tests one by one before it asks the indexes.
std::int64_t window_for(std::int64_t limit) { return std::max<std::int64_t>(200, 4 * (limit + 1)); }

std::size_t utf8_length(std::string_view text) {
  std::size_t count = 0;
  for (const char c : text) count += (static_cast<unsigned char>(c) & 0xC0U) != 0x80U ? 1 : 0;
  return count;
}

unsigned shape_of(const root_listing& listing) {
  unsigned shape = 0;
  if (listing.status) shape |= kRootsByStatus;
  if (!listing.member_id.empty()) shape |= kRootsByMember;
  if (listing.viewer) shape |= kRootsByViewer | (listing.viewer->sees_unowned ? kRootsViewerSeesUnowned : 0U);
  if (!listing.text.empty()) shape |= utf8_length(listing.text) >= 3 ? kRootsByIndexedText : kRootsByShortText;
  if (listing.after) shape |= kRootsAfterKey;
  return shape;
}

// The window's test of one root (alias d) for the lowercased text ?4: what scan_roots tests. A
// message's text may be its event's (records_v16.hpp).
const std::string& root_mentions() {
  static const std::string sql =
      std::string(
          "(instr(lower(d.title), ?4) > 0 OR EXISTS (SELECT 1 FROM dialogue AS g JOIN message AS m"
          " ON m.dialogue_rowid = g.rowid WHERE g.dialog_id = d.id AND m.sender_role = 'human'"
          " AND instr(lower(") +
      kMessageContentSql + "), ?4) > 0))";
  return sql;
}

// Parameters: ?1 status, ?2 member, ?3 viewer, ?4 text (kRootsByIndexedText: its trigrams' query), ?5/?6
// the key to start after, ?7 limit, ?8 offset, ?9 the window (kRootsWindowed), ?10 the text (kRootsByIndexedText).
std::string root_sql(unsigned shape) {
  const bool windowed = (shape & kRootsWindowed) != 0;
  const std::string select = (shape & kRootsCount) != 0 ? "SELECT count(*)" : "SELECT " + std::string(kDialogColumns);
  std::string sql = windowed ? "SELECT *" : select;
  // Spelled as the partial indexes of version 8 are, so that SQLite uses them.
  sql += " FROM dialogs WHERE parent_id = ''";
  if ((shape & kRootsByStatus) != 0) sql += " AND status = ?1";
  if ((shape & kRootsByMember) != 0) sql += " AND member_id = ?2";
  if ((shape & kRootsByViewer) != 0) {
    // `humans` is the comma-joined ids of the root's people (row_codec); user ids hold no comma.
    sql += " AND (instr(',' || humans || ',', ',' || ?3 || ',') > 0";
    sql += (shape & kRootsViewerSeesUnowned) != 0 ? " OR humans = '')" : ")";
  }
  if ((shape & kRootsByIndexedText) != 0) {
    sql +=
        " AND id IN (SELECT dialog_id FROM root_title_fts WHERE root_title_fts MATCH ?4"
        " AND instr(parley_trigram_fold(title), parley_trigram_fold(?10)) > 0"
        " UNION SELECT " +
        std::string(kMessageDialogIdSql) +
        " FROM message AS m WHERE m.rowid IN"
        " (SELECT rowid FROM message_fts WHERE message_fts MATCH ?4"
        " AND instr(parley_trigram_fold(content), parley_trigram_fold(?10)) > 0) AND m.sender_role = 'human')";
  }
  if ((shape & kRootsByShortText) != 0) {
    sql +=
        " AND id IN (SELECT dialog_id FROM root_title_fts WHERE instr(lower(title), ?4) > 0"
        " UNION SELECT " +
        std::string(kMessageDialogIdSql) +
        " FROM message AS m WHERE m.sender_role = 'human'"
        " AND instr(lower(" +
        std::string(kMessageContentSql) + "), ?4) > 0)";
  }
  if ((shape & kRootsCount) != 0) return sql;
  if ((shape & kRootsAfterKey) != 0) sql += " AND (created_at_ms, id) < (?5, ?6)";
  if (windowed) {
    sql = select + " FROM (" + sql + " ORDER BY created_at_ms DESC, id DESC LIMIT ?9) AS d WHERE " + root_mentions();
  }
  return sql + " ORDER BY created_at_ms DESC, id DESC LIMIT ?7 OFFSET ?8";
}

void bind_filters(statement& stmt, const root_listing& listing, unsigned shape) {
  if ((shape & kRootsByStatus) != 0) stmt.bind_text(1, events::to_wire(*listing.status));
  if ((shape & kRootsByMember) != 0) stmt.bind_text(2, listing.member_id);
  if ((shape & kRootsByViewer) != 0) stmt.bind_text(3, listing.viewer->user_id);
  if ((shape & kRootsByIndexedText) != 0) {
    // The indexes keep no positions (schema 18): the rows holding every trigram of the text, each
    // then tested for the text itself (trigram_text.hpp), are the rows its phrase found.
    stmt.bind_text_copy(4, trigram_match_of(listing.text));
    stmt.bind_text(10, listing.text);
  }
  if ((shape & (kRootsByShortText | kRootsWindowed)) != 0) stmt.bind_text_copy(4, ascii_lowercase(listing.text));
}

}  // namespace

result<statement*> sqlite_reader::root_statement(unsigned shape) {
  statement& stmt = list_roots_[shape];
  if (!stmt.valid()) PARLEY_TRY(prepare_into(db_, stmt, root_sql(shape)));
  return &stmt;
}

// One page of the query of `shape`; `window`, the number of newest roots a kRootsWindowed query tests.
result<root_page> sqlite_reader::root_page_of(const root_listing& listing, unsigned shape, std::int64_t window) {
  const std::int64_t limit = listing.limit > 0 ? listing.limit : 1;
  root_page page;
  auto found = root_statement(shape);
  if (!found) return std::move(found).err();
  statement& query = **found;
  reset_guard guard(query);
  bind_filters(query, listing, shape);
  if (listing.after) {
    query.bind_int(5, listing.after->created_at_ms);
    query.bind_text(6, listing.after->id);
  }
  query.bind_int(7, limit + 1);  // one more than the page says whether another follows
  query.bind_int(8, listing.offset > 0 ? listing.offset : 0);
  if ((shape & kRootsWindowed) != 0) query.bind_int(9, window);
  for (;;) {
    auto has_row = query.step();
    if (!has_row) return std::move(has_row).err();
    if (!*has_row) break;
    if (static_cast<std::int64_t>(page.rows.size()) == limit) {
      page.more = true;
      break;
    }
    auto row = read_dialog(query);
    if (!row) return std::move(row).err();
    page.rows.push_back(std::move(*row));
  }
  return page;
}

result<root_page> sqlite_reader::list_roots(const root_listing& listing) {
  const unsigned shape = shape_of(listing);
  const std::int64_t limit = listing.limit > 0 ? listing.limit : 1;
  const unsigned text_shapes = kRootsByIndexedText | kRootsByShortText;
  parley::lock_guard lock(mutex_);
  std::optional<root_page> page;
  if ((shape & text_shapes) != 0 && listing.offset <= 0) {
    // A common term fills the page from the newest roots; a rare one leaves it short and goes on.
    auto windowed = root_page_of(listing, (shape & ~text_shapes) | kRootsWindowed, window_for(limit));
    if (!windowed) return std::move(windowed).err();
    if (windowed->more) page = std::move(*windowed);
  }
  if (!page) {
    auto indexed = root_page_of(listing, shape, 0);
    if (!indexed) return std::move(indexed).err();
    page = std::move(*indexed);
  }
  // With a text filter, counting every match costs what materializing them does — for a common
  // term, far more than the page — so `total` comes only when the page is the last one.
  const bool cheap_total = (shape & text_shapes) == 0 || !page->more;
  if (listing.with_total && cheap_total) {
    const unsigned count_shape = (shape & ~kRootsAfterKey) | kRootsCount;
    auto found = root_statement(count_shape);
    if (!found) return std::move(found).err();
    statement& count = **found;
    reset_guard guard(count);
    bind_filters(count, listing, count_shape);
    auto has_row = count.step();
    if (!has_row) return std::move(has_row).err();
    page->total = *has_row ? count.int_at(0) : 0;
  }
  return std::move(*page);
}

}  // namespace parley::sqlite

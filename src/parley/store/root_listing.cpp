// The reference answer of a root listing: read every root, filter, sort newest first, page.
// The in-memory store uses it as is; the SQLite store's indexed query is tested against it.
#include "parley/store/root_listing.hpp"

#include <algorithm>
#include <cctype>

#include "parley/core/text.hpp"
#include "parley/store/store.hpp"

namespace parley {
namespace {

bool visible_to(const root_viewer& viewer, const dialog_row& row) {
  if (row.humans.empty()) return viewer.sees_unowned;
  return std::find(row.humans.begin(), row.humans.end(), viewer.user_id) != row.humans.end();
}

// What a human said: the records' "human" sender (conversation_reducer's classify), whose
// messages are what the full-text index of the SQLite store holds for them.
bool said_by_a_human(const message_row& message) {
  using events::message_origin;
  return message.role == events::message_role::user &&
         (!message.origin || message.origin == message_origin::user || message.origin == message_origin::answer);
}

result<bool> mentions(store& log, const dialog_row& row, const std::string& needle) {
  if (ascii_lowercase(row.title).find(needle) != std::string::npos) return true;
  auto messages = log.messages(row.id, 0);
  if (!messages) return std::move(messages).err();
  return std::any_of(messages->begin(), messages->end(), [&](const message_row& message) {
    return said_by_a_human(message) && ascii_lowercase(message.content).find(needle) != std::string::npos;
  });
}

bool newer(const dialog_row& a, const dialog_row& b) {
  return a.created_at_ms != b.created_at_ms ? a.created_at_ms > b.created_at_ms : a.id > b.id;
}

bool older_than(const dialog_row& row, const root_page_key& key) {
  return row.created_at_ms != key.created_at_ms ? row.created_at_ms < key.created_at_ms : row.id < key.id;
}

}  // namespace

root_page_key page_key_of(const dialog_row& row) { return {row.created_at_ms, row.id}; }

result<root_page> scan_roots(store& log, const root_listing& listing) {
  dialog_filter filter;
  filter.roots_only = true;
  filter.status = listing.status;
  filter.member_id = listing.member_id;
  auto rows = log.list_dialogs(filter);
  if (!rows) return std::move(rows).err();
  const std::string needle = ascii_lowercase(listing.text);
  std::vector<dialog_row> chosen;
  for (auto& row : *rows) {
    if (listing.viewer && !visible_to(*listing.viewer, row)) continue;
    if (!needle.empty()) {
      auto found = mentions(log, row, needle);
      if (!found) return std::move(found).err();
      if (!*found) continue;
    }
    chosen.push_back(std::move(row));
  }
  std::sort(chosen.begin(), chosen.end(), newer);
  root_page page;
  const auto matched = static_cast<std::int64_t>(chosen.size());
  auto first = chosen.begin();
  if (listing.after)
    first = std::find_if(first, chosen.end(), [&](const dialog_row& row) { return older_than(row, *listing.after); });
  const auto skipped = std::min<std::int64_t>(std::max<std::int64_t>(listing.offset, 0), chosen.end() - first);
  first += skipped;
  const auto limit = std::max<std::int64_t>(listing.limit, 1);
  const auto last = first + std::min<std::int64_t>(limit, chosen.end() - first);
  page.rows.assign(std::make_move_iterator(first), std::make_move_iterator(last));
  page.more = last != chosen.end();
  if (listing.with_total && (needle.empty() || !page.more)) page.total = matched;
  return page;
}

}  // namespace parley

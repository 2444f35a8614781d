#include "parley/engine/retention.hpp"

#include <future>

namespace parley::engine {
namespace {

constexpr std::int64_t kDayMs = std::int64_t{24} * 3600 * 1000;
constexpr std::int64_t kPage = 500;

bool at_rest(const dialog_row& root) {
  return !root.generating && !root.needs_drive && root.open_questions == 0 && root.pending_subdialogs == 0;
}

event archive_event(const dialog_row& root, std::int64_t now_ms) {
  event ev;
  ev.dialog_id = root.id;
  ev.root_id = root.root_id.empty() ? root.id : root.root_id;
  ev.seq = root.last_seq + 1;
  ev.payload = events::status_changed{events::dialog_status::archived};
  ev.ts_ms = now_ms;
  return ev;
}

result<void> append_and_wait(store& log, std::vector<event> batch) {
  std::promise<result<void>> done;
  auto committed = done.get_future();
  log.append(std::move(batch), [&done](result<void> outcome) { done.set_value(std::move(outcome)); });
  return committed.get();
}

}  // namespace

result<retention_outcome> apply_retention(store& log, const config::retention_config& policy, std::int64_t now_ms,
                                          bool dry_run) {
  retention_outcome out;
  if (policy.archive_after_days <= 0) return out;  // keep everything
  const std::int64_t cutoff = now_ms - policy.archive_after_days * kDayMs;
  // Every root created before the cutoff: a key of (cutoff, "") starts the listing just below it.
  root_listing listing;
  listing.after = root_page_key{cutoff, ""};
  listing.limit = kPage;
  for (;;) {
    auto page = log.list_roots(listing);
    if (!page) return std::move(page).err();
    std::vector<event> batch;
    for (const auto& root : page->rows) {
      if (root.status == events::dialog_status::archived || root.updated_at_ms >= cutoff) continue;
      if (!at_rest(root)) {
        ++out.still_at_work;
        continue;
      }
      out.archived.push_back(root.id);
      batch.push_back(archive_event(root, now_ms));
    }
    if (!dry_run && !batch.empty()) PARLEY_TRY(append_and_wait(log, std::move(batch)));
    if (!page->more || page->rows.empty()) return out;
    listing.after = page_key_of(page->rows.back());
  }
}

}  // namespace parley::engine

// The retention policy of a team (config::retention_config, docs/team-yaml.md "Retention"), as
// `parley vacuum` applies it: roots idle for longer than `archive_after_days` are archived — a
// `status_changed` to "archived" in the log, so a rebuild of the projections says the same and
// nothing is deleted. Roots still at work are left alone: one generating, owed a drive, waiting
// for a human or for its subdialogs. The candidates are found through the store's root listing
// (store/root_listing.hpp), a page at a time, starting below the cutoff: a root created after it
// cannot have been idle since, so the index skips those without reading them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "parley/config/team.hpp"
#include "parley/core/result.hpp"
#include "parley/store/store.hpp"

namespace parley::engine {

struct retention_outcome {
  std::vector<std::string> archived;  // root ids, newest first
  std::int64_t still_at_work = 0;     // idle long enough by their clock, but not at rest
};

// Applies `policy` as of `now_ms`. The server must not be running on the same store: the log's
// seqs of a dialog belong to the one process that drives it (as for `parley repair`). With
// `dry_run`, reports what it would archive and writes nothing.
result<retention_outcome> apply_retention(store& log, const config::retention_config& policy, std::int64_t now_ms,
                                          bool dry_run);

}  // namespace parley::engine

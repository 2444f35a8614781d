// Dominds' prepare_occurrence_replace / apply_occurrence_replace (and their team_mgmt twins): the
// first call plans the replacement of a literal's occurrences in one file and answers a plan id;
// the second applies that plan. Plans are kept in memory (a restart forgets them, as Dominds'
// do), each owned by the dialog and member that made it — an id from another dialog is unknown —,
// at most `max_plans` of them (the oldest dropped first) and none older than `max_age`. A plan is
// applied only to the file it was made from: its SHA-256 is compared, and a file changed since is
// refused naming both hashes. Private to tools/.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "parley/core/guarded.hpp"
#include "parley/tools/dominds_file_ops.hpp"

namespace parley::tools::dominds_detail {

struct occurrence_plan {
  std::string id;
  std::string dialog_id;
  std::string member_id;
  std::string path;  // as the model gave it; resolved again (and its access judged again) on apply
  std::string find;
  std::string replacement;
  std::vector<std::int64_t> selected;  // 1-based, ascending
  std::string old_hash;                // "sha256:<hex>" of the file when planned
  std::string new_hash;
  std::int64_t old_lines = 0;
  std::int64_t old_bytes = 0;
  std::int64_t new_lines = 0;
  std::int64_t new_bytes = 0;
  std::chrono::steady_clock::time_point made;
};

class occurrence_plans {
 public:
  using clock_fn = std::function<std::chrono::steady_clock::time_point()>;
  occurrence_plans(std::size_t max_plans, std::chrono::seconds max_age, clock_fn now = std::chrono::steady_clock::now);

  // Keeps `plan` under a fresh id (set in it, and returned), dropping expired plans and then the
  // oldest while there are more than max_plans.
  std::string add(occurrence_plan plan) PARLEY_EXCLUDES(mutex_);
  // The plan `id` names when it is this dialog's and this member's and has not expired.
  std::optional<occurrence_plan> find(std::string_view id, std::string_view dialog_id, std::string_view member_id)
      PARLEY_EXCLUDES(mutex_);
  void remove(std::string_view id) PARLEY_EXCLUDES(mutex_);
  std::chrono::steady_clock::time_point now() const { return now_(); }

 private:
  void drop_expired() PARLEY_REQUIRES(mutex_);

  std::size_t max_plans_;
  std::chrono::seconds max_age_;
  clock_fn now_;
  mutable mutex mutex_;
  std::map<std::string, occurrence_plan, std::less<>> plans_ PARLEY_GUARDED_BY(mutex_);
  std::mt19937_64 ids_ PARLEY_GUARDED_BY(mutex_);
};

// Dominds' bounds: a plan lives an hour; Parley keeps at most this many (per pair of tools).
inline constexpr std::size_t kMaxOccurrencePlans = 64;
inline constexpr std::chrono::seconds kOccurrencePlanAge{3600};

// The two tools under `prepare_name` and `apply_name` (their Dominds specs), working in `scope`
// and sharing `plans`. `scope` must outlive them (the scopes are static).
std::unique_ptr<tool> make_prepare_occurrence_replace(std::string_view prepare_name, const file_scope& scope,
                                                      std::shared_ptr<occurrence_plans> plans);
std::unique_ptr<tool> make_apply_occurrence_replace(std::string_view apply_name, const file_scope& scope,
                                                    std::shared_ptr<occurrence_plans> plans);

// "sha256:<64 hex digits>" of `text`, as Dominds writes a file's hash.
std::string sha256_label(std::string_view text);

}  // namespace parley::tools::dominds_detail

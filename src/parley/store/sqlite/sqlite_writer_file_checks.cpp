// The writer's checks of its database file: still the file it opened, and written by no one else.
#include <string>

#include "parley/store/sqlite/sqlite_writer.hpp"

namespace parley::sqlite {

std::string sqlite_writer::health_problem() const {
  parley::lock_guard lock(mutex_);
  return file_problem_;
}

result<std::int64_t> sqlite_writer::read_data_version() {
  reset_guard guard(data_version_);
  auto stepped = data_version_.step();
  if (!stepped) return std::move(stepped).err();
  return *stepped ? data_version_.int_at(0) : 0;
}

// Another connection's commit changes the data_version this connection reads; its own never do.
// Nothing of Parley's writes beside the writer (the data directory's lock sees to that), so a
// change is a process that should not be there — a tool run by hand, a copy put back — and what
// this writer holds in memory (its caches, the projections' state) may no longer be the file's.
result<void> sqlite_writer::check_alone() {
  auto version = read_data_version();
  if (!version) return std::move(version).err();
  if (*version == opened_data_version_) return ok();
  return make_error(errc::unavailable, "database " + db_.path() +
                                           " was changed by another process while this one writes it; writes stop "
                                           "so that nothing is lost or done twice (stop this process, run `parley "
                                           "check`, then start it again)");
}

result<void> sqlite_writer::check_file() {
  if (!file_problem_.empty()) return make_error(errc::unavailable, file_problem_);
  if (!identity_) return ok();
  auto intact = identity_->check();
  if (intact) intact = check_alone();
  if (intact) return ok();
  std::string problem = std::move(intact).err().message;
  if (identity_->moved()) {
    // Every committed event is in the WAL or the file SQLite still has open. Moving them into that
    // file (gone from the directory, alive while this process runs) leaves one complete copy.
    const bool checkpointed = db_.exec("PRAGMA wal_checkpoint(FULL)").has_value();
    if (const auto copy = identity_->open_copy(); checkpointed && !copy.empty()) {
      problem += "; every event committed so far can be copied from " + copy + " until this process exits";
    }
  }
  {
    parley::lock_guard lock(mutex_);
    file_problem_ = problem;
  }
  return make_error(errc::unavailable, std::move(problem));
}

}  // namespace parley::sqlite

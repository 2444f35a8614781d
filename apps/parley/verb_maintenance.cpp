// Store maintenance: `parley backup DEST`, an online copy of the store (store/store_backup.hpp),
// safe while `parley serve` writes — the copy is a data directory of its own (`parley check
// --data DEST`); and `parley vacuum`, which applies the team's retention policy
// (engine/retention.hpp) with the server stopped.
#include <cstdio>

#include "cli_context.hpp"
#include "parley/core/time.hpp"
#include "parley/engine/retention.hpp"
#include "parley/store/store_backup.hpp"
#include "verb_usage.hpp"
#include "verbs.hpp"

namespace parley::cli {

int run_verb_backup(const std::vector<std::string>& raw) {
  auto args = parse_args(raw, arg_spec_of("backup"));
  if (!args) return report(args.err());
  if (args->help) return show_verb_help();
  if (args->positionals.size() != 1) {
    return report(make_error(errc::invalid_argument, usage_of("backup")));
  }
  if (store_url()) {
    return report(make_error(errc::invalid_argument,
                             "backup copies a local store; a PostgreSQL store is backed up with PostgreSQL's own "
                             "tools (pg_dump, pg_basebackup), which keep it consistent while nodes write"));
  }
  auto copied = backup_sqlite_store(data_dir_of(*args).string(), args->positionals.front());
  if (!copied) return report(copied.err());
  std::printf("backed up %lld pages (%lld bytes) to %s\n", static_cast<long long>(copied->pages),
              static_cast<long long>(copied->bytes), copied->path.c_str());
  return kExitOk;
}

int run_verb_migrate(const std::vector<std::string>& raw) {
  auto args = parse_args(raw, arg_spec_of("migrate"));
  if (!args) return report(args.err());
  if (args->help) return show_verb_help();
  if (!args->positionals.empty()) return report(make_error(errc::invalid_argument, usage_of("migrate")));
  if (store_url()) {
    if (auto migrated = migrate_postgres_store(*store_url(), postgres_options_for_verb()); !migrated) {
      return report(migrated.err());
    }
    std::printf("the PostgreSQL store at %s is at this version's schema\n",
                redacted_postgres_url(*store_url()).c_str());
    return kExitOk;
  }
  // Opening a SQLite store for writing migrates it (and takes its lock: not beside a server).
  auto log = open_data_store(data_dir_of(*args));
  if (!log) return report(log.err());
  std::printf("the store in %s is at this version's schema\n", data_dir_of(*args).string().c_str());
  return kExitOk;
}

int run_verb_vacuum(const std::vector<std::string>& raw) {
  auto args = parse_args(raw, arg_spec_of("vacuum"));
  if (!args) return report(args.err());
  if (args->help) return show_verb_help();
  if (!args->positionals.empty()) {
    return report(make_error(errc::invalid_argument, usage_of("vacuum")));
  }
  const auto data_dir = data_dir_of(*args);
  auto team = load_team(*args, data_dir);
  if (!team) return report(team.err());
  if (team->retention.archive_after_days <= 0) {
    std::printf("the team keeps everything (no retention: in its file): nothing to do\n");
    return kExitOk;
  }
  auto log = open_data_store(data_dir);
  if (!log) return report(log.err());
  const bool dry_run = args->has("dry-run");
  auto applied = engine::apply_retention(**log, team->retention, now_ms(), dry_run);
  if (!applied) return report(applied.err());
  for (const auto& id : applied->archived) std::printf("%s %s\n", dry_run ? "would archive" : "archived", id.c_str());
  std::printf("%zu root(s) %s (idle over %lld days); %lld idle as long but still at work, kept\n",
              applied->archived.size(), dry_run ? "to archive" : "archived",
              static_cast<long long>(team->retention.archive_after_days),
              static_cast<long long>(applied->still_at_work));
  return kExitOk;
}

}  // namespace parley::cli

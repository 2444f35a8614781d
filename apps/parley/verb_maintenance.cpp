// Store maintenance: `parley backup DEST`, an online copy of the store (store/store_backup.hpp),
// safe while `parley serve` writes — the copy is a data directory of its own (`parley check
// --data DEST`); and `parley vacuum`, which applies the team's retention policy
// (engine/retention.hpp) with the server stopped.
#include <cstdio>

#include "cli_context.hpp"
#include "cli_messages.hpp"
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
  const std::string pages = std::to_string(copied->pages);
  const std::string bytes = std::to_string(copied->bytes);
  std::printf("%s\n", say_cli(msg::backup_done, {{"pages", pages}, {"bytes", bytes}, {"path", copied->path}}).c_str());
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
    std::printf("%s\n", say_cli(msg::migrate_postgres_done, {{"url", redacted_postgres_url(*store_url())}}).c_str());
    return kExitOk;
  }
  // Opening a SQLite store for writing migrates it (and takes its lock: not beside a server).
  auto log = open_data_store(data_dir_of(*args));
  if (!log) return report(log.err());
  std::printf("%s\n", say_cli(msg::migrate_done, {{"dir", data_dir_of(*args).string()}}).c_str());
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
    std::printf("%s\n", say_cli(msg::vacuum_keeps_all).c_str());
    return kExitOk;
  }
  auto log = open_data_store(data_dir);
  if (!log) return report(log.err());
  const bool dry_run = args->has("dry-run");
  auto applied = engine::apply_retention(**log, team->retention, now_ms(), dry_run);
  if (!applied) return report(applied.err());
  for (const auto& id : applied->archived) {
    std::printf("%s\n", say_cli(dry_run ? msg::vacuum_would_archive : msg::vacuum_archived, {{"id", id}}).c_str());
  }
  const std::string archived = std::to_string(applied->archived.size());
  const std::string days = std::to_string(team->retention.archive_after_days);
  const std::string busy = std::to_string(applied->still_at_work);
  std::printf("%s\n", say_cli(dry_run ? msg::vacuum_summary_dry : msg::vacuum_summary,
                              {{"n", archived}, {"days", days}, {"busy", busy}})
                          .c_str());
  return kExitOk;
}

}  // namespace parley::cli

// What every verb needs: the data directory, the team, the store, and the mapping from errors
// to exit statuses (0 ok, 2 bad usage or configuration, 1 runtime failure).
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cli_args.hpp"
#include "parley/config/team.hpp"
#include "parley/core/result.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/server/mcp_request.hpp"
#include "parley/store/store.hpp"
#include "parley/tools/tool.hpp"
#include "parley/tot/run_logs.hpp"

namespace parley::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitRuntime = 1;
inline constexpr int kExitUsage = 2;

// Prints "parley: <message>" on stderr and returns the exit status the error deserves.
int report(const error& err);

// The verb this process runs (set once, by main): a process that writes the store names it in the
// data directory's lock file, so that another process it refuses can say who holds the store.
void set_current_verb(std::string verb);
const std::string& current_verb();
// `parley VERB --help`: the verb's usage (verb_usage.hpp) on stdout; returns kExitOk.
int show_verb_help();

// Where the dialogs are stored, set once by main for the whole process: the PostgreSQL URL given
// by --store or $PARLEY_STORE (checked there), or none for the data directory's SQLite store.
void set_store_url(std::optional<std::string> url);
const std::optional<std::string>& store_url();
// --store of `args` (parsed with `verb`'s flags), else $PARLEY_STORE, else none. Refuses a value
// that is not a postgresql:// URL, naming where it came from (and never showing a password).
result<std::optional<std::string>> store_url_of(std::string_view verb, const std::vector<std::string>& args);
// How a PostgreSQL store is opened by this process (its name in pg_stat_activity, how long to
// wait for a database that is starting).
postgres_options postgres_options_for_verb();

std::filesystem::path data_dir_of(const parsed_args& args);
// Where Tree of Thoughts runs are logged (tot/run_logs.hpp): the folder `flag` names (`--logs` for
// `parley tot`, `--tot-logs` for the servers), else the team's workspace's `logs/` as seed 003 says.
tot::run_logs tot_logs_of(const parsed_args& args, const config::team_config& team, const std::string& flag);
// Where `parley serve` keeps uploaded media: inside the data directory.
std::filesystem::path uploads_dir_of(const parsed_args& args);
// The switch that lets a verb that runs the team's tools start with the data directory inside the
// team's workspace (the file tools still refuse it).
inline constexpr const char* kAllowDataInWorkspace = "allow-data-in-workspace";
// For verbs that write: the store opened for writing, which takes the data directory's lock (one
// writer per store); while another process holds it, an errc::conflict naming that process.
result<std::unique_ptr<store>> open_data_store(const std::filesystem::path& data_dir, sqlite_options options = {});
// For verbs that only read: the store that is there, never a new one where --data was mistyped;
// its absence is an error naming the folder looked in. Opened read-only (store.hpp): it works
// beside a running `parley serve` and writes nothing, not even a migration.
// `log_as_projected`: the log as far as the projections reach (open_sqlite_store_read_only).
result<std::unique_ptr<store>> open_existing_store(const std::filesystem::path& data_dir,
                                                   const sqlite_options& options = {}, bool log_as_projected = false);
// For verbs that act on a dialog: fails, naming the folder and the id, unless the data directory
// holds that dialog — checked before the team is looked for, so the error is about what is missing.
result<void> check_dialog_stored(const std::filesystem::path& data_dir, const std::string& dialog_id);

// The team named by --team or --workspace; else the one the data directory remembers from an
// earlier `parley run`; else a Dominds `.minds/` or a `team.yaml` in the current directory.
result<config::team_config> load_team(const parsed_args& args, const std::filesystem::path& data_dir);
// The `language` of the team load_team would find, without its problems said; when none loads,
// language_of_environment's (cli_messages.hpp).
std::string team_language_of(const parsed_args& args, const std::filesystem::path& data_dir);
// Sets the CLI's language before a verb runs (main): the `language` of the team found from
// --team, --workspace, --data or the current folder, as load_team finds it; without one,
// language_of_environment (cli_messages.hpp). `--help` and usage errors are said in it.
void settle_cli_language(const std::vector<std::string>& args);
// Each problem from index `from` on, one line each on stderr ("parley: problem: FILE:L:C: ...").
void print_problems(const std::vector<config::problem>& problems, std::size_t from);
// Records where the team came from so later verbs (say, serve) find it without flags.
void remember_team(const std::filesystem::path& data_dir, const config::team_config& team);

// What an MCP server of this process is told (`parley mcp`, `parley serve --mcp`; docs/mcp.md):
// --mcp-call-timeout SECONDS, 1 to 86400, how long a tools/call waits for the team before it
// answers "working" (default: mcp_settings'). nullopt when `enabled` is false; the flag is then
// refused, naming what it needs.
result<std::optional<server::mcp_settings>> mcp_settings_of(const parsed_args& args, bool enabled);

// What a verb that drives dialogs starts from: the team (remembered in the data directory), its
// open store and its model providers.
struct engine_inputs {
  config::team_config team;
  std::unique_ptr<store> log;
  engine::provider_map providers;
  // The data directory and the uploads: give them to the engine (set_protected_dirs).
  std::vector<tools::protected_dir> protected_dirs;
};
// Refuses, before anything is written, a data directory inside the team's workspace unless
// --allow-data-in-workspace is given.
result<engine_inputs> prepare_engine_inputs(const parsed_args& args);

}  // namespace parley::cli

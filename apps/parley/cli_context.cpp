#include "cli_context.hpp"
#include "cli_messages.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <system_error>

#include "parley/core/terminal_text.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/engine/member_toolsets.hpp"
#include "parley/engine/team_problems.hpp"
#include "verb_usage.hpp"

namespace parley::cli {

namespace fs = std::filesystem;

namespace {

constexpr const char* kTeamMemoFile = "team-source";

result<config::team_config> load_remembered(const fs::path& data_dir) {
  std::ifstream in(data_dir / kTeamMemoFile);
  std::string kind;
  std::string path;
  if (!(in >> kind) || !std::getline(in >> std::ws, path)) {
    return make_error(errc::not_found, "no remembered team");
  }
  if (kind == "workspace") return config::load_dominds_workspace(path);
  return config::load_team_file(path);
}

// Absolute, with every link that exists resolved: how two folders are compared.
fs::path comparable(const fs::path& path) {
  std::error_code ec;
  fs::path absolute = fs::absolute(path, ec);
  if (ec) return path.lexically_normal();
  fs::path canonical = fs::weakly_canonical(absolute, ec);
  return ec ? absolute.lexically_normal() : canonical;
}

// A data directory in the workspace is one write_file away from losing every dialog; the file
// tools refuse it, and this refuses to start that way unless told to.
result<void> check_data_outside_workspace(const fs::path& data_dir, const fs::path& workspace) {
  const fs::path data = comparable(data_dir);
  const fs::path root = comparable(workspace);
  const fs::path rel = data.lexically_relative(root);
  if (rel.empty() || *rel.begin() == "..") return ok();
  return make_error(errc::config_error,
                    say_cli(msg::data_in_workspace,
                            {{"data", data.string()}, {"workspace", root.string()}, {"flag", kAllowDataInWorkspace}}));
}

}  // namespace

int report(const error& err) {
  std::fprintf(stderr, "parley: %s\n", error_text(err).c_str());
  switch (err.code) {
    case errc::invalid_argument:
    case errc::config_error:
    case errc::not_found:
    case errc::limit_exceeded:
      return kExitUsage;
    default:
      return kExitRuntime;
  }
}

namespace {

std::optional<std::string>& store_url_slot() {
  static std::optional<std::string> url;
  return url;
}

}  // namespace

void set_store_url(std::optional<std::string> url) { store_url_slot() = std::move(url); }
const std::optional<std::string>& store_url() { return store_url_slot(); }

result<std::optional<std::string>> store_url_of(std::string_view verb, const std::vector<std::string>& args) {
  std::optional<std::string> given;
  std::string source = "--store";
  // The verb's own parser reports a malformed command line; here only --store is looked for.
  if (auto parsed = parse_args(args, arg_spec_of(verb)); parsed) given = parsed->value("store");
  if (!given) {
    if (const char* env = std::getenv("PARLEY_STORE"); env != nullptr && *env != '\0') {
      given = env;
      source = "$PARLEY_STORE";
    }
  }
  if (!given) return std::optional<std::string>{};
  if (!is_postgres_url(*given)) {
    return make_error(errc::invalid_argument, source + ": expected a postgresql:// URL, got '" +
                                                  redacted_postgres_url(*given) +
                                                  "' (a local store is chosen with --data DIR)");
  }
  return given;
}

postgres_options postgres_options_for_verb() {
  postgres_options options;
  options.application_name = "parley " + current_verb();
  // A server waits for a database that is starting with it; a one-shot verb says so at once.
  options.connect_wait = current_verb() == "serve" ? std::chrono::seconds(60) : std::chrono::seconds(5);
  return options;
}

fs::path data_dir_of(const parsed_args& args) { return args.value("data").value_or(".parley"); }

tot::run_logs tot_logs_of(const parsed_args& args, const config::team_config& team, const std::string& flag) {
  const auto chosen = args.value(flag);
  return tot::run_logs::of(team.workspace, data_dir_of(args),
                           chosen ? std::optional<fs::path>(*chosen) : std::optional<fs::path>());
}

fs::path uploads_dir_of(const parsed_args& args) { return data_dir_of(args) / "uploads"; }

namespace {

std::string& current_verb_slot() {
  static std::string verb = "open";
  return verb;
}

}  // namespace

void set_current_verb(std::string verb) { current_verb_slot() = std::move(verb); }
const std::string& current_verb() { return current_verb_slot(); }

int show_verb_help() {
  std::string text = usage_of(current_verb()) + "\n";
  for (const auto& usage : verb_usages()) {
    if (usage.verb == current_verb()) text += "  " + std::string(summary_in_language(usage)) + "\n";
  }
  std::fputs(text.c_str(), stdout);
  return kExitOk;
}

result<std::unique_ptr<store>> open_data_store(const fs::path& data_dir, sqlite_options options) {
  if (store_url()) return open_postgres_store(*store_url(), postgres_options_for_verb());
  options.writer_command = current_verb();
  auto opened = open_sqlite_store(data_dir.string(), options);
  if (opened) {
    for (const auto& notice : (*opened)->open_notices())
      std::fprintf(stderr, "parley: %s\n", note_line(notice).c_str());
  }
  return opened;
}

namespace {

bool holds_store(const fs::path& data_dir) {
  std::error_code ec;
  return fs::exists(data_dir / "parley.db", ec);
}

std::string shown(const fs::path& data_dir) {
  std::error_code ec;
  const auto absolute = fs::absolute(data_dir, ec);
  return ec ? data_dir.string() : absolute.lexically_normal().string();
}

}  // namespace

result<std::unique_ptr<store>> open_existing_store(const fs::path& data_dir, const sqlite_options& options,
                                                   bool log_as_projected) {
  if (store_url()) return open_postgres_store(*store_url(), postgres_options_for_verb());
  if (!holds_store(data_dir)) {
    return make_error(errc::not_found, say_cli(msg::no_data_in, {{"dir", shown(data_dir)}}));
  }
  return open_sqlite_store_read_only(data_dir.string(), options, log_as_projected);
}

result<void> check_dialog_stored(const fs::path& data_dir, const std::string& dialog_id) {
  if (store_url()) {
    auto log = open_postgres_store(*store_url(), postgres_options_for_verb());
    if (!log) return std::move(log).err();
    auto row = (*log)->get_dialog(dialog_id);
    if (!row) return std::move(row).err();
    if (!*row) {
      return make_error(errc::not_found,
                        say_cli(msg::no_dialog_in, {{"id", dialog_id}, {"where", say_cli(msg::postgres_store)}}));
    }
    return ok();
  }
  if (!holds_store(data_dir)) {
    return make_error(errc::not_found, say_cli(msg::no_dialog_no_data, {{"id", dialog_id}, {"dir", shown(data_dir)}}));
  }
  auto log = open_sqlite_store_read_only(data_dir.string());
  if (!log) return std::move(log).err();
  auto row = (*log)->get_dialog(dialog_id);
  if (!row) return std::move(row).err();
  if (!*row)
    return make_error(errc::not_found, say_cli(msg::no_dialog_in, {{"id", dialog_id}, {"where", shown(data_dir)}}));
  return ok();
}

namespace {

result<config::team_config> find_and_load_team(const parsed_args& args, const fs::path& data_dir) {
  if (const auto team = args.value("team")) return config::load_team_file(*team);
  if (const auto workspace = args.value("workspace")) return config::load_dominds_workspace(*workspace);
  std::error_code ec;
  if (fs::exists(data_dir / kTeamMemoFile, ec)) return load_remembered(data_dir);
  if (fs::is_directory(".minds", ec)) return config::load_dominds_workspace(".");
  if (fs::exists("team.yaml", ec)) return config::load_team_file("team.yaml");
  return make_error(errc::config_error, say_cli(msg::no_team));
}

}  // namespace

// The loader's problems (llm.yaml providers skipped as unusable, ...) are said here, once per command.
result<config::team_config> load_team(const parsed_args& args, const fs::path& data_dir) {
  auto team = find_and_load_team(args, data_dir);
  if (team) print_problems(team->problems, 0);
  if (team) set_cli_language(team->language);
  return team;
}

std::string team_language_of(const parsed_args& args, const fs::path& data_dir) {
  auto team = find_and_load_team(args, data_dir);
  return team ? team->language : language_of_environment();
}

void settle_cli_language(const std::vector<std::string>& args) {
  // Only where the team is looked for matters here; a command line the verb refuses is said so
  // by the verb itself, in the language found from what could be read.
  parsed_args where;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view arg = args[i];
    if (arg == "--") break;
    for (const char* flag : {"team", "workspace", "data"}) {
      const std::string name = std::string("--") + flag;
      if (arg == name && i + 1 < args.size()) where.values[flag] = args[i + 1];
      if (arg.starts_with(name + "=")) where.values[flag] = std::string(arg.substr(name.size() + 1));
    }
  }
  // A team that does not load (the verb says why) has no language to give.
  auto team = find_and_load_team(where, data_dir_of(where));
  set_cli_language(team ? team->language : language_of_environment());
}

void print_problems(const std::vector<config::problem>& problems, std::size_t from) {
  for (std::size_t i = from; i < problems.size(); ++i) {
    std::fprintf(stderr, "parley: %s\n", problem_line(terminal_safe(problems[i].text())).c_str());
  }
}

void remember_team(const fs::path& data_dir, const config::team_config& team) {
  std::error_code ec;
  const bool is_workspace = team.source.filename() == "team.yaml" && team.source.parent_path().filename() == ".minds";
  const fs::path where =
      is_workspace ? fs::absolute(team.source.parent_path().parent_path(), ec) : fs::absolute(team.source, ec);
  std::ofstream out(data_dir / kTeamMemoFile, std::ios::trunc);
  out << (is_workspace ? "workspace " : "team ") << where.string() << "\n";
}

result<std::optional<server::mcp_settings>> mcp_settings_of(const parsed_args& args, bool enabled) {
  auto seconds = args.integer("mcp-call-timeout", 1, 86400);
  if (!seconds) return std::move(seconds).err();
  if (!enabled) {
    if (*seconds) return make_error(errc::invalid_argument, "--mcp-call-timeout: only with --mcp");
    return std::optional<server::mcp_settings>{};
  }
  server::mcp_settings settings;
  settings.server_version = PARLEY_VERSION;
  if (*seconds) settings.call_timeout = std::chrono::seconds(**seconds);
  return std::optional<server::mcp_settings>{std::move(settings)};
}

result<engine_inputs> prepare_engine_inputs(const parsed_args& args) {
  const auto data_dir = data_dir_of(args);
  auto team = load_team(args, data_dir);
  if (!team) return std::move(team).err();
  if (!args.has(kAllowDataInWorkspace)) PARLEY_TRY(check_data_outside_workspace(data_dir, team->workspace));
  // Before the data directory is made: a team the engine would refuse leaves nothing on disk.
  const auto builtin_tools = engine::build_builtin_tools(*team);
  // A Dominds workspace's toolsets and tools Parley lacks become problems and are left out.
  const std::size_t said = team->problems.size();
  engine::settle_team_problems(*team, builtin_tools);
  PARLEY_TRY(engine::check_team_toolsets(*team, builtin_tools));
  print_problems(team->problems, said);
  auto log = open_data_store(data_dir);
  if (!log) return std::move(log).err();
  // A SQLite store made the directory; with the dialogs in PostgreSQL it still holds the team's
  // memo and the uploads.
  std::error_code made;
  fs::create_directories(data_dir, made);
  remember_team(data_dir, *team);
  auto providers = engine::build_providers(*team);
  if (!providers) return std::move(providers).err();
  // The uploads first: a refusal names the more specific folder.
  std::vector<tools::protected_dir> protected_dirs{{uploads_dir_of(args), "the server's uploads"},
                                                   {data_dir, "Parley's data directory"}};
  return engine_inputs{std::move(*team), std::move(*log), std::move(*providers), std::move(protected_dirs)};
}

}  // namespace parley::cli

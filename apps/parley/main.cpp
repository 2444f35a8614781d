// parley: the command-line front of the engine. Exit status 0 ok, 2 bad usage or configuration,
// 1 runtime failure; every error is one line on stderr.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cli_context.hpp"
#include "cli_messages.hpp"
#include "command_hints.hpp"
#include "parley/core/text.hpp"
#include "parley/core/utf8.hpp"
#include "terminal_guard.hpp"
#include "verb_overview.hpp"
#include "verb_rtws.hpp"
#include "verb_usage.hpp"
#include "verbs.hpp"

namespace {

// The verbs, by name; nullopt for a name that is none of them.
std::optional<int> run_named_verb(const std::string& verb, const std::vector<std::string>& args) {
  namespace cli = parley::cli;
  using parley::events::dialog_status;
  if (verb == "run") return cli::run_verb_run(args);
  if (verb == "say") return cli::run_verb_say(args);
  if (verb == "dialogs") return cli::run_verb_dialogs(args);
  if (verb == "show") return cli::run_verb_show(args);
  if (verb == "questions") return cli::run_verb_questions(args);
  if (verb == "registry") return cli::run_verb_registry(args);
  if (verb == "providers") return cli::run_verb_providers(args);
  if (verb == "answer") return cli::run_verb_answer(args);
  if (verb == "resume") return cli::run_verb_resume(args);
  if (verb == "dead") return cli::run_verb_dead(args);
  if (verb == "complete") return cli::run_verb_root_status(args, verb, dialog_status::completed);
  if (verb == "archive") return cli::run_verb_root_status(args, verb, dialog_status::archived);
  if (verb == "reopen") return cli::run_verb_root_status(args, verb, dialog_status::running);
  if (verb == "check") return cli::run_verb_check(args);
  if (verb == "repair") return cli::run_verb_repair(args);
  if (verb == "export") return cli::run_verb_export(args);
  if (verb == "import") return cli::run_verb_import(args);
  if (verb == "serve") return cli::run_verb_serve(args);
  if (verb == "mcp") return cli::run_verb_mcp(args);
  if (verb == "tot") return cli::run_verb_tot(args);
  if (verb == "backup") return cli::run_verb_backup(args);
  if (verb == "migrate") return cli::run_verb_migrate(args);
  if (verb == "vacuum") return cli::run_verb_vacuum(args);
  if (verb == "completions") return cli::run_verb_completions(args);
  if (verb == "title") return cli::run_verb_title(args);
  if (verb == "fork") return cli::run_verb_fork(args);
  if (verb == "replay") return cli::run_verb_replay(args);
  if (verb == "diff") return cli::run_verb_diff(args);
  if (verb == "eval") return cli::run_verb_eval(args);
  return std::nullopt;
}

// A verb that is none of them: the closest one, and when the rest of the command line suits it,
// the whole corrected command to type.
int unknown_verb(const std::string& verb, const std::vector<std::string>& args) {
  namespace cli = parley::cli;
  using parley::msg;
  const std::string best = parley::closest_match(verb, cli::verb_names());
  const std::string hint = best.empty() ? std::string() : cli::say_cli(msg::did_you_mean_word, {{"best", best}});
  std::string next = cli::say_cli(msg::see_help);
  if (!best.empty() && !args.empty() && cli::parse_args(args, cli::arg_spec_of(best))) {
    next = cli::say_cli(msg::try_command, {{"command", cli::command_with_verb(best)}});
  }
  std::fprintf(stderr, "parley: %s%s%s\n", cli::say_cli(msg::unknown_verb, {{"verb", verb}}).c_str(), hint.c_str(),
               next.c_str());
  return cli::kExitUsage;
}

// `parley` alone (or with only --data/--store/...): what waits, where there is a store; else the usage.
int without_verb(const std::vector<std::string>& args) {
  namespace cli = parley::cli;
  cli::set_current_verb("overview");
  cli::set_hint_context("overview", args);
  // `check` takes the overview's options (--data, --store, --team, --workspace) and no others.
  auto store_url = cli::store_url_of("check", args);
  if (!store_url) return cli::report(store_url.err());
  cli::set_store_url(std::move(*store_url));
  if (cli::overview_applies(args)) return cli::run_overview(args);
  std::fputs(cli::full_usage().c_str(), stderr);
  return cli::kExitUsage;
}

}  // namespace

int main(int argc, char** argv) {
  parley::cli::guard_terminal_output();
  // Before anything is said: even `--help` and a refused argument speak the team's language.
  parley::cli::settle_cli_language({argv + 1, argv + argc});
  if (argc >= 2 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "help") == 0)) {
    std::fputs(parley::cli::full_usage().c_str(), stdout);
    return parley::cli::kExitOk;
  }
  if (argc >= 2 && (std::strcmp(argv[1], "--version") == 0 || std::strcmp(argv[1], "version") == 0)) {
    std::printf("parley %s\n", PARLEY_VERSION);
    return parley::cli::kExitOk;
  }
  // Every argument may end up in the log (a message, a title, an id), and the log holds only
  // UTF-8: bytes that are not are refused here, before anything is opened or written.
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (const auto bad = parley::first_invalid_utf8(arg)) {
      const std::string problem =
          parley::cli::say_cli(parley::msg::argument_not_utf8, {{"n", std::to_string(i)},
                                                                {"arg", parley::repair_utf8(arg).text},
                                                                {"problem", parley::describe_invalid_utf8(arg, *bad)}});
      std::fprintf(stderr, "parley: %s\n", problem.c_str());
      return parley::cli::kExitUsage;
    }
  }
  if (argc < 2 || std::string_view(argv[1]).starts_with("--")) return without_verb({argv + 1, argv + argc});
  const std::string verb = argv[1];
  const std::vector<std::string> args(argv + 2, argv + argc);
  parley::cli::set_current_verb(verb);
  parley::cli::set_hint_context(verb, args);
  const auto names = parley::cli::verb_names();
  if (std::find(names.begin(), names.end(), verb) == names.end()) return unknown_verb(verb, args);
  if (const auto corrected = parley::cli::unknown_option_with_correction(verb, args); !corrected.empty()) {
    std::fprintf(stderr, "parley: %s\n", corrected.c_str());
    return parley::cli::kExitUsage;
  }
  auto store_url = parley::cli::store_url_of(verb, args);
  if (!store_url) return parley::cli::report(store_url.err());
  parley::cli::set_store_url(std::move(*store_url));
  if (const auto status = run_named_verb(verb, args)) return *status;
  return unknown_verb(verb, args);
}

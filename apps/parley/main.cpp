// parley: the command-line front of the engine. Exit status 0 ok, 2 bad usage or configuration,
// 1 runtime failure; every error is one line on stderr.
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "cli_context.hpp"
#include "parley/core/text.hpp"
#include "parley/core/utf8.hpp"
#include "terminal_guard.hpp"
#include "verb_rtws.hpp"
#include "verb_usage.hpp"
#include "verbs.hpp"

int main(int argc, char** argv) {
  parley::cli::guard_terminal_output();
  if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "help") == 0) {
    std::fputs(parley::cli::full_usage().c_str(), argc < 2 ? stderr : stdout);
    return argc < 2 ? parley::cli::kExitUsage : parley::cli::kExitOk;
  }
  if (std::strcmp(argv[1], "--version") == 0 || std::strcmp(argv[1], "version") == 0) {
    std::printf("parley %s\n", PARLEY_VERSION);
    return parley::cli::kExitOk;
  }
  // Every argument may end up in the log (a message, a title, an id), and the log holds only
  // UTF-8: bytes that are not are refused here, before anything is opened or written.
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (const auto bad = parley::first_invalid_utf8(arg)) {
      std::fprintf(stderr, "parley: argument %d ('%s'): %s\n", i, parley::repair_utf8(arg).text.c_str(),
                   parley::describe_invalid_utf8(arg, *bad).c_str());
      return parley::cli::kExitUsage;
    }
  }
  const std::string verb = argv[1];
  const std::vector<std::string> args(argv + 2, argv + argc);
  parley::cli::set_current_verb(verb);
  auto store_url = parley::cli::store_url_of(verb, args);
  if (!store_url) return parley::cli::report(store_url.err());
  parley::cli::set_store_url(std::move(*store_url));
  if (verb == "run") return parley::cli::run_verb_run(args);
  if (verb == "say") return parley::cli::run_verb_say(args);
  if (verb == "dialogs") return parley::cli::run_verb_dialogs(args);
  if (verb == "show") return parley::cli::run_verb_show(args);
  if (verb == "questions") return parley::cli::run_verb_questions(args);
  if (verb == "registry") return parley::cli::run_verb_registry(args);
  if (verb == "providers") return parley::cli::run_verb_providers(args);
  if (verb == "answer") return parley::cli::run_verb_answer(args);
  if (verb == "resume") return parley::cli::run_verb_resume(args);
  if (verb == "dead") return parley::cli::run_verb_dead(args);
  if (verb == "complete")
    return parley::cli::run_verb_root_status(args, verb, parley::events::dialog_status::completed);
  if (verb == "archive") return parley::cli::run_verb_root_status(args, verb, parley::events::dialog_status::archived);
  if (verb == "reopen") return parley::cli::run_verb_root_status(args, verb, parley::events::dialog_status::running);
  if (verb == "fork") return parley::cli::run_verb_fork(args);
  if (verb == "check") return parley::cli::run_verb_check(args);
  if (verb == "repair") return parley::cli::run_verb_repair(args);
  if (verb == "export") return parley::cli::run_verb_export(args);
  if (verb == "import") return parley::cli::run_verb_import(args);
  if (verb == "serve") return parley::cli::run_verb_serve(args);
  if (verb == "mcp") return parley::cli::run_verb_mcp(args);
  if (verb == "tot") return parley::cli::run_verb_tot(args);
  if (verb == "backup") return parley::cli::run_verb_backup(args);
  if (verb == "migrate") return parley::cli::run_verb_migrate(args);
  if (verb == "vacuum") return parley::cli::run_verb_vacuum(args);
  if (verb == "diff") return parley::cli::run_verb_diff(args);
  if (verb == "eval") return parley::cli::run_verb_eval(args);
  if (verb == "completions") return parley::cli::run_verb_completions(args);
  const std::string hint = parley::did_you_mean(verb, parley::cli::verb_names());
  std::fprintf(stderr, "parley: unknown verb '%s'%s; see parley --help\n", verb.c_str(), hint.c_str());
  return parley::cli::kExitUsage;
}

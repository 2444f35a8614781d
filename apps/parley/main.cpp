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
#include "verbs.hpp"

namespace {

constexpr const char* kUsage =
    "usage: parley <verb> [options]\n"
    "  run [--team FILE | --workspace DIR] [--member ID] [--title TEXT] [--taskdoc PATH.tsk] \"message\"\n"
    "                      start a root dialog and drive it until it is idle (the team: --team, --workspace,\n"
    "                      the one the data directory remembers, or a .minds/ or team.yaml here)\n"
    "  say DIALOG \"message\"  continue a dialog\n"
    "  dialogs [--json] [--status S] [--member M] [--q TEXT] [--limit N] [--cursor C]\n"
    "                      root dialogs, newest first, a page at a time\n"
    "  show DIALOG [--json] [--all-courses]          print a transcript\n"
    "  questions [--json]    open questions for the human (Q4H) across every dialog\n"
    "  answer DIALOG QUESTION \"answer\"   answer one, and drive until the hierarchy settles\n"
    "  registry DIALOG [--json]   the Type B subdialogs of DIALOG's root (agent!session -> subdialog)\n"
    "  providers [--json]    the providers the team can name (Dominds: built-in catalogue + llm.yaml), key set or not\n"
    "  resume DIALOG | --all drive again a dialog (or every one) whose drive ended before its work was done\n"
    "  dead SUBDIALOG [--reason TEXT]      declare a subdialog dead; its caller continues\n"
    "  complete|archive|reopen ROOT        mark a root done, archive it, or take it up again (seed 001)\n"
    "  check                 validate the stored hierarchy, registry and Q4H index against the log\n"
    "  repair                rewrite or quarantine events whose stored text does not read back (server stopped)\n"
    "  backup DEST           copy the store to DEST/parley.db, consistent while `serve` writes\n"
    "  vacuum [--dry-run]    apply the team's retention policy (archive idle roots; server stopped)\n"
    "  export --rtws DIR [--force]   write every dialog in the Dominds layout (DIR/.dialogs/run|done/...)\n"
    "  import --rtws DIR     read a Dominds layout back into the store\n"
    "  serve [--team FILE | --workspace DIR] [--host 127.0.0.1] [--port 7878] [--token T] [--web DIR]\n"
    "                      [--cors-origin ORIGIN] [--allowed-host NAME,...] [--turn-window S] [--session-gap S]\n"
    "                      [--reflect-every S] [--reflect-goal TEXT] [--users FILE] [--max-upload-bytes N]\n"
    "                      [--loaded-dialogs N] [--max-connections N] [--max-connections-per-client N]\n"
    "                      the web UI, REST API and WebSocket on one port\n"
    "  tot \"problem\" [--task-type T] [--strategy BFS|DFS] [--depth N] [--breadth N] [--threshold X] [--json]\n"
    "                      a Tree of Thoughts run (seed 003); logs in DATA/logs/tot-*/; --resume RUN continues one\n"
    "  --version             print the version\n"
    "common options: --data DIR (default ./.parley)\n"
    "  run, say, answer, resume, dead and serve refuse a data directory inside the team's workspace\n"
    "  unless given --allow-data-in-workspace (the file tools refuse it either way)\n";

}  // namespace

int main(int argc, char** argv) {
  parley::cli::guard_terminal_output();
  if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "help") == 0) {
    std::fputs(kUsage, argc < 2 ? stderr : stdout);
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
  for (const std::string& arg : args) {
    if (arg == "--help" || arg == "-h") {  // `parley serve --help` is what a newcomer types first
      std::fputs(kUsage, stdout);
      return parley::cli::kExitOk;
    }
  }
  parley::cli::set_current_verb(verb);
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
  if (verb == "check") return parley::cli::run_verb_check(args);
  if (verb == "repair") return parley::cli::run_verb_repair(args);
  if (verb == "export") return parley::cli::run_verb_export(args);
  if (verb == "import") return parley::cli::run_verb_import(args);
  if (verb == "serve") return parley::cli::run_verb_serve(args);
  if (verb == "tot") return parley::cli::run_verb_tot(args);
  if (verb == "backup") return parley::cli::run_verb_backup(args);
  if (verb == "vacuum") return parley::cli::run_verb_vacuum(args);
  const std::string hint =
      parley::did_you_mean(verb, {"run",      "say",     "dialogs", "show",     "questions", "answer", "resume",
                                  "complete", "archive", "reopen",  "registry", "providers", "dead",   "check",
                                  "repair",   "export",  "import",  "serve",    "tot",       "backup", "vacuum"});
  std::fprintf(stderr, "parley: unknown verb '%s'%s; see parley --help\n", verb.c_str(), hint.c_str());
  return parley::cli::kExitUsage;
}

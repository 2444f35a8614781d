#include "verb_usage.hpp"

#include <map>

#include "cli_context.hpp"

namespace parley::cli {

const std::vector<verb_usage>& verb_usages() {
  static const std::vector<verb_usage> usages = {
      {"run",
       "run [--team FILE | --workspace DIR] [--member ID] [--title TEXT] [--taskdoc PATH.tsk] [--data DIR] \"message\"",
       "start a root dialog and drive it until it is idle (the team: --team, --workspace, the one the data "
       "directory remembers, or a .minds/ or team.yaml here)"},
      {"say", "say DIALOG [--retry] [--data DIR] \"message\"",
       "continue a dialog; --retry (a flow's dialog): the message as a retry (seed 004 _ui_action), the waiting "
       "phase suggestion dropped and the current phase answering again"},
      {"dialogs", "dialogs [--json] [--status S] [--member M] [--q TEXT] [--limit N] [--cursor C] [--data DIR]",
       "root dialogs, newest first, a page at a time"},
      {"show", "show DIALOG [--json] [--all-courses] [--data DIR]", "print a transcript"},
      {"questions", "questions [--json] [--data DIR]", "open questions for the human (Q4H) across every dialog"},
      {"answer", "answer DIALOG QUESTION [--data DIR] \"answer\"", "answer one, and drive until the hierarchy settles"},
      {"registry", "registry DIALOG [--json] [--data DIR]",
       "the Type B subdialogs of DIALOG's root (agent!session -> subdialog)"},
      {"providers", "providers [--json]",
       "the providers the team can name (Dominds: built-in catalogue + llm.yaml), key set or not"},
      {"resume", "resume DIALOG | --all [--data DIR]",
       "drive again a dialog (or every one) whose drive ended before its work was done"},
      {"dead", "dead SUBDIALOG [--reason TEXT] [--data DIR]", "declare a subdialog dead; its caller continues"},
      {"title", "title DIALOG [--data DIR] \"title\"",
       "name a dialog (1 to 200 characters, one line); the model's own title never replaces it"},
      {"complete", "complete ROOT [--data DIR]", "mark a root done (seed 001)"},
      {"archive", "archive ROOT [--data DIR]", "archive a root"},
      {"reopen", "reopen ROOT [--data DIR]", "take a completed or archived root up again"},
      {"fork", "fork ROOT [--at SEQ | --at-generation N] [--data DIR] [--json]",
       "a new root tree whose history is ROOT's up to that point (shared, not copied), going on alone"},
      {"replay",
       "replay ROOT [--from SEQ | --at-generation N] [--model M] [--provider P] [--team FILE] "
       "[--member-persona ID=FILE] [--tools recorded|live] [--data DIR] [--json]",
       "fork ROOT's tree (default: before its first generation) and run it again with the change, answering "
       "the same tool calls and questions from the record"},
      {"check", "check [--data DIR] | check --workspace DIR | check --team FILE",
       "validate the stored hierarchy against the log; or load a team and list its problems"},
      {"repair", "repair [--data DIR]",
       "rewrite or quarantine events whose stored text does not read back (server stopped)"},
      {"backup", "backup DEST [--data DIR]", "copy the store to DEST/parley.db, consistent while `serve` writes"},
      {"migrate", "migrate [--data DIR | --store URL]",
       "bring the store's schema to this version and exit (serve and every verb that writes also do)"},
      {"vacuum", "vacuum (--team FILE | --workspace DIR) [--data DIR] [--dry-run]",
       "apply the team's retention policy (archive idle roots; server stopped)"},
      {"export", "export --rtws DIR [--data DIR] [--force] [--dominds]",
       "write every dialog in the seed layout (DIR/.dialogs/run|done/...), or with --dominds in Dominds 1.29's"},
      {"import", "import --rtws DIR [--data DIR]",
       "read a .dialogs folder (Parley's export or Dominds 1.29's, told apart by its markers) into the store"},
      {"serve",
       "serve [--team FILE | --workspace DIR] [--data DIR] [--host 127.0.0.1] [--port 7878] [--token TOKEN | "
       "--users FILE] [--web DIR] [--cors-origin ORIGIN] [--allowed-host NAME[,NAME...]] [--turn-window SECONDS] "
       "[--session-gap SECONDS] [--reflect-every SECONDS] [--reflect-goal TEXT] [--max-upload-bytes N] "
       "[--loaded-dialogs N] [--max-connections N] [--max-connections-per-client N] [--read-priority "
       "adaptive|normal|background] [--otlp-endpoint URL] [--trace-content] [--mcp [--mcp-call-timeout SECONDS]] "
       "[--tot-logs DIR] [--allow-data-in-workspace]",
       "the web UI, REST API and WebSocket on one port, and with --mcp an MCP server at /mcp (the token: --token, "
       "else $PARLEY_TOKEN, else a new one)"},
      {"mcp",
       "mcp [--team FILE | --workspace DIR] [--data DIR] [--mcp-call-timeout SECONDS] [--tot-logs DIR] "
       "[--allow-data-in-workspace]",
       "the team as an MCP server on stdin/stdout, for an MCP client that starts it (docs/mcp.md)"},
      {"tot",
       "tot \"problem\" [--task-type T] [--strategy BFS|DFS] [--depth N] [--breadth N] [--threshold X] "
       "[--generation-strategy independent_sampling|sequential_proposal] "
       "[--evaluation-strategy independent_scoring|comparative_voting] [--logs DIR] [--team FILE "
       "| --workspace DIR] [--data DIR] [--max-calls N] [--timeout-ms MS] [--noise none|low|high] [--seed S] "
       "[--json]",
       "a Tree of Thoughts run (seed 003); logs in the workspace's logs/tot-*/ (or --logs DIR)"},
      {"tot", "tot --resume tot-YYYYMMDD-HHMMSS-xxxxxx [--data DIR] [--logs DIR]", "continue a Tree of Thoughts run"},
      {"diff", "diff A B [--json] [--team FILE | --workspace DIR] [--data DIR]",
       "two root trees aligned: where they first part, their answers' line diff, tokens, cost, latency and rounds "
       "per member (docs/eval.md)"},
      {"eval",
       "eval SUITE.yaml [--repeat N] [--concurrency K] [--compare RUN] [--junit FILE] [--html DIR] [--user ID] [--data "
       "DIR]",
       "run a suite of cases against their teams, each a root tree in the store; pass rates, a comparison with an "
       "earlier run, JUnit XML and an HTML report (docs/eval.md)"},
      {"completions", "completions bash|zsh",
       "print a shell completion script (installed as share/bash-completion/completions/parley and "
       "share/zsh/vendor-completions/_parley)"},
      {"version", "version", "print the version (also --version)"},
  };
  return usages;
}

std::string usage_of(std::string_view verb) {
  std::string out;
  for (const auto& usage : verb_usages()) {
    if (usage.verb != verb) continue;
    out += out.empty() ? "usage: parley " : "\n       parley ";
    out += usage.synopsis;
  }
  return out.empty() ? "usage: parley <verb> [options]; see parley --help" : out;
}

std::string full_usage() {
  std::string out = "usage: parley <verb> [options]   (parley VERB --help: one verb)\n";
  for (const auto& usage : verb_usages()) {
    out += "  parley " + std::string(usage.synopsis) + "\n      " + std::string(usage.summary) + "\n";
  }
  out +=
      "common options: --data DIR (default ./.parley); --store postgresql://... (or $PARLEY_STORE): the dialogs in "
      "PostgreSQL instead of DIR's SQLite file, shared by several `parley serve` (docs/scale-out.md); -- ends the "
      "options (what follows is a positional, even --help)\n"
      "  run, say, answer, resume, dead, serve and mcp refuse a data directory inside the team's workspace\n"
      "  unless given --allow-data-in-workspace (the file tools refuse it either way)\n";
  return out;
}

std::vector<std::string> verb_names() {
  std::vector<std::string> names;
  for (const auto& usage : verb_usages()) {
    if (names.empty() || names.back() != usage.verb) names.emplace_back(usage.verb);
  }
  return names;
}

const arg_spec& arg_spec_of(std::string_view verb) {
  static const arg_spec drive{{"team", "workspace", "member", "data", "title", "taskdoc"},
                              {"quiet", kAllowDataInWorkspace}};
  static const arg_spec act{{"team", "workspace", "data", "reason"}, {"quiet", kAllowDataInWorkspace}};
  static const arg_spec team_read{{"team", "workspace", "data"}, {"json"}};
  static const arg_spec data_only{{"data"}, {}};
  static const std::map<std::string_view, arg_spec> listed = {
      {"run", drive},
      {"say", {{"team", "workspace", "member", "data", "title", "taskdoc"}, {"quiet", "retry", kAllowDataInWorkspace}}},
      {"answer", act},
      {"dead", act},
      {"title", act},
      {"complete", act},
      {"archive", act},
      {"reopen", act},
      {"resume", {{"team", "workspace", "data"}, {"quiet", "all", kAllowDataInWorkspace}}},
      {"dialogs", {{"data", "status", "member", "team", "workspace", "q", "limit", "cursor"}, {"json"}}},
      {"show", {{"data", "team", "workspace"}, {"json", "all-courses"}}},
      {"questions", team_read},
      {"registry", team_read},
      {"providers", team_read},
      {"check", {{"data", "team", "workspace"}, {}}},
      {"fork", {{"data", "at", "at-generation"}, {"json"}}},
      {"replay",
       {{"data", "from", "at-generation", "model", "provider", "team", "member-persona", "tools"},
        {"json", "quiet", "allow-data-in-workspace"}}},
      {"migrate", data_only},
      {"repair", data_only},
      {"backup", data_only},
      {"vacuum", {{"data", "team", "workspace"}, {"dry-run"}}},
      {"export", {{"data", "rtws"}, {"force", "dominds"}}},
      {"import", {{"data", "rtws"}, {}}},
      {"serve",
       {{"team",
         "workspace",
         "data",
         "host",
         "port",
         "token",
         "web",
         "cors-origin",
         "allowed-host",
         "turn-window",
         "session-gap",
         "reflect-every",
         "reflect-goal",
         "users",
         "max-upload-bytes",
         "loaded-dialogs",
         "max-connections",
         "max-connections-per-client",
         "read-priority",
         "otlp-endpoint",
         "mcp-call-timeout",
         "tot-logs"},
        {kAllowDataInWorkspace, "trace-content", "mcp"}}},
      {"mcp", {{"team", "workspace", "data", "mcp-call-timeout", "tot-logs"}, {kAllowDataInWorkspace}}},
      {"tot",
       {{"team", "workspace", "data", "task-type", "strategy", "depth", "breadth", "threshold", "resume", "max-calls",
         "timeout-ms", "parallel", "noise", "seed", "generation-strategy", "evaluation-strategy", "logs"},
        {"json", "quiet", kAllowDataInWorkspace}}},
      {"diff", {{"data", "team", "workspace"}, {"json"}}},
      {"eval", {{"data", "repeat", "concurrency", "compare", "junit", "html", "user"}, {}}},
      {"completions", {}},
  };
  // Every verb that opens the store takes --store as well as --data.
  static const std::map<std::string_view, arg_spec> specs = [] {
    auto with_store = listed;
    for (auto& [name, spec] : with_store) {
      if (spec.value_flags.count("data") != 0) spec.value_flags.insert("store");
    }
    return with_store;
  }();
  static const arg_spec none;
  const auto found = specs.find(verb);
  return found == specs.end() ? none : found->second;
}

}  // namespace parley::cli

#include "verb_usage.hpp"

#include <map>

#include "cli_context.hpp"
#include "cli_messages.hpp"

namespace parley::cli {

const std::vector<verb_usage>& verb_usages() {
  static const std::vector<verb_usage> usages = {
      {"run",
       "run [--team FILE | --workspace DIR] [--member ID] [--title TEXT] [--taskdoc PATH.tsk] [--data DIR] \"message\"",
       "start a root dialog and drive it until it is idle (the team: --team, --workspace, the one the data "
       "directory remembers, or a .minds/ or team.yaml here)",
       "开始一个根对话并驱动到空闲（团队：--team、--workspace、数据目录记住的那个，或当前目录的 .minds/ 或 "
       "team.yaml）"},
      {"say", "say DIALOG [--retry] [--data DIR] \"message\"",
       "continue a dialog; --retry (a flow's dialog): the message as a retry (seed 004 _ui_action), the waiting "
       "phase suggestion dropped and the current phase answering again",
       "继续一个对话；--retry（流程的对话）：把消息作为重试（seed 004 "
       "_ui_action），丢掉等待中的阶段建议，由当前阶段重新回答"},
      {"dialogs", "dialogs [--json] [--status S] [--member M] [--q TEXT] [--limit N] [--cursor C] [--data DIR]",
       "root dialogs, newest first, a page at a time; the column headings follow the team's language, scripts read "
       "--json",
       "根对话，最新的在前，一次一页；列标题跟随团队的语言，脚本请读 --json"},
      {"show", "show DIALOG [--json] [--all-courses] [--data DIR]", "print a transcript", "打印对话记录"},
      {"questions", "questions [--json] [--data DIR]", "open questions for the human (Q4H) across every dialog",
       "所有对话中等人回答的问题（Q4H）"},
      {"answer", "answer DIALOG QUESTION [--data DIR] \"answer\"", "answer one, and drive until the hierarchy settles",
       "回答一个问题，并驱动到整个层级稳定下来"},
      {"registry", "registry DIALOG [--json] [--data DIR]",
       "the Type B subdialogs of DIALOG's root (agent!session -> subdialog)",
       "DIALOG 的根对话下的 B 类支线对话（agent!session -> 支线对话）"},
      {"providers", "providers [--json]",
       "the providers the team can name (Dominds: built-in catalogue + llm.yaml), key set or not",
       "团队可以指定的模型服务（Dominds：内置目录 + llm.yaml），以及密钥是否已设置"},
      {"resume", "resume DIALOG | --all [--data DIR]",
       "drive again a dialog (or every one) whose drive ended before its work was done",
       "重新驱动一个（或每个）工作未完成就停止驱动的对话"},
      {"dead", "dead SUBDIALOG [--reason TEXT] [--data DIR]", "declare a subdialog dead; its caller continues",
       "宣布一个支线对话已死；它的调用方继续"},
      {"title", "title DIALOG [--data DIR] \"title\"",
       "name a dialog (1 to 200 characters, one line); the model's own title never replaces it",
       "给对话命名（1 到 200 个字符，一行）；模型自己起的标题不会替换它"},
      {"complete", "complete ROOT [--data DIR]", "mark a root done (seed 001)", "把一个根对话标为完成（seed 001）"},
      {"archive", "archive ROOT [--data DIR]", "archive a root", "归档一个根对话"},
      {"reopen", "reopen ROOT [--data DIR]", "take a completed or archived root up again",
       "重新开启一个已完成或已归档的根对话"},
      {"fork", "fork ROOT [--at SEQ | --at-generation N] [--data DIR] [--json]",
       "a new root tree whose history is ROOT's up to that point (shared, not copied), going on alone",
       "一棵新的根对话树，历史是 ROOT 到该点为止的（共用而不复制），此后各自进行"},
      {"replay",
       "replay ROOT [--from SEQ | --at-generation N] [--model M] [--provider P] [--team FILE] "
       "[--member-persona ID=FILE] [--tools recorded|live] [--data DIR] [--json]",
       "fork ROOT's tree (default: before its first generation) and run it again with the change, answering "
       "the same tool calls and questions from the record",
       "分叉 ROOT 的树（默认：在它第一次生成之前）并带着改动重新运行，相同的工具调用和问题按记录回答"},
      {"check", "check [--data DIR] | check --workspace DIR | check --team FILE",
       "validate the stored hierarchy against the log; or load a team and list its problems",
       "对照日志校验存储的层级；或加载一个团队并列出它的问题"},
      {"repair", "repair [--data DIR]",
       "rewrite or quarantine events whose stored text does not read back (server stopped)",
       "重写或隔离存储文本读不回的事件（服务器须已停止）"},
      {"backup", "backup DEST [--data DIR]", "copy the store to DEST/parley.db, consistent while `serve` writes",
       "把存储复制到 DEST/parley.db，`serve` 写入时也保持一致"},
      {"migrate", "migrate [--data DIR | --store URL]",
       "bring the store's schema to this version and exit (serve and every verb that writes also do)",
       "把存储的结构升级到此版本后退出（serve 和每个会写入的动词也会这样做）"},
      {"vacuum", "vacuum (--team FILE | --workspace DIR) [--data DIR] [--dry-run]",
       "apply the team's retention policy (archive idle roots; server stopped)",
       "执行团队的保留策略（归档闲置的根对话；服务器须已停止）"},
      {"export", "export --rtws DIR [--data DIR] [--force] [--dominds]",
       "write every dialog in the seed layout (DIR/.dialogs/run|done/...), or with --dominds in Dominds 1.29's",
       "按 seed 的布局写出每个对话（DIR/.dialogs/run|done/...），或加 --dominds 按 Dominds 1.29 的布局"},
      {"import", "import --rtws DIR [--data DIR]",
       "read a .dialogs folder (Parley's export or Dominds 1.29's, told apart by its markers) into the store",
       "把一个 .dialogs 文件夹（Parley 的导出或 Dominds 1.29 的，由其标记区分）读入存储"},
      {"serve",
       "serve [--team FILE | --workspace DIR] [--data DIR] [--host 127.0.0.1] [--port 7878] [--token TOKEN | "
       "--users FILE] [--web DIR] [--cors-origin ORIGIN] [--allowed-host NAME[,NAME...]] [--turn-window SECONDS] "
       "[--session-gap SECONDS] [--reflect-every SECONDS] [--reflect-goal TEXT] [--max-upload-bytes N] "
       "[--loaded-dialogs N] [--max-connections N] [--max-connections-per-client N] [--read-priority "
       "adaptive|normal|background] [--otlp-endpoint URL] [--trace-content] [--mcp [--mcp-call-timeout SECONDS]] "
       "[--tot-logs DIR] [--allow-data-in-workspace]",
       "the web UI, REST API and WebSocket on one port, and with --mcp an MCP server at /mcp (the token: --token, "
       "else $PARLEY_TOKEN, else a new one)",
       "在一个端口上提供网页界面、REST API 和 WebSocket，加 --mcp 时在 /mcp 提供 MCP 服务（令牌：--token，否则 "
       "$PARLEY_TOKEN，否则新生成一个）"},
      {"mcp",
       "mcp [--team FILE | --workspace DIR] [--data DIR] [--mcp-call-timeout SECONDS] [--tot-logs DIR] "
       "[--allow-data-in-workspace]",
       "the team as an MCP server on stdin/stdout, for an MCP client that starts it (docs/mcp.md)",
       "把团队作为 stdin/stdout 上的 MCP 服务器，供启动它的 MCP 客户端使用（docs/mcp.md）"},
      {"tot",
       "tot \"problem\" [--task-type T] [--strategy BFS|DFS] [--depth N] [--breadth N] [--threshold X] "
       "[--generation-strategy independent_sampling|sequential_proposal] "
       "[--evaluation-strategy independent_scoring|comparative_voting] [--logs DIR] [--team FILE "
       "| --workspace DIR] [--data DIR] [--max-calls N] [--timeout-ms MS] [--noise none|low|high] [--seed S] "
       "[--json]",
       "a Tree of Thoughts run (seed 003); logs in the workspace's logs/tot-*/ (or --logs DIR)",
       "一次思维树运行（seed 003）；日志在工作区的 logs/tot-*/（或 --logs DIR）"},
      {"tot", "tot --resume tot-YYYYMMDD-HHMMSS-xxxxxx [--data DIR] [--logs DIR]", "continue a Tree of Thoughts run",
       "继续一次思维树运行"},
      {"diff", "diff A B [--json] [--team FILE | --workspace DIR] [--data DIR]",
       "two root trees aligned: where they first part, their answers' line diff, tokens, cost, latency and rounds "
       "per member (docs/eval.md)",
       "对齐两棵根对话树：从哪里开始分开、回答的逐行差异，以及每个成员的令牌、费用、延迟和轮数（docs/eval.md）"},
      {"eval",
       "eval SUITE.yaml [--repeat N] [--concurrency K] [--compare RUN] [--junit FILE] [--html DIR] [--user ID] [--data "
       "DIR]",
       "run a suite of cases against their teams, each a root tree in the store; pass rates, a comparison with an "
       "earlier run, JUnit XML and an HTML report (docs/eval.md)",
       "针对各自的团队运行一组用例，每个用例是存储中的一棵根对话树；通过率、与之前某次运行的比较、JUnit XML 和 HTML "
       "报告（docs/eval.md）"},
      {"completions", "completions bash|zsh",
       "print a shell completion script (installed as share/bash-completion/completions/parley and "
       "share/zsh/vendor-completions/_parley)",
       "打印 shell 补全脚本（安装为 share/bash-completion/completions/parley 和 "
       "share/zsh/vendor-completions/_parley）"},
      {"version", "version", "print the version (also --version)", "打印版本（也可用 --version）"},
  };
  return usages;
}

std::string_view summary_in_language(const verb_usage& usage) {
  return cli_language() == "zh" ? usage.summary_zh : usage.summary;
}

std::string usage_of(std::string_view verb) {
  const std::string head = say_cli(msg::usage_head);
  // The synopses after the first line up under the first: as wide as the head is on screen.
  const std::string indent(cli_language() == "zh" ? 6 : head.size(), ' ');
  std::string out;
  for (const auto& usage : verb_usages()) {
    if (usage.verb != verb) continue;
    out += out.empty() ? head + "parley " : "\n" + indent + "parley ";
    out += usage.synopsis;
  }
  return out.empty() ? say_cli(msg::usage_any) : out;
}

std::string full_usage() {
  std::string out = say_cli(msg::help_head) + "\n";
  for (const auto& usage : verb_usages()) {
    out += "  parley " + std::string(usage.synopsis) + "\n      " + std::string(summary_in_language(usage)) + "\n";
  }
  return out + say_cli(msg::help_common);
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

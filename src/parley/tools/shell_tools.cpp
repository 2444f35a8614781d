// The shell tools' specs and the two one-shot ones. Every refusal happens before anything runs.
#include "parley/tools/shell_tools.hpp"

#include <boost/json/array.hpp>

#include <algorithm>

#include "parley/core/json_fields.hpp"
#include "parley/tools/background_processes.hpp"
#include "parley/tools/shell_command.hpp"
#include "parley/tools/workspace_access.hpp"
#include "parley/tools/workspace_ops.hpp"

namespace parley::tools {
namespace {

namespace json = boost::json;
namespace fs = std::filesystem;

json::object command_schema(std::string_view what) {
  json::object properties{
      {"command", json::object{{"type", "string"}, {"minLength", 1}, {"maxLength", 10000}, {"description", what}}},
      {"cwd",
       json::object{{"type", "string"}, {"description", "Working folder relative to the workspace; default '.'"}}},
      {"timeout_seconds", json::object{{"type", "integer"},
                                       {"minimum", 1},
                                       {"maximum", 3600},
                                       {"description", "Kill it after this long (default: your team's setting, 60)"}}},
  };
  return json::object{{"type", "object"},
                      {"properties", std::move(properties)},
                      {"required", json::array{"command"}},
                      {"additionalProperties", false}};
}

std::vector<std::string> words_of(std::string_view part) {
  std::vector<std::string> words;
  std::string word;
  for (const char c : part) {
    if (c == ' ' || c == '\t') {
      if (!word.empty()) words.push_back(std::exchange(word, {}));
    } else if (c != '\'' && c != '"') {
      word += c;
    }
  }
  if (!word.empty()) words.push_back(word);
  return words;
}

class shell_tool final : public tool {
 public:
  explicit shell_tool(bool read_only)
      : read_only_(read_only),
        spec_(read_only ? tool_spec{"readonly_shell",
                                    "Run an inspection command in the workspace (ls, cat, head, tail, wc, grep, rg, "
                                    "find, stat, du, diff, sort, uniq, git status/log/diff/show ...; pipes allowed, "
                                    "no redirection, no command substitution). Answers the exit status and the output.",
                                    command_schema("The command line, e.g. git log --oneline | head -5")}
                        : tool_spec{"shell_cmd",
                                    "Run a shell command line (/bin/sh -c) in the workspace and wait for it. Answers "
                                    "the exit status and the output (stdout and stderr together; long output keeps "
                                    "its head and tail). For a server or a watcher use start_process.",
                                    command_schema("The command line, e.g. make test")}) {}

  const tool_spec& spec() const override { return spec_; }
  bool has_effects() const override { return !read_only_; }

  boost::asio::awaitable<tool_outcome> invoke(const json::object& args, const tool_context& ctx) override {
    json_fields in(args);
    const std::string command = in.string("command");
    const auto cwd_field = in.optional_string("cwd");
    const auto timeout_field = in.optional_integer("timeout_seconds");
    if (!in.ok()) co_return detail::failed(in.message());
    const auto& policy = shell_policy_of(ctx);
    if (auto why = read_only_ ? readonly_refusal(command) : std::string{}; !why.empty()) {
      co_return detail::failed("refused: " + why);
    }
    if (auto why = access::shell_refusal(policy, command); !why.empty()) co_return detail::failed("refused: " + why);
    const std::string cwd_shown = cwd_field.value_or(".");  // the schema's default: the workspace
    auto cwd = resolve_for(ctx, cwd_shown, file_access::read, access::path_kind::directory);
    if (!cwd) co_return detail::failed("cwd: " + cwd.err().message);
    std::error_code ec;
    if (!fs::is_directory(cwd->absolute, ec))
      co_return detail::failed("cwd: " + detail::quote_path(cwd_shown) + " is not a folder");
    const std::int64_t timeout = std::min(timeout_field.value_or(policy.timeout_seconds), policy.max_timeout_seconds);
    auto request = shell_request(ctx, shell_run{command, cwd->absolute, read_only_});
    if (!request) co_return detail::failed(request.err().message);
    request->timeout = std::chrono::seconds(timeout);
    auto ran = co_await run_process(std::move(*request), ctx.cancel);
    if (!ran) co_return detail::failed(ran.err().message);
    co_return describe_run(command, *ran, timeout);
  }

 private:
  bool read_only_;
  tool_spec spec_;
};

}  // namespace

const std::vector<std::string>& readonly_commands() {
  static const std::vector<std::string> kCommands{"cat",  "cut",  "date", "df",   "diff", "du", "echo", "file",
                                                  "find", "git",  "grep", "head", "ls",   "nl", "pwd",  "rg",
                                                  "sort", "stat", "tail", "tree", "uniq", "wc", "which"};
  return kCommands;
}

std::string readonly_refusal(std::string_view command_line) {
  static const std::vector<std::string> kGitReads{"status", "log",      "diff",      "show",
                                                  "blame",  "ls-files", "rev-parse", "grep"};
  static const std::vector<std::string> kFindWrites{"-exec",   "-execdir", "-ok",  "-okdir",  "-delete",
                                                    "-fprint", "-fprintf", "-fls", "-fprint0"};
  if (command_line.find('`') != std::string_view::npos || command_line.find("$(") != std::string_view::npos) {
    return "command substitution is not allowed in readonly_shell";
  }
  char quote = 0;
  for (const char c : command_line) {
    if (quote != 0) {
      if (c == quote) quote = 0;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '>') {
      return "redirection ('>') writes files; readonly_shell only inspects";
    } else if (c == '&' || c == ';') {
      return "only pipelines ('|') are allowed in readonly_shell, not ';' or '&'";
    }
  }
  const auto& allowed = readonly_commands();
  for (const auto& part : access::simple_commands(command_line)) {
    const auto words = words_of(part);
    if (words.empty()) continue;
    if (std::find(allowed.begin(), allowed.end(), words[0]) == allowed.end()) {
      return "'" + words[0] + "' is not an inspection command readonly_shell runs; use shell_cmd if you have it";
    }
    if (words[0] == "git" &&
        (words.size() < 2 || std::find(kGitReads.begin(), kGitReads.end(), words[1]) == kGitReads.end())) {
      return "readonly_shell runs git only with status, log, diff, show, blame, ls-files, rev-parse or grep";
    }
    for (const auto& word : words) {
      if ((words[0] == "sort" || words[0] == "tree") && (word == "-o" || word.starts_with("--output"))) {
        return words[0] + " " + word + " writes a file; readonly_shell only inspects";
      }
      if (words[0] == "find" && std::find(kFindWrites.begin(), kFindWrites.end(), word) != kFindWrites.end()) {
        return "find " + word + " runs or writes; readonly_shell only inspects";
      }
    }
  }
  return {};
}

const std::vector<std::string>& shell_tool_names() {
  static const std::vector<std::string> kNames{"shell_cmd", "start_process", "list_processes", "read_process",
                                               "stop_process"};
  return kNames;
}

bool is_shell_tool(std::string_view name) {
  // Dominds' daemon tools are shell tools there too (its SHELL_TOOL_NAMES); a `.minds/` team has them.
  if (name == "stop_daemon" || name == "get_daemon_output") return true;
  const auto& names = shell_tool_names();
  return std::find(names.begin(), names.end(), name) != names.end();
}

bool runs_commands(std::string_view name) { return is_shell_tool(name) || name == "readonly_shell"; }

void register_shell_tools(tool_registry& registry) {
  registry.add(std::make_unique<shell_tool>(false));
  registry.add(std::make_unique<shell_tool>(true));
  register_background_process_tools(registry);
  registry.add_toolset("shell", shell_tool_names());
  registry.add_toolset("readonly_shell", {"readonly_shell"});
}

}  // namespace parley::tools

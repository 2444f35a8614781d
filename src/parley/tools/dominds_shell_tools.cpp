// Dominds' readonly_shell over Parley's (so the allowlist, the access rules, the sandbox and the
// secret-free environment hold unchanged), shell_cmd and the rest of the `os` toolset
// (dominds_os_tools.hpp), and the memory tools under Dominds' names over Parley's memory stores.
// Answers in Dominds' shapes: "✅ Command completed (exit code: N)" with the output in a console
// block; "Added", "Updated", "Deleted", "Cleared".
#include <algorithm>
#include <cmath>

#include "parley/core/json_fields.hpp"
#include "parley/tools/dominds_os_tools.hpp"
#include "parley/tools/dominds_tool_support.hpp"
#include "parley/tools/memory_tools.hpp"
#include "parley/tools/shell_tools.hpp"

namespace parley::tools::dominds_detail {
namespace {

namespace json = boost::json;

constexpr double kShellMaxTimeoutSeconds = 3600;

// Seconds Parley's shell tools take: Dominds' number rounded up, at least 1.
std::int64_t whole_seconds(double seconds) {
  return static_cast<std::int64_t>(std::ceil(std::clamp(seconds, 1.0, kShellMaxTimeoutSeconds)));
}

result<json::object> readonly_shell_arguments(const json::object& args) {
  json_fields in(args);
  const std::string command = in.string("command");
  const auto timeout_ms = in.optional_number("timeout_ms");
  if (!in.ok()) return make_error(errc::invalid_argument, in.message());
  if (timeout_ms && !(*timeout_ms > 0)) return make_error(errc::invalid_argument, "timeout_ms: must be more than 0");
  json::object out{{"command", command}};
  if (timeout_ms) out["timeout_seconds"] = whole_seconds(*timeout_ms / 1000.0);
  return out;
}

// Parley's "$ <command>\n[exit N]\n<output>" as Dominds says it; a refusal as "❌ ...".
tool_outcome shell_answer(const json::object& args, tool_outcome parley) {
  const auto* command_value = args.if_contains("command");
  const std::string command =
      command_value != nullptr && command_value->is_string() ? std::string(command_value->get_string()) : std::string{};
  const std::string prefix = "$ " + command + "\n";
  if (!parley.content.starts_with(prefix)) return tool_outcome{false, "❌ Failed to execute command: " + parley.content};
  const std::string rest = parley.content.substr(prefix.size());
  const auto status_end = rest.find('\n');
  const std::string status = rest.substr(0, status_end);
  std::string output = status_end == std::string::npos ? std::string{} : rest.substr(status_end + 1);
  while (!output.empty() && output.back() == '\n') output.pop_back();
  std::string text;
  if (status.starts_with("[exit ")) {
    text = "✅ Command completed (exit code: " + status.substr(6, status.size() - 7) + ")";
  } else {
    text = "❌ Command did not complete: " + status.substr(1, status.size() - 2);
  }
  // Parley's shell gives stdout and stderr as one stream, in the order they were written.
  if (!output.empty()) text += "\n\n📤 stdout:\n```console\n" + output + "\n```";
  return tool_outcome{parley.ok, std::move(text)};
}

adapter_tool::reshape_fn memory_answer(std::string done) {
  return [done = std::move(done)](const json::object&, tool_outcome parley) {
    if (!parley.ok) return tool_outcome{false, "Error: " + parley.content};
    return tool_outcome{true, done};
  };
}

}  // namespace

void register_shell_and_memory_tools(tool_registry& registry) {
  // Parley's own tools of the same job, taken from a registry of their own: the Dominds ones wrap them.
  tool_registry parley;
  register_shell_tools(parley);
  register_memory_tools(parley);
  // shell_cmd keeps a command still running at its timeout as a daemon: its own tool, with
  // get_daemon_output, stop_daemon and the env tools sharing one state (dominds_os_tools.hpp).
  const auto os = std::make_shared<os_state>();
  register_daemon_tools(registry, os);
  register_env_tools(registry, os);
  registry.add(std::make_unique<adapter_tool>(dominds_spec_or_note("readonly_shell"), parley.release("readonly_shell"),
                                              readonly_shell_arguments, shell_answer));
  struct memory_name {
    const char* dominds;
    const char* parley;
    const char* done;
  };
  for (const auto& [dominds, parley_name, done] : {
           memory_name{"add_personal_memory", "add_memory", "Added"},
           memory_name{"replace_personal_memory", "replace_memory", "Updated"},
           memory_name{"drop_personal_memory", "drop_memory", "Deleted"},
           memory_name{"clear_personal_memory", "clear_memory", "Cleared"},
           memory_name{"add_team_memory", "add_team_memory", "Added"},
           memory_name{"replace_team_memory", "replace_team_memory", "Updated"},
           memory_name{"drop_team_memory", "drop_team_memory", "Deleted"},
           memory_name{"clear_team_memory", "clear_team_memory", "Cleared"},
       }) {
    registry.add(std::make_unique<adapter_tool>(dominds_spec_or_note(dominds), parley.release(parley_name),
                                                same_arguments, memory_answer(done)));
  }
}

}  // namespace parley::tools::dominds_detail

// How one configured server is reached, worked out when it is started: the program, its
// arguments, folder and environment (stdio), or the URL and headers (streamable HTTP). Values the
// configuration takes from Parley's environment (`{env: NAME}`) are read here, at start time, and
// never logged: errors name the variable, not its value.
//
// A stdio server's environment is not Parley's: like the official SDK's StdioClientTransport, it
// gets HOME, LOGNAME, PATH, SHELL, TERM and USER from Parley's environment (those that are set,
// and not shell functions), then the configured `env` on top — so a provider's API key in
// Parley's environment never reaches a server that was not given it.
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "parley/config/mcp_config.hpp"
#include "parley/core/result.hpp"

namespace parley::tools::mcp {

struct server_launch {
  config::mcp_transport transport = config::mcp_transport::stdio;
  // stdio
  std::vector<std::string> argv;  // command, then args
  std::filesystem::path cwd;      // absolute
  std::vector<std::string> env;   // NAME=value: the server's whole environment
  // streamable_http
  std::string url;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string session_id;                           // resume this MCP session ("" for a new one)
  std::chrono::milliseconds call_timeout{120'000};  // the transport waits for an answer at least this long
};

// Reads one variable of Parley's environment (tests pass their own).
using env_lookup = std::function<std::optional<std::string>(const std::string& name)>;
std::optional<std::string> process_env(const std::string& name);

// errc::config_error naming the server and the key: an `{env: NAME}` whose variable is not set, a
// cwd that is not a folder.
// A stdio server's process under a member's sandbox (docs/mcp.md, "Access rules"): the arguments
// that go before the server's own command for a run in `cwd` (absolute) — bwrap's, ending in "--"
// — or why it cannot run there.
using launch_wrapper = std::function<result<std::vector<std::string>>(const std::filesystem::path& cwd)>;

// Where a member's stdio servers run. Members whose profiles have the same key share a server's
// process; the empty key (and no wrapper) is the process outside any sandbox.
struct sandbox_profile {
  std::string key;
  launch_wrapper wrap;
};

result<server_launch> plan_launch(const config::mcp_server_config& server, const std::filesystem::path& workspace,
                                  const env_lookup& lookup = process_env);

}  // namespace parley::tools::mcp

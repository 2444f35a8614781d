// The MCP servers a team's members may take tools from: Dominds' `.minds/mcp.yaml` read as it is
// (dominds@1.29.0 dist/mcp/config.js: `version: 1`, `servers: {id: {...}}`), or the `mcp:` section of
// Parley's own team file in the same shape (docs/mcp.md "Configuration"). Read strictly: an unknown
// key, a missing command, a URL that is not http(s) is an error naming the file, the line and the
// key. A server whose entry is wrong is refused alone (the others still load, as in Dominds); a file
// that is not YAML, not `version: 1`, has an unknown top-level key, a `servers` that is not a
// mapping or a server id twice, is refused whole.
//
// A secret never has to be written into the file: an env value or an HTTP header may name an
// environment variable of Parley's process (`{env: NAME}`, for headers `{prefix: "Bearer ", env:
// NAME}`), read when the server is started — never stored in the log.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parley/core/result.hpp"

namespace parley::config {

enum class mcp_transport { stdio, streamable_http };

// A value written in the file, or taken from an environment variable when the server starts.
struct mcp_value_source {
  std::string literal;   // when `env_name` is empty
  std::string env_name;  // {env: NAME}
  std::string prefix;    // headers only: {prefix: "Bearer ", env: NAME}
  bool from_env() const { return !env_name.empty(); }
};

struct mcp_named_value {
  std::string name;
  mcp_value_source value;
};

// Dominds' name transforms, applied in order to each tool (prompt, resource) name.
struct mcp_name_transform {
  enum class kind { prefix_add, prefix_replace, suffix_add } what = kind::prefix_add;
  std::string remove;  // prefix_replace only
  std::string add;
};

// Which names of one kind (tools, prompts, resources) the members see: whitelist and blacklist are
// Dominds' patterns (`*` matches any run of characters); `transform` overrides the server's own
// when set.
struct mcp_name_filter {
  std::vector<std::string> whitelist;  // empty: all (blank patterns are dropped, as in Dominds)
  std::vector<std::string> blacklist;
  std::optional<std::vector<mcp_name_transform>> transform;  // nullopt: inherit the enclosing one
};

// Dominds' `resources.skills`: Markdown resources offered as read-only skills, when enabled. Its
// transform, when not set, is the resources' (which may inherit the server's).
struct mcp_resource_skills {
  bool enabled = false;
  mcp_name_filter filter;
};

struct mcp_server_config {
  std::string id;  // the toolset name a member's `toolsets:` gives it
  bool enabled = true;
  bool truely_stateless = false;  // Dominds' spelling: one process may serve every dialog at once
  mcp_transport transport = mcp_transport::stdio;
  // stdio: run without a shell. `cwd` as written (a relative one is taken relative to the
  // workspace, where Dominds runs); `env` on top of the environment the server is given.
  std::string command;
  std::vector<std::string> args;
  std::filesystem::path cwd;
  std::vector<mcp_named_value> env;
  // streamable_http
  std::string url;
  std::vector<mcp_named_value> headers;
  std::string session_id;  // Dominds' `sessionId`: resume this MCP session instead of a new one

  mcp_name_filter tools;
  mcp_name_filter prompts;
  mcp_name_filter resources;
  std::vector<mcp_name_transform> transform;     // the server's own, for every kind
  std::vector<std::string> resource_mime_types;  // empty: all
  std::optional<std::size_t> resource_max_bytes;
  mcp_resource_skills resource_skills;
  // Dominds' `manual` text: `content`, then each section as "#### title\n\ncontent", joined by blank
  // lines (Dominds' renderInlineMcpToolsetManual); told to the members.
  std::string manual;
  // Dominds' `manual.contentFile`: the prefix of its topic files (`<prefix>/index.en.md`, ...),
  // as written, relative to the workspace. Not read here.
  std::filesystem::path manual_content_file;

  // Parley's limits (keys Dominds does not have, accepted in both files).
  std::chrono::milliseconds start_timeout{30'000};      // spawn or connect → `initialize` answered
  std::chrono::milliseconds call_timeout{120'000};      // one request → its response
  std::size_t max_result_bytes = std::size_t{1} << 20;  // a larger result is a tool error

  std::filesystem::path source;  // the file and line the entry was read from, for errors
  int line = 0;                  // 1-based, the line of the server's id
};

// A server whose entry was refused, and why (the same line as in `problems`).
struct mcp_refused_server {
  std::string id;
  std::string problem;
};

struct mcp_config {
  std::filesystem::path source;            // the file read (the team file for an inline `mcp:`); empty: none
  std::vector<mcp_server_config> servers;  // the valid and enabled ones, in file order
  std::vector<std::string> disabled;       // valid ids with `enabled: false`: toolsets of no tools
  // One line per refused server: `FILE:LINE:COLUMN: servers.ID.KEY: problem`. Its toolset is
  // unavailable with this reason; the others load.
  std::vector<std::string> problems;
  std::vector<mcp_refused_server> refused;  // the same, with the ids, in file order

  const mcp_server_config* find(std::string_view id) const;
};

// Parley's limits on the extra keys (inclusive).
inline constexpr std::int64_t kMaxMcpStartTimeoutMs = std::int64_t{10} * 60 * 1000;
inline constexpr std::int64_t kMaxMcpCallTimeoutMs = std::int64_t{60} * 60 * 1000;
inline constexpr std::int64_t kMaxMcpResultBytes = std::int64_t{64} << 20;  // one message at most

// `.minds/mcp.yaml` (or any file of that format: `version: 1` required); a missing file is an empty
// config (MCP off), not an error. errc::config_error for a file refused whole.
result<mcp_config> read_mcp_file(const std::filesystem::path& file);

}  // namespace parley::config

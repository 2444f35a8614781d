// The one reader of the MCP server configuration, for both places it is written: a whole
// `.minds/mcp.yaml` (read_mcp_file) and the `mcp:` section of Parley's team file. Errors carry the
// file, line, column and key path of the mapping they were read from.
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>
#include <string_view>
#include <vector>

#include "parley/config/mcp_config.hpp"
#include "parley/config/problem.hpp"
#include "parley/config/yaml_reader.hpp"
#include "parley/core/result.hpp"

namespace parley::config::detail {

// mcp.yaml requires `version: 1`, as Dominds does; the team file's section may leave it out.
enum class mcp_version_key { required, optional };

// Reads `map` ({version, servers}). A server whose entry is wrong goes to `problems` and `refused`;
// the returned error is for what refuses the whole (an unknown top-level key, a bad version,
// `servers` not a mapping, a server id given twice). `source` is left to the caller.
result<mcp_config> read_mcp_map(const map_reader& map, mcp_version_key version);

// One server entry, `servers.<id>` (its id already checked). Exposed for mcp_config.cpp.
result<mcp_server_config> read_mcp_server(const map_reader& map, const std::string& id);
// Its `transform`, `tools`, `prompts`, `resources` and `manual` (mcp_names_reader.cpp).
result<void> read_mcp_names(const map_reader& server, mcp_server_config& config);

// Helpers of both (mcp_server_reader.cpp). Dominds' loader is JavaScript: where it expects a
// string, 8080 or true is refused; so here, with this hint.
inline constexpr std::string_view kMcpStringHint = "a string; quote numbers and booleans";
// A scalar the YAML core schema reads as a string.
bool is_yaml_string(const YAML::Node& node);
error mcp_node_error(const map_reader& map, const YAML::Node& node, const std::string& path, std::string_view problem);
error mcp_node_type_error(const map_reader& map, const YAML::Node& node, const std::string& path,
                          std::string_view expected);
// The string at `item`, not blank; `what` says what was expected.
result<std::string> read_mcp_text(const map_reader& map, const map_reader::entry& item, std::string_view what);
// Refuses `text` with a control character (those in `allowed` excepted), naming `what` it is.
result<void> check_mcp_controls(const map_reader& map, const map_reader::entry& item, std::string_view text,
                                std::string_view what, std::string_view allowed = {});
// A list of strings at `key` (absent: empty). Blank ones are dropped, as Dominds drops them,
// unless `keep_blank`; with `controls_in` set, one with a control character is refused as not
// allowed in that.
result<std::vector<std::string>> read_mcp_strings(const map_reader& map, std::string_view key, bool keep_blank,
                                                  std::string_view controls_in = {});

// Each refused server as a problem (said once when the team is loaded): where and why, and that
// its toolset gives no tools.
void add_mcp_problems(const mcp_config& config, std::vector<problem>& problems);

}  // namespace parley::config::detail

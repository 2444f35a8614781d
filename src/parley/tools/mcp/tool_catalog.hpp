// The tools one server lists, made into the Parley tools a member may be given: Dominds' filters
// and renames (name_rules.hpp), a schema the model APIs accept (schema_normaliser.hpp) and that
// Parley's argument checks enforce whole (schema_check.hpp, as tool_registry::add_checked). A tool
// that fails any of these, or whose name is already taken, is left out with a notice naming the
// server and the tool (and who has the name), and the server's other tools are kept.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "parley/tools/mcp/mcp_tool.hpp"
#include "parley/tools/mcp/protocol_types.hpp"
#include "parley/tools/mcp/server_runtime.hpp"

namespace parley::tools::mcp {

// A description longer than this is cut (it is sent with every model call).
constexpr std::size_t kMaxToolDescription = std::size_t{8} * 1024;

struct tool_catalog {
  std::vector<std::shared_ptr<mcp_tool>> tools;
  std::vector<std::string> notices;  // one line per tool left out
};

// Who already has a tool name: "" when it is free, else words naming the holder ("the built-in
// tool 'read_file'", "MCP server 'other'").
using name_holder = std::function<std::string(const std::string& name)>;

tool_catalog build_tool_catalog(const std::shared_ptr<server_runtime>& server, const std::vector<tool_info>& listed,
                                const name_holder& holder);

}  // namespace parley::tools::mcp

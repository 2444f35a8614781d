// Dominds' `resources` toolset (dist/tools/resources.js): `list_resources` lists the resources and
// resource templates of the MCP servers the calling member was given (its toolsets), and
// `fetch_resource` reads one by the id list_resources showed. As in Dominds:
//   - a resource's id is its URI (a template's: its URI template) after the configured transforms
//     (`resources.transform`, else the server's), made an identifier (name_rules.hpp stable_id);
//   - whitelist and blacklist of `resources:` match the original URI or template; with `mimeTypes`,
//     only entries that declare one of them are listed;
//   - a template needs `arguments` for each of its variables, a static resource takes none;
//   - text contents are joined by blank lines, binary ones shown as a line with their length.
// And as Dominds' documentation asks (mcp-prompts-resources.md), more than `maxBytes` of text
// (default 64000) and contents of a MIME type outside `mimeTypes` are errors, not the content.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "parley/tools/mcp/mcp_servers.hpp"
#include "parley/tools/tool.hpp"

namespace parley::tools::mcp {

inline constexpr const char* kListResourcesTool = "list_resources";
inline constexpr const char* kFetchResourceTool = "fetch_resource";
constexpr std::size_t kDefaultResourceMaxBytes = 64'000;

// The MCP servers a member was given, by member id.
using visible_servers = std::function<std::vector<std::string>(std::string_view member_id)>;
// The sandbox a member's stdio servers run under, by member id (empty function: none for anyone).
// Its resources are read through the process of that profile, never through one outside its rules.
using member_sandbox = std::function<sandbox_profile(std::string_view member_id)>;

struct resource_entry {
  bool is_template = false;
  std::string id;
  std::string server_id;
  std::string uri;  // the URI, or the URI template
  std::vector<std::string> variables;
  std::string name;
  std::string description;
  std::string mime_type;
};

// The entries of one server's listing that its configuration shows, with their ids.
std::vector<resource_entry> resource_entries(const config::mcp_server_config& server, const resource_listing& listing);

// Both keep a reference to `pool`, which outlives them (the engine owns both).
std::unique_ptr<tools::tool> make_list_resources_tool(mcp_servers& pool, visible_servers visible,
                                                      member_sandbox sandbox = {});
std::unique_ptr<tools::tool> make_fetch_resource_tool(mcp_servers& pool, visible_servers visible,
                                                      member_sandbox sandbox = {});

}  // namespace parley::tools::mcp

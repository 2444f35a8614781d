#include "parley/tools/mcp/tool_catalog.hpp"

#include <set>

#include "parley/tools/mcp/name_rules.hpp"
#include "parley/tools/mcp/schema_normaliser.hpp"
#include "parley/tools/schema_check.hpp"

namespace parley::tools::mcp {

namespace {

std::string cut_description(std::string text) {
  if (text.size() <= kMaxToolDescription) return text;
  std::size_t cut = kMaxToolDescription;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  text.resize(cut);
  return text + " […]";
}

}  // namespace

tool_catalog build_tool_catalog(const std::shared_ptr<server_runtime>& server, const std::vector<tool_info>& listed,
                                const name_holder& holder) {
  const auto& config = server->config();
  tool_catalog out;
  std::set<std::string, std::less<>> named;
  auto leave_out = [&](const std::string& tool, const std::string& why) {
    out.notices.push_back("MCP server '" + config.id + "': tool '" + tool + "' is left out: " + why);
  };
  for (const auto& tool : listed) {
    if (!is_valid_tool_name(tool.name)) {
      leave_out(tool.name, "its name is not one model APIs accept (^[a-zA-Z0-9_-]{1,64}$)");
      continue;
    }
    if (const auto shown = decide_exposure(tool.name, config.tools); !shown.accepted) {
      leave_out(tool.name, shown.why);
      continue;
    }
    const std::string name = apply_transforms(tool.name, transforms_for(config, config.tools));
    if (!is_valid_tool_name(name)) {
      leave_out(tool.name, "the transforms make it '" + name + "', which model APIs do not accept");
      continue;
    }
    if (named.contains(name)) {
      leave_out(tool.name, "another of its tools is also named '" + name + "'");
      continue;
    }
    if (const std::string other = holder(name); !other.empty()) {
      leave_out(tool.name, "the name '" + name + "' is taken by " + other);
      continue;
    }
    auto schema = normalise_tool_schema(tool.input_schema);
    if (!schema) {
      leave_out(tool.name, "its input schema is not one model APIs accept: " + schema.err().message);
      continue;
    }
    if (auto checked = check_tool_schema(*schema, "inputSchema"); !checked) {
      leave_out(tool.name, "Parley cannot check arguments against its input schema: " + checked.err().message);
      continue;
    }
    std::string description = !tool.description.empty() ? tool.description
                              : !tool.title.empty()     ? tool.title
                                                        : "Tool '" + tool.name + "' of MCP server '" + config.id + "'.";
    named.insert(name);
    out.tools.push_back(std::make_shared<mcp_tool>(
        server, config.id, tool.name, tool_spec{name, cut_description(std::move(description)), std::move(*schema)}));
  }
  return out;
}

}  // namespace parley::tools::mcp

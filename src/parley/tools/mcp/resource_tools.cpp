#include "parley/tools/mcp/resource_tools.hpp"

#include <boost/json/serialize.hpp>

#include <algorithm>
#include <map>

#include "parley/core/json_fields.hpp"
#include "parley/core/text.hpp"
#include "parley/tools/mcp/name_rules.hpp"
#include "parley/tools/mcp/uri_template.hpp"

namespace parley::tools::mcp {

namespace json = boost::json;
namespace asio = boost::asio;

namespace {

bool mime_allowed(const config::mcp_server_config& server, std::string_view mime) {
  const auto& allowed = server.resource_mime_types;
  return allowed.empty() || std::find(allowed.begin(), allowed.end(), mime) != allowed.end();
}

std::string entry_text(const resource_entry& entry) {
  std::string out = "- " + entry.id + "\n  kind: " + (entry.is_template ? "resource_template" : "resource") +
                    "\n  serverId: " + entry.server_id + (entry.is_template ? "\n  uriTemplate: " : "\n  uri: ") +
                    entry.uri;
  if (entry.is_template) {
    std::string variables;
    for (const auto& name : entry.variables) variables += (variables.empty() ? "" : ", ") + name;
    out += "\n  variables: " + (variables.empty() ? std::string("(none)") : variables);
  }
  out += "\n  name: " + entry.name;
  if (!entry.description.empty()) out += "\n  description: " + entry.description;
  if (!entry.mime_type.empty()) out += "\n  mimeType: " + entry.mime_type;
  return out;
}

// The visible servers' entries, each server's listing read (or its problem noted).
struct gathered {
  std::vector<resource_entry> entries;
  std::vector<std::string> problems;
};

// `profile` is the awaiting caller's, alive until this ends.
asio::awaitable<gathered> gather(mcp_servers& pool, std::vector<std::string> ids, const sandbox_profile& profile) {
  gathered out;
  for (const auto& id : ids) {
    auto server = pool.runtime_for(id, profile);
    if (!server) continue;
    auto listing = co_await server->resources();
    if (!listing) {
      out.problems.push_back(listing.err().message);
      continue;
    }
    auto entries = resource_entries(server->config(), **listing);
    out.entries.insert(out.entries.end(), entries.begin(), entries.end());
  }
  co_return out;
}

class list_resources_tool : public tools::tool {
 public:
  list_resources_tool(mcp_servers& pool, visible_servers visible, member_sandbox sandbox)
      : pool_(pool), visible_(std::move(visible)), sandbox_(std::move(sandbox)) {
    spec_.name = kListResourcesTool;
    spec_.description =
        "List the resources and resource templates of the MCP servers you were given. Read one with fetch_resource "
        "and its id.";
    spec_.parameters = json::object{
        {"type", "object"},
        {"additionalProperties", false},
        {"properties",
         json::object{
             {"serverId", json::object{{"type", "string"}, {"description", "Only this MCP server's."}}},
             {"query", json::object{{"type", "string"}, {"description", "Case-insensitive text to look for."}}},
             {"kind", json::object{{"type", "string"},
                                   {"enum", json::array{"resource", "resource_template"}},
                                   {"description", "Only resources, or only resource templates."}}}}}};
  }
  const tool_spec& spec() const override { return spec_; }
  bool has_effects() const override { return false; }

  asio::awaitable<tool_outcome> invoke(const json::object& args, const tool_context& ctx) override {
    json_fields in(args, "arguments");
    const std::string server_id(trim(in.optional_string("serverId").value_or("")));
    const std::string query = ascii_lowercase(trim(in.optional_string("query").value_or("")));
    const std::string kind = in.optional_string("kind").value_or("");
    if (!in.ok()) co_return tool_outcome{false, in.message()};
    auto ids = visible_(ctx.member_id);
    if (!server_id.empty()) {
      if (std::find(ids.begin(), ids.end(), server_id) == ids.end()) {
        co_return tool_outcome{false,
                               "you were not given MCP server '" + server_id + "'" + did_you_mean(server_id, ids)};
      }
      ids = {server_id};
    }
    const auto sandbox = sandbox_of(ctx.member_id);
    auto found = co_await gather(pool_, std::move(ids), sandbox);
    std::string out;
    for (const auto& entry : found.entries) {
      if (!kind.empty() && (kind == "resource_template") != entry.is_template) continue;
      const std::string haystack = ascii_lowercase(entry.id + "\n" + entry.server_id + "\n" + entry.uri + "\n" +
                                                   entry.name + "\n" + entry.description);
      if (!query.empty() && haystack.find(query) == std::string::npos) continue;
      out += (out.empty() ? "" : "\n") + entry_text(entry);
    }
    if (out.empty()) out = "(no matching resources)";
    for (const auto& problem : found.problems) out += "\n(" + problem + ")";
    co_return tool_outcome{true, out};
  }

 private:
  mcp_servers& pool_;
  visible_servers visible_;
  member_sandbox sandbox_;
  sandbox_profile sandbox_of(std::string_view member_id) const {
    return sandbox_ ? sandbox_(member_id) : sandbox_profile{};
  }
  tool_spec spec_;
};

std::string render_contents(const std::vector<resource_contents>& contents) {
  std::string out;
  for (const auto& part : contents) {
    const std::string piece =
        part.is_blob ? json::serialize(json::object{
                           {"uri", part.uri},
                           {"mimeType", part.mime_type.empty() ? "application/octet-stream" : part.mime_type},
                           {"blob", "[omitted base64; length=" + std::to_string(part.blob.size()) + "]"}})
                     : part.text;
    if (piece.empty()) continue;
    out += (out.empty() ? "" : "\n\n") + piece;
  }
  return std::string(trim(out));
}

class fetch_resource_tool : public tools::tool {
 public:
  fetch_resource_tool(mcp_servers& pool, visible_servers visible, member_sandbox sandbox)
      : pool_(pool), visible_(std::move(visible)), sandbox_(std::move(sandbox)) {
    spec_.name = kFetchResourceTool;
    spec_.description =
        "Fetch one resource of an MCP server by the id list_resources showed. Resource templates "
        "need arguments: a value for each of their variables.";
    spec_.parameters = json::object{
        {"type", "object"},
        {"additionalProperties", false},
        {"required", json::array{"resourceId"}},
        {"properties",
         json::object{
             {"resourceId", json::object{{"type", "string"}, {"description", "Resource id from list_resources."}}},
             {"arguments", json::object{{"type", "object"},
                                        {"properties", json::object{}},
                                        {"additionalProperties", json::object{{"type", "string"}}},
                                        {"description", "Template arguments, for a resource_template."}}}}}};
  }
  const tool_spec& spec() const override { return spec_; }
  bool has_effects() const override { return false; }

  asio::awaitable<tool_outcome> invoke(const json::object& args, const tool_context& ctx) override {
    json_fields in(args, "arguments");
    const std::string id(trim(in.string("resourceId")));
    const auto* given = in.optional_object("arguments");
    if (!in.ok()) co_return tool_outcome{false, in.message()};
    std::map<std::string, std::string> values;
    if (given != nullptr) {
      for (const auto& [key, value] : *given) values[std::string(key)] = std::string(value.as_string());
    }
    const auto sandbox = sandbox_of(ctx.member_id);
    auto found = co_await gather(pool_, visible_(ctx.member_id), sandbox);
    const auto entry = std::find_if(found.entries.begin(), found.entries.end(),
                                    [&](const resource_entry& candidate) { return candidate.id == id; });
    if (entry == found.entries.end()) {
      std::string problem = "resource '" + id + "' was not found; list_resources shows the ids you can fetch";
      for (const auto& why : found.problems) problem += " (" + why + ")";
      co_return tool_outcome{false, problem};
    }
    std::string uri = entry->uri;
    if (!entry->is_template && !values.empty()) {
      co_return tool_outcome{false, "static resource '" + id + "' takes no arguments"};
    }
    if (entry->is_template) {
      auto expanded = expand_uri_template(entry->uri, values);
      if (!expanded) co_return tool_outcome{false, expanded.err().message + " for '" + id + "'"};
      uri = std::move(*expanded);
    }
    auto server = pool_.runtime_for(entry->server_id, sandbox);
    if (!server) co_return tool_outcome{false, "MCP server '" + entry->server_id + "' is no longer configured"};
    auto contents = co_await server->read_resource(uri);
    if (!contents) co_return tool_outcome{false, contents.err().message};
    const auto& config = server->config();
    for (const auto& part : *contents) {
      if (!part.mime_type.empty() && !mime_allowed(config, part.mime_type)) {
        co_return tool_outcome{false, "MCP resource '" + uri + "' is of MIME type " + part.mime_type +
                                          ", which mimeTypes of server '" + config.id + "' does not allow"};
      }
    }
    std::string text = render_contents(*contents);
    const std::size_t limit = config.resource_max_bytes.value_or(kDefaultResourceMaxBytes);
    if (text.size() > limit) {
      co_return tool_outcome{false, "MCP resource '" + uri + "' exceeds maxBytes (" + std::to_string(text.size()) +
                                        " > " + std::to_string(limit) + ")"};
    }
    co_return tool_outcome{true, text.empty() ? "(empty resource)" : text};
  }

 private:
  mcp_servers& pool_;
  visible_servers visible_;
  member_sandbox sandbox_;
  sandbox_profile sandbox_of(std::string_view member_id) const {
    return sandbox_ ? sandbox_(member_id) : sandbox_profile{};
  }
  tool_spec spec_;
};

}  // namespace

std::vector<resource_entry> resource_entries(const config::mcp_server_config& server, const resource_listing& listing) {
  std::vector<resource_entry> out;
  const auto& transforms = transforms_for(server, server.resources);
  auto shown = [&](const std::string& uri, const std::string& mime) {
    if (!decide_exposure(uri, server.resources).accepted) return false;
    return server.resource_mime_types.empty() || (!mime.empty() && mime_allowed(server, mime));
  };
  for (const auto& resource : listing.resources) {
    if (!shown(resource.uri, resource.mime_type)) continue;
    out.push_back(resource_entry{false,
                                 stable_id(apply_transforms(resource.uri, transforms)),
                                 server.id,
                                 resource.uri,
                                 {},
                                 resource.name,
                                 resource.description,
                                 resource.mime_type});
  }
  for (const auto& listed : listing.templates) {
    if (!shown(listed.uri_template, listed.mime_type)) continue;
    auto variables = template_variables(listed.uri_template);
    if (!variables) continue;  // a template Parley could not expand is not offered
    out.push_back(resource_entry{true, stable_id(apply_transforms(listed.uri_template, transforms)), server.id,
                                 listed.uri_template, std::move(*variables), listed.name, listed.description,
                                 listed.mime_type});
  }
  return out;
}

std::unique_ptr<tools::tool> make_list_resources_tool(mcp_servers& pool, visible_servers visible,
                                                      member_sandbox sandbox) {
  return std::make_unique<list_resources_tool>(pool, std::move(visible), std::move(sandbox));
}

std::unique_ptr<tools::tool> make_fetch_resource_tool(mcp_servers& pool, visible_servers visible,
                                                      member_sandbox sandbox) {
  return std::make_unique<fetch_resource_tool>(pool, std::move(visible), std::move(sandbox));
}

}  // namespace parley::tools::mcp

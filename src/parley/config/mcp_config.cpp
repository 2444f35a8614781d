// The MCP configuration as a whole: `.minds/mcp.yaml` (Dominds' parseMcpYaml / parseWorkspaceConfig)
// and the same shape inside Parley's team file. Each server is read by read_mcp_server
// (mcp_server_reader.cpp); one that is wrong is set aside with its one-line reason.
#include <algorithm>
#include <exception>
#include <system_error>
#include <utility>

#include "parley/config/mcp_config.hpp"
#include "parley/config/mcp_reader.hpp"
#include "parley/config/yaml_value.hpp"

namespace parley::config {
namespace detail {
namespace {

const std::vector<std::string> kMcpTopKeys{"version", "servers"};
constexpr std::size_t kMaxServerIdChars = 64;

// A server id is a toolset name, which members write in `toolsets:` and Dominds builds tool names
// from: the tool-name alphabet, up to 64 characters.
bool is_server_id(std::string_view id) {
  return !id.empty() && id.size() <= kMaxServerIdChars && std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '-';
  });
}

result<void> read_mcp_version(const map_reader& map, mcp_version_key version) {
  const map_reader::entry* item = map.find("version");
  if (item == nullptr) {
    if (version == mcp_version_key::optional) return ok();
    return map.missing("version", "1");
  }
  const typed_scalar value = resolve_scalar(item->value);
  if (!item->value.IsScalar() || value.kind != scalar_kind::integer || value.integer != 1) {
    return type_error(map, *item, "1, the only version of this format");
  }
  return ok();
}

result<mcp_server_config> read_server_entry(const map_reader& servers, const map_reader::entry& item) {
  const std::string path = servers.path_of(item.key);
  if (!is_server_id(item.key)) {
    return servers.fail_at_key(item, "invalid server id '" + item.key +
                                         "' (expected 1 to 64 letters, digits, '_' or '-': it is the toolset name)");
  }
  auto map = servers.child_of(item, path);
  if (!map) return std::move(map).err();
  return read_mcp_server(*map, item.key);
}

}  // namespace

result<mcp_config> read_mcp_map(const map_reader& map, mcp_version_key version) {
  PARLEY_TRY(map.check_keys(kMcpTopKeys));
  PARLEY_TRY(read_mcp_version(map, version));
  mcp_config config;
  auto servers = map.child("servers");
  if (!servers) return std::move(servers).err();
  if (!servers->has_value()) return config;
  const map_reader& table = **servers;
  // Dominds' YAML parser refuses a repeated key, and with it the whole file.
  PARLEY_TRY(table.check_unique("server id"));
  for (const auto& item : table.entries()) {
    auto server = read_server_entry(table, item);
    if (!server) {
      config.problems.push_back(server.err().message);
      config.refused.push_back(mcp_refused_server{item.key, server.err().message});
      continue;
    }
    if (server->enabled) {
      config.servers.push_back(std::move(server).value());
    } else {
      config.disabled.push_back(item.key);
    }
  }
  return config;
}

void add_mcp_problems(const mcp_config& config, std::vector<problem>& problems) {
  for (const auto& refused : config.refused) {
    problems.push_back(problem_from_message(refused.problem + " (MCP server '" + refused.id +
                                            "' is refused: its toolset gives no tools)"));
  }
}

}  // namespace detail

const mcp_server_config* mcp_config::find(std::string_view id) const {
  const auto found =
      std::find_if(servers.begin(), servers.end(), [&](const mcp_server_config& server) { return server.id == id; });
  return found == servers.end() ? nullptr : &*found;
}

namespace {

result<mcp_config> read_mcp_document(const std::filesystem::path& file) {
  std::error_code ec;
  if (std::filesystem::status(file, ec).type() == std::filesystem::file_type::not_found) return mcp_config{};
  auto document = detail::load_yaml_file(file);  // a folder or an unreadable file is said here
  if (!document) return std::move(document).err();
  auto root = detail::map_reader::open(file.string(), *document, document->Mark(), {});
  if (!root) return std::move(root).err();
  auto config = detail::read_mcp_map(*root, detail::mcp_version_key::required);
  if (!config) return std::move(config).err();
  config->source = file;
  return config;
}

}  // namespace

result<mcp_config> read_mcp_file(const std::filesystem::path& file) {
  // yaml-cpp reports misuse by throwing; a throw that slips past the readers must not leave the module.
  try {
    return read_mcp_document(file);
  } catch (const YAML::Exception& e) {
    return detail::yaml_error(file.string(), e.mark, {}, e.msg);
  } catch (const std::exception& e) {
    return make_error(errc::internal, file.string() + ": " + e.what());
  }
}

}  // namespace parley::config

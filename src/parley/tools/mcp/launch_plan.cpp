#include "parley/tools/mcp/launch_plan.hpp"

#include <array>
#include <cstdlib>
#include <system_error>

namespace parley::tools::mcp {

namespace {

constexpr std::array<const char*, 6> kInheritedVariables = {"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"};

result<std::string> resolve_value(const config::mcp_server_config& server, const std::string& key,
                                  const config::mcp_value_source& source, const env_lookup& lookup) {
  if (!source.from_env()) return source.literal;
  auto value = lookup(source.env_name);
  if (!value) {
    return make_error(errc::config_error, "MCP server '" + server.id + "': " + key +
                                              " takes the environment variable " + source.env_name +
                                              ", which is not set in Parley's environment");
  }
  return source.prefix + *value;
}

}  // namespace

std::optional<std::string> process_env(const std::string& name) {
  const char* value = std::getenv(name.c_str());
  if (value == nullptr) return std::nullopt;
  return std::string(value);
}

result<server_launch> plan_launch(const config::mcp_server_config& server, const std::filesystem::path& workspace,
                                  const env_lookup& lookup) {
  server_launch plan;
  plan.transport = server.transport;
  plan.call_timeout = server.call_timeout;
  if (server.transport == config::mcp_transport::streamable_http) {
    plan.url = server.url;
    plan.session_id = server.session_id;
    for (const auto& header : server.headers) {
      auto value = resolve_value(server, "headers." + header.name, header.value, lookup);
      if (!value) return std::move(value).err();
      plan.headers.emplace_back(header.name, std::move(*value));
    }
    return plan;
  }
  plan.argv.push_back(server.command);
  plan.argv.insert(plan.argv.end(), server.args.begin(), server.args.end());
  plan.cwd = server.cwd.empty() ? workspace : server.cwd.is_absolute() ? server.cwd : workspace / server.cwd;
  std::error_code ec;
  if (!std::filesystem::is_directory(plan.cwd, ec)) {
    return make_error(errc::config_error,
                      "MCP server '" + server.id + "': cwd " + plan.cwd.string() + " is not a folder");
  }
  auto set = [&plan](const std::string& name, const std::string& value) {
    const std::string prefix = name + "=";
    std::erase_if(plan.env, [&](const std::string& entry) { return entry.starts_with(prefix); });
    plan.env.push_back(prefix + value);
  };
  for (const char* name : kInheritedVariables) {
    auto value = lookup(name);
    if (value && !value->starts_with("()")) set(name, *value);
  }
  for (const auto& variable : server.env) {
    auto value = resolve_value(server, "env." + variable.name, variable.value, lookup);
    if (!value) return std::move(value).err();
    set(variable.name, *value);
  }
  return plan;
}

}  // namespace parley::tools::mcp

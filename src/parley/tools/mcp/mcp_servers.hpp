// The MCP servers of one team (its `.minds/mcp.yaml`, or the team file's `mcp:`), owned by the
// engine: one server_runtime per configured server (a stdio server: one per sandbox profile its
// members have, see docs/mcp.md "Access rules"), and the tools each one offers as a catalog
// (tool_catalog.hpp). A member's `toolsets:` entry naming a server gives it that catalog.
//
// A server's tools are known only once it has started, and servers start lazily: before a model
// call, the engine awaits prepare() for the member's servers, which starts them (in parallel, each
// within its start_timeout), lists their tools when the list is new or changed, and rebuilds their
// catalogs in configuration order. A server that cannot start or list is left out of that round:
// the member is not offered its tools, and the problem is logged once (and named to the model if it
// calls one of them). Tool names are claimed first come: a name a built-in or dialog tool has, or
// that a server's catalog built earlier has, is refused to the later one with a notice naming both.
//
// Destroying the pool stops every server's process. Runs on the engine's executor.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "parley/config/mcp_config.hpp"
#include "parley/tools/mcp/server_runtime.hpp"
#include "parley/tools/mcp/tool_catalog.hpp"

namespace parley::tools::mcp {

struct pool_settings {
  std::filesystem::path workspace;
  transport_factory make = make_transport;
  env_lookup env = process_env;
  log_sink log;  // empty: log_to_stderr
  // Names no server may give a tool (the built-in and dialog tools): who has it, or "".
  name_holder reserved;
};

class mcp_servers {
 public:
  mcp_servers(boost::asio::any_io_executor executor, const config::mcp_config& config, pool_settings settings);
  ~mcp_servers();
  mcp_servers(const mcp_servers&) = delete;
  mcp_servers& operator=(const mcp_servers&) = delete;

  // The servers that run (configured, valid and enabled), in configuration order.
  std::vector<std::string> ids() const;
  bool has(std::string_view id) const { return find(id, {}) != nullptr; }
  // The process outside any sandbox (or the HTTP connection) of `id`.
  std::shared_ptr<server_runtime> runtime(std::string_view id) const;
  // The runtime a member of `profile` uses: for a stdio server, the process of that profile
  // (made now, not started, when it is the first use); for an HTTP server, its one connection.
  std::shared_ptr<server_runtime> runtime_for(std::string_view id, const sandbox_profile& profile);

  // Starts the servers named (those not configured are skipped) for members of `profile` and
  // brings their catalogs up to date with what they list.
  boost::asio::awaitable<void> prepare(std::vector<std::string> ids, sandbox_profile profile);
  // For members outside a sandbox. Not a default argument: g++ 12 destroys a coroutine's
  // defaulted argument twice.
  boost::asio::awaitable<void> prepare(std::vector<std::string> ids) { return prepare(std::move(ids), {}); }
  // The tools the named servers offer members of the profile keyed `profile` now (their catalogs
  // as prepare left them).
  std::vector<tool_spec> tool_specs(const std::vector<std::string>& ids, std::string_view profile = {}) const;
  std::shared_ptr<tools::tool> find_tool(const std::vector<std::string>& ids, std::string_view name,
                                         std::string_view profile = {}) const;
  // Why the named servers offer no tools now, when one of them cannot serve ("" when all can).
  std::string problems(const std::vector<std::string>& ids, std::string_view profile = {}) const;
  // Changes whenever a catalog does: what the engine built from tool_specs is stale.
  std::uint64_t version() const noexcept { return version_; }

  // Ends every server's process; a later use starts them again. For a command that ends, so
  // that nothing keeps its event loop running.
  void stop_all(const std::string& why);
  // A new configuration (`.minds/mcp.yaml` changed): servers whose entry is unchanged keep their
  // process, the others are stopped and replaced (or removed).
  void replace(const config::mcp_config& config);

 private:
  struct server_entry {
    std::shared_ptr<server_runtime> runtime;
    tool_catalog catalog;
    std::shared_ptr<const std::vector<tool_info>> built_from;  // the list the catalog was built from
    bool down_reported = false;
    std::string profile;  // the sandbox profile's key: "" outside a sandbox, and for every HTTP server
  };
  // The entry of `id` for members of `profile` (an HTTP server has one entry, whatever the profile).
  server_entry* find(std::string_view id, std::string_view profile);
  const server_entry* find(std::string_view id, std::string_view profile) const;
  server_entry* entry_for(std::string_view id, const sandbox_profile& profile);
  std::shared_ptr<server_runtime> make_runtime(const config::mcp_server_config& server,
                                               const launch_wrapper& wrap = {}) const;
  // Who has `name` other than `self`: a reserved name's holder, or another server's catalog.
  std::string holder_of(const std::string& name, const server_entry& self) const;
  void rebuild(server_entry& entry, std::shared_ptr<const std::vector<tool_info>> listed);
  void drop_catalog(server_entry& entry);
  void log(const std::string& line) const;

  boost::asio::any_io_executor executor_;
  pool_settings settings_;
  std::vector<server_entry> servers_;
  std::uint64_t version_ = 0;
};

// Whether two entries describe the same server (every key but where they were written).
bool same_server(const config::mcp_server_config& a, const config::mcp_server_config& b);

}  // namespace parley::tools::mcp

#include "parley/tools/mcp/mcp_servers.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>
#include <optional>
#include <utility>

namespace parley::tools::mcp {

namespace asio = boost::asio;

namespace {

using listed_tools = result<std::shared_ptr<const std::vector<tool_info>>>;

// Lists of several servers asked for at once, and whoever waits for all of them.
struct listing_join {
  explicit listing_join(const asio::any_io_executor& executor, std::size_t count) : wake(executor), results(count) {
    wake.expires_at(asio::steady_timer::time_point::max());
  }
  asio::steady_timer wake;
  std::vector<std::optional<listed_tools>> results;
  std::size_t left = 0;
};

asio::awaitable<void> list_into(std::shared_ptr<server_runtime> server, std::shared_ptr<listing_join> join,
                                std::size_t index) {
  join->results[index] = co_await server->tools();
  if (--join->left == 0) join->wake.cancel();
}

bool same_values(const std::vector<config::mcp_named_value>& a, const std::vector<config::mcp_named_value>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const auto& x, const auto& y) {
    return x.name == y.name && x.value.literal == y.value.literal && x.value.env_name == y.value.env_name &&
           x.value.prefix == y.value.prefix;
  });
}

bool same_transforms(const std::vector<config::mcp_name_transform>& a,
                     const std::vector<config::mcp_name_transform>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const auto& x, const auto& y) {
    return x.what == y.what && x.remove == y.remove && x.add == y.add;
  });
}

bool same_filter(const config::mcp_name_filter& a, const config::mcp_name_filter& b) {
  if (a.whitelist != b.whitelist || a.blacklist != b.blacklist) return false;
  if (a.transform.has_value() != b.transform.has_value()) return false;
  return !a.transform || same_transforms(*a.transform, *b.transform);
}

}  // namespace

bool same_server(const config::mcp_server_config& a, const config::mcp_server_config& b) {
  return a.id == b.id && a.enabled == b.enabled && a.truely_stateless == b.truely_stateless &&
         a.transport == b.transport && a.command == b.command && a.args == b.args && a.cwd == b.cwd &&
         same_values(a.env, b.env) && a.url == b.url && same_values(a.headers, b.headers) &&
         a.session_id == b.session_id && same_filter(a.tools, b.tools) && same_filter(a.prompts, b.prompts) &&
         same_filter(a.resources, b.resources) && same_transforms(a.transform, b.transform) &&
         a.resource_mime_types == b.resource_mime_types && a.resource_max_bytes == b.resource_max_bytes &&
         a.resource_skills.enabled == b.resource_skills.enabled &&
         same_filter(a.resource_skills.filter, b.resource_skills.filter) && a.manual == b.manual &&
         a.manual_content_file == b.manual_content_file && a.start_timeout == b.start_timeout &&
         a.call_timeout == b.call_timeout && a.max_result_bytes == b.max_result_bytes;
}

mcp_servers::mcp_servers(asio::any_io_executor executor, const config::mcp_config& config, pool_settings settings)
    : executor_(std::move(executor)), settings_(std::move(settings)) {
  for (const auto& server : config.servers) servers_.push_back(server_entry{make_runtime(server), {}, nullptr});
}

mcp_servers::~mcp_servers() { stop_all("Parley stopped the MCP servers"); }

std::shared_ptr<server_runtime> mcp_servers::make_runtime(const config::mcp_server_config& server,
                                                          const launch_wrapper& wrap) const {
  runtime_settings settings{settings_.workspace, settings_.make, settings_.env, settings_.log};
  settings.wrap = wrap;
  return server_runtime::create(executor_, server, std::move(settings));
}

void mcp_servers::log(const std::string& line) const {
  if (settings_.log) {
    settings_.log(line);
  } else {
    log_to_stderr(line);
  }
}

std::vector<std::string> mcp_servers::ids() const {
  std::vector<std::string> out;
  for (const auto& entry : servers_) {
    if (entry.profile.empty()) out.push_back(entry.runtime->id());
  }
  return out;
}

namespace {

// Only a stdio server's process runs under a member's sandbox: an HTTP server runs elsewhere, and
// every member shares its one connection.
std::string_view pool_profile_of(const config::mcp_server_config& server, std::string_view profile) {
  return server.transport == config::mcp_transport::stdio ? profile : std::string_view{};
}

}  // namespace

mcp_servers::server_entry* mcp_servers::find(std::string_view id, std::string_view profile) {
  return const_cast<server_entry*>(std::as_const(*this).find(id, profile));
}

const mcp_servers::server_entry* mcp_servers::find(std::string_view id, std::string_view profile) const {
  const server_entry* base = nullptr;
  for (const auto& entry : servers_) {
    if (entry.runtime->id() == id && entry.profile.empty()) base = &entry;
  }
  if (base == nullptr) return nullptr;
  const auto wanted = pool_profile_of(base->runtime->config(), profile);
  if (wanted.empty()) return base;
  for (const auto& entry : servers_) {
    if (entry.runtime->id() == id && entry.profile == wanted) return &entry;
  }
  return nullptr;
}

mcp_servers::server_entry* mcp_servers::entry_for(std::string_view id, const sandbox_profile& profile) {
  if (auto* found = find(id, profile.key)) return found;
  const auto* base = find(id, {});
  if (base == nullptr) return nullptr;
  // The same configuration, its process under the profile's sandbox; made in this profile's first
  // use, started by the first request like every server.
  const auto config = base->runtime->config();
  servers_.push_back(server_entry{make_runtime(config, profile.wrap), {}, nullptr, false, profile.key});
  return &servers_.back();
}

std::shared_ptr<server_runtime> mcp_servers::runtime(std::string_view id) const {
  const auto* entry = find(id, {});
  return entry == nullptr ? nullptr : entry->runtime;
}

std::shared_ptr<server_runtime> mcp_servers::runtime_for(std::string_view id, const sandbox_profile& profile) {
  auto* entry = entry_for(id, profile);
  return entry == nullptr ? nullptr : entry->runtime;
}

asio::awaitable<void> mcp_servers::prepare(std::vector<std::string> ids, sandbox_profile profile) {
  std::erase_if(ids, [this](const std::string& id) { return !has(id); });
  for (const auto& id : ids) entry_for(id, profile);
  // Most rounds: every server runs and its catalog was built from the list it serves now. Nothing
  // to start, list or rebuild, so nothing to spawn or await (a coroutine and a timer a server).
  const bool current = std::all_of(ids.begin(), ids.end(), [this, &profile](const std::string& id) {
    const auto* entry = find(id, profile.key);
    const auto now = entry->runtime->current_tools();
    return now != nullptr && now == entry->built_from;
  });
  if (current) co_return;
  auto join = std::make_shared<listing_join>(executor_, ids.size());
  join->left = ids.size();
  std::vector<std::shared_ptr<server_runtime>> asked;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    asked.push_back(find(ids[i], profile.key)->runtime);
    asio::co_spawn(executor_, list_into(asked.back(), join, i), asio::detached);
  }
  boost::system::error_code ec;
  if (join->left > 0) co_await join->wake.async_wait(asio::redirect_error(asio::use_awaitable, ec));
  // In configuration order, so that which server keeps a contested name does not depend on which
  // answered first.
  for (auto& entry : servers_) {
    const auto at = std::find(asked.begin(), asked.end(), entry.runtime);  // not one a reload replaced since
    if (at == asked.end()) continue;
    auto& listed = *join->results[static_cast<std::size_t>(at - asked.begin())];
    if (!listed) {
      if (!entry.down_reported)
        log("server '" + entry.runtime->id() + "' offers no tools now: " + listed.err().message);
      entry.down_reported = true;
      drop_catalog(entry);
      continue;
    }
    entry.down_reported = false;
    if (*listed != entry.built_from) rebuild(entry, std::move(*listed));
  }
}

std::string mcp_servers::holder_of(const std::string& name, const server_entry& self) const {
  if (settings_.reserved) {
    if (std::string holder = settings_.reserved(name); !holder.empty()) return holder;
  }
  for (const auto& other : servers_) {
    // The same server for members of another profile, or a catalog no member of this profile sees.
    if (&other == &self || other.runtime->id() == self.runtime->id()) continue;
    if (!other.profile.empty() && other.profile != self.profile) continue;
    for (const auto& tool : other.catalog.tools) {
      if (tool->spec().name == name) return "a tool of MCP server '" + other.runtime->id() + "'";
    }
  }
  return {};
}

void mcp_servers::rebuild(server_entry& entry, std::shared_ptr<const std::vector<tool_info>> listed) {
  auto catalog = build_tool_catalog(entry.runtime, *listed,
                                    [this, &entry](const std::string& name) { return holder_of(name, entry); });
  for (const auto& notice : catalog.notices) log(notice);
  entry.catalog = std::move(catalog);
  entry.built_from = std::move(listed);
  ++version_;
}

void mcp_servers::drop_catalog(server_entry& entry) {
  if (entry.catalog.tools.empty() && !entry.built_from) return;
  entry.catalog = {};
  entry.built_from = nullptr;
  ++version_;
}

std::vector<tool_spec> mcp_servers::tool_specs(const std::vector<std::string>& ids, std::string_view profile) const {
  std::vector<tool_spec> out;
  for (const auto& id : ids) {
    if (const auto* entry = find(id, profile)) {
      for (const auto& tool : entry->catalog.tools) out.push_back(tool->spec());
    }
  }
  return out;
}

std::shared_ptr<tools::tool> mcp_servers::find_tool(const std::vector<std::string>& ids, std::string_view name,
                                                    std::string_view profile) const {
  for (const auto& id : ids) {
    const auto* entry = find(id, profile);
    if (entry == nullptr) continue;
    for (const auto& tool : entry->catalog.tools) {
      if (tool->spec().name == name) return tool;
    }
  }
  return nullptr;
}

std::string mcp_servers::problems(const std::vector<std::string>& ids, std::string_view profile) const {
  std::string out;
  for (const auto& id : ids) {
    const auto* entry = find(id, profile);
    if (entry == nullptr) continue;
    if (std::string problem = entry->runtime->problem(); !problem.empty()) out += (out.empty() ? "" : "; ") + problem;
  }
  return out;
}

void mcp_servers::stop_all(const std::string& why) {
  for (auto& entry : servers_) entry.runtime->stop(why);
}

void mcp_servers::replace(const config::mcp_config& config) {
  std::vector<server_entry> next;
  for (const auto& server : config.servers) {
    const auto* current = find(server.id, {});
    if (current != nullptr && same_server(current->runtime->config(), server)) {
      // The same runtimes and catalogs, for every profile.
      for (const auto& entry : servers_) {
        if (entry.runtime->id() == server.id) next.push_back(entry);
      }
      continue;
    }
    if (current != nullptr) {
      log("server '" + server.id + "' changed in " + config.source.string() + "; it is started again at the next use");
    } else {
      log("server '" + server.id + "' was added in " + config.source.string());
    }
    next.push_back(server_entry{make_runtime(server), {}, nullptr});
  }
  for (auto& entry : servers_) {
    const bool kept =
        std::any_of(next.begin(), next.end(), [&](const server_entry& e) { return e.runtime == entry.runtime; });
    if (kept) continue;
    const bool replaced = std::any_of(next.begin(), next.end(),
                                      [&](const server_entry& e) { return e.runtime->id() == entry.runtime->id(); });
    entry.runtime->stop("MCP server '" + entry.runtime->id() + "' was " +
                        (replaced ? "reconfigured" : "removed from the configuration"));
    if (!replaced && entry.profile.empty())
      log("server '" + entry.runtime->id() + "' was removed from " + config.source.string());
  }
  servers_ = std::move(next);
  ++version_;
}

}  // namespace parley::tools::mcp

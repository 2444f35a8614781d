#include "parley/server/mcp_endpoint.hpp"

#include "parley/server/auth.hpp"

namespace parley::server {

mcp_endpoint::mcp_endpoint(mcp_settings settings, std::size_t max_sessions)
    : settings_(std::move(settings)), max_sessions_(max_sessions) {}

std::shared_ptr<mcp_session> mcp_endpoint::make(server_context& context, const user& who) const {
  return std::make_shared<mcp_session>(context, who, settings_);
}

bool mcp_endpoint::make_room() {
  if (sessions_.size() < max_sessions_) return true;
  auto oldest = sessions_.end();
  for (auto it = sessions_.begin(); it != sessions_.end(); ++it) {
    if (it->second.session->requests_in_flight() > 0) continue;
    if (oldest == sessions_.end() || it->second.last_used < oldest->second.last_used) oldest = it;
  }
  if (oldest == sessions_.end()) return false;
  oldest->second.session->close();
  sessions_.erase(oldest);
  return true;
}

std::string mcp_endpoint::add(std::shared_ptr<mcp_session> session) {
  if (!make_room()) return {};
  std::string id = generate_token();
  sessions_.emplace(id, entry{std::move(session), ++clock_});
  return id;
}

std::shared_ptr<mcp_session> mcp_endpoint::find(std::string_view id, const user& who) {
  const auto found = sessions_.find(id);
  if (found == sessions_.end() || found->second.session->who().id != who.id) return nullptr;
  found->second.last_used = ++clock_;
  return found->second.session;
}

bool mcp_endpoint::end(std::string_view id, const user& who) {
  const auto found = sessions_.find(id);
  if (found == sessions_.end() || found->second.session->who().id != who.id) return false;
  const auto session = found->second.session;
  sessions_.erase(found);
  session->close();
  return true;
}

void mcp_endpoint::end_all() {
  auto ended = std::exchange(sessions_, {});
  for (auto& [id, held] : ended) held.session->close();
}

}  // namespace parley::server

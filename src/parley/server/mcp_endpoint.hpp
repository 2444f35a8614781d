// The sessions of `parley serve --mcp`'s streamable HTTP endpoint (mcp_http.hpp): each begins with
// an initialize whose response carries its `Mcp-Session-Id` (32 hex digits from the system's
// CSPRNG), belongs to the user whose token made it — another user's id is as unknown as a made-up
// one — and ends with DELETE or when the server stops. Bounded: past max_sessions, the session
// used least recently that has no request in flight is ended to make room.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "parley/server/mcp_session.hpp"

namespace parley::server {

class mcp_endpoint {
 public:
  explicit mcp_endpoint(mcp_settings settings, std::size_t max_sessions = 1024);
  mcp_endpoint(const mcp_endpoint&) = delete;
  mcp_endpoint& operator=(const mcp_endpoint&) = delete;

  const mcp_settings& settings() const noexcept { return settings_; }

  // A session for `who`, not yet listed: list it with add() once its initialize succeeded.
  std::shared_ptr<mcp_session> make(server_context& context, const user& who) const;
  // Lists the session under a new id, which it returns; empty when every session is busy.
  std::string add(std::shared_ptr<mcp_session> session);
  // The session `id` of `who`; null when there is none.
  std::shared_ptr<mcp_session> find(std::string_view id, const user& who);
  // Ends the session `id` of `who` (its waiting requests stop); false when there is none.
  bool end(std::string_view id, const user& who);
  // Ends every session: the server stops.
  void end_all();
  std::size_t size() const noexcept { return sessions_.size(); }

 private:
  struct entry {
    std::shared_ptr<mcp_session> session;
    std::uint64_t last_used = 0;
  };
  bool make_room();

  mcp_settings settings_;
  std::size_t max_sessions_;
  std::map<std::string, entry, std::less<>> sessions_;
  std::uint64_t clock_ = 0;
};

}  // namespace parley::server

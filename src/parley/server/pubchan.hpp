// PubChan: turns what the engine reports into wire events (docs/server.md), numbers them per
// dialog, keeps a replay window per dialog and fans them out to subscribed WebSocket sessions.
// Lives on the engine's executor.
#pragma once

#include <cstddef>

#include "parley/engine/observer.hpp"

namespace parley::server {

class pubchan : public engine::engine_observer {
 public:
  // The rest of the interface belongs to the WebSocket side (websocket_session.cpp).
  // Closes every WebSocket with code 1001 (going away): graceful shutdown.
  void close_all();
  std::size_t connection_count() const noexcept;
};

}  // namespace parley::server

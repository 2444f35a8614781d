// The listener and the per-connection HTTP sessions of `parley serve`: keep-alive, a body limit,
// and routing — `/ws` upgrades to the PubChan WebSocket, `/api/*` to the REST router, everything
// else to the web UI's static files. Runs on the engine's single-threaded executor.
#pragma once

#include <boost/asio/any_io_executor.hpp>

#include <cstdint>
#include <memory>

#include "parley/core/result.hpp"
#include "parley/server/server_context.hpp"

namespace parley::server {

class http_server {
 public:
  // Binds options.host:options.port (port 0: a free one) and listens; accepting starts with start().
  static result<std::unique_ptr<http_server>> listen(boost::asio::any_io_executor executor, server_context& context);
  ~http_server();
  http_server(const http_server&) = delete;
  http_server& operator=(const http_server&) = delete;

  // The port actually bound (the one chosen when the options asked for 0).
  std::uint16_t port() const noexcept;
  void start();
  // Graceful shutdown: stop accepting and close idle connections. A request being handled still
  // gets its response; its connection closes after it.
  void stop();

  struct state;  // the listener and the live sessions, shared with the session coroutines
  explicit http_server(std::shared_ptr<state> shared);  // use listen()

 private:
  std::shared_ptr<state> state_;
};

}  // namespace parley::server

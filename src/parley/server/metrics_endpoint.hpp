// `GET /metrics` (Prometheus' text format, every name prefixed `parley_`) and the load balancers'
// `GET /healthz` and `GET /readyz` (docs/server.md, "Metrics and health").
#pragma once

#include <boost/asio/awaitable.hpp>

#include <cstddef>
#include <string>

#include "parley/server/server_context.hpp"

namespace parley::server {

// What only the HTTP server knows, sampled when the scrape comes.
struct http_figures {
  std::size_t connections = 0;
};

// The whole exposition. Never fails: a store that cannot be read is reported in the text
// (`parley_store_healthy 0`) and the figures that need it are left out.
boost::asio::awaitable<std::string> render_metrics(server_context& context, http_figures http);

// How far the projections may trail the log while the server still calls itself ready.
inline constexpr std::int64_t kReadyProjectionLag = 10'000;

struct readiness {
  bool ready = true;
  std::string problem;  // why not, when not
};
readiness check_readiness(server_context& context);

}  // namespace parley::server

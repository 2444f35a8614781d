// Internal: opens a connection to a target, directly or through a proxy (CONNECT tunnel for TLS),
// and performs the TLS handshake with SNI and hostname verification.
#pragma once

#include <boost/asio/awaitable.hpp>

#include <memory>
#include <optional>
#include <string>

#include "parley/http/client.hpp"
#include "parley/http/detail/cancel_guard.hpp"
#include "parley/http/detail/connection.hpp"
#include "parley/http/proxy.hpp"
#include "parley/http/url.hpp"

namespace parley::http::detail {

struct connect_params {
  const url_parts& target;
  const std::optional<proxy_endpoint>& proxy;
  const http::timeouts& limits;
  asio::ssl::context* tls_context = nullptr;  // set for https targets
  bool verify_tls = true;
};

asio::awaitable<result<std::unique_ptr<connection>>> open_connection(const connect_params& params, std::string pool_key,
                                                                     cancel_guard& guard);

}  // namespace parley::http::detail

// Internal: one request/response exchange on an open connection — write the request, read the
// head, then the body whole or piece by piece, each wait bounded by its timeout.
#pragma once

#include <boost/asio/awaitable.hpp>

#include <string>

#include "parley/http/client.hpp"
#include "parley/http/detail/cancel_guard.hpp"
#include "parley/http/detail/connection.hpp"
#include "parley/http/url.hpp"

namespace parley::http::detail {

struct exchange_params {
  const http::request& req;
  const url_parts& target;
  const client_options& options;
  bool absolute_target = false;            // through a plain HTTP proxy
  std::string proxy_authorization;         // sent only with absolute targets
  const body_callback* on_body = nullptr;  // null: read the body whole
  const head_callback* on_head = nullptr;  // null: none; called only for a streamed body
};

struct exchange_state {
  bool stale = false;     // failed before any response byte: a reused connection the server had closed
  bool reusable = false;  // the response was read to its end and the server keeps the connection
};

asio::awaitable<result<response>> exchange(connection& conn, const exchange_params& params, exchange_state& state,
                                           cancel_guard& guard);

}  // namespace parley::http::detail

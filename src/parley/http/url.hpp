// Splits an absolute http:// or https:// URL into what a connection needs: where to connect,
// what to send as Host, and the request target.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "parley/core/result.hpp"

namespace parley::http {

struct url_parts {
  bool tls = false;
  std::string host;  // as resolved and verified: no IPv6 brackets, lower case
  std::uint16_t port = 0;
  std::string authority;  // the Host header: host, in brackets if IPv6, with :port unless default
  std::string target;     // origin-form request target: path and query, at least "/"

  // The absolute form a plain HTTP proxy expects as request target.
  std::string absolute() const { return (tls ? "https://" : "http://") + authority + target; }
};

// errc::invalid_argument naming the URL and what is wrong with it.
result<url_parts> parse_url(std::string_view url);

}  // namespace parley::http

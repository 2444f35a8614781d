// Which proxy, if any, a request goes through: HTTP_PROXY / HTTPS_PROXY / NO_PROXY semantics as
// curl reads them (lower-case names win). Only plain-HTTP proxies are supported: http:// targets
// are sent to them in absolute form, https:// targets are tunnelled with CONNECT.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "parley/core/result.hpp"
#include "parley/http/url.hpp"

namespace parley::http {

struct proxy_settings {
  std::string http_proxy;   // proxy URL for http:// targets; empty = direct
  std::string https_proxy;  // proxy URL for https:// targets; empty = direct
  std::string no_proxy;     // comma-separated hosts or domain suffixes that go direct; "*" = all

  static proxy_settings from_environment();
};

struct proxy_endpoint {
  std::string host;
  std::uint16_t port = 0;
  std::string authorization;  // Proxy-Authorization value from the proxy URL's user info, or empty
};

// nullopt when `target` goes direct; an error when the configured proxy URL is unusable.
result<std::optional<proxy_endpoint>> proxy_for(const proxy_settings& settings, const url_parts& target);

// True when `host` matches an entry of a NO_PROXY list.
bool bypasses_proxy(std::string_view no_proxy, std::string_view host);

}  // namespace parley::http

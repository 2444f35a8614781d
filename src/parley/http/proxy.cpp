#include "parley/http/proxy.hpp"

#include <boost/url/parse.hpp>
#include <boost/url/url_view.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>

#include "parley/core/base64.hpp"
#include "parley/core/text.hpp"

namespace parley::http {

namespace {

std::string env_or_empty(const char* lower_name, const char* upper_name) {
  for (const char* name : {lower_name, upper_name}) {
    if (const char* value = std::getenv(name); value != nullptr && *value != '\0') return value;
  }
  return {};
}

result<proxy_endpoint> parse_proxy(std::string_view proxy_url) {
  std::string text(trim(proxy_url));
  // curl accepts "host:port" without a scheme and means plain HTTP.
  if (text.find("://") == std::string::npos) text = "http://" + text;
  auto parsed = boost::urls::parse_uri(text);
  if (!parsed) return make_error(errc::config_error, "invalid proxy URL '" + text + "'");
  if (!iequals_ascii(parsed->scheme(), "http")) {
    return make_error(errc::config_error, "unsupported proxy URL '" + text + "': only http:// proxies are supported");
  }
  proxy_endpoint endpoint;
  endpoint.host = parsed->host_type() == boost::urls::host_type::ipv6 ? std::string(parsed->host_address())
                                                                      : std::string(parsed->host());
  if (endpoint.host.empty()) return make_error(errc::config_error, "proxy URL '" + text + "' has no host");
  endpoint.port = parsed->has_port() ? parsed->port_number() : 80;
  if (endpoint.port == 0) return make_error(errc::config_error, "proxy URL '" + text + "' has a bad port");
  if (parsed->has_userinfo()) {
    endpoint.authorization =
        "Basic " + base64_encode(std::string(parsed->user()) + ":" + std::string(parsed->password()));
  }
  return endpoint;
}

}  // namespace

proxy_settings proxy_settings::from_environment() {
  return proxy_settings{env_or_empty("http_proxy", "HTTP_PROXY"), env_or_empty("https_proxy", "HTTPS_PROXY"),
                        env_or_empty("no_proxy", "NO_PROXY")};
}

bool bypasses_proxy(std::string_view no_proxy, std::string_view host) {
  while (!no_proxy.empty()) {
    const auto comma = no_proxy.find(',');
    std::string_view entry = trim(no_proxy.substr(0, comma));
    no_proxy = comma == std::string_view::npos ? std::string_view{} : no_proxy.substr(comma + 1);
    if (entry == "*") return true;
    // A port in the entry is ignored, as curl does; bracketed IPv6 entries keep their colons.
    if (!entry.empty() && entry.front() == '[') {
      entry = entry.substr(1, entry.find(']') - 1);
    } else if (const auto colon = entry.rfind(':'); colon != std::string_view::npos && entry.find(':') == colon) {
      entry = entry.substr(0, colon);
    }
    if (!entry.empty() && entry.front() == '.') entry.remove_prefix(1);
    if (entry.empty()) continue;
    if (iequals_ascii(host, entry)) return true;
    if (host.size() > entry.size() && host[host.size() - entry.size() - 1] == '.' &&
        iequals_ascii(host.substr(host.size() - entry.size()), entry)) {
      return true;
    }
  }
  return false;
}

result<std::optional<proxy_endpoint>> proxy_for(const proxy_settings& settings, const url_parts& target) {
  const std::string& proxy_url = target.tls ? settings.https_proxy : settings.http_proxy;
  if (trim(proxy_url).empty() || bypasses_proxy(settings.no_proxy, target.host)) {
    return std::optional<proxy_endpoint>{};
  }
  auto endpoint = parse_proxy(proxy_url);
  if (!endpoint) return std::move(endpoint).err();
  return std::optional<proxy_endpoint>(std::move(*endpoint));
}

}  // namespace parley::http

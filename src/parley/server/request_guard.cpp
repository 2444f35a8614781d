#include "parley/server/request_guard.hpp"
#include "parley/core/text.hpp"

#include <boost/asio/ip/address.hpp>

#include <cctype>

namespace parley::server {
namespace {

namespace ip = boost::asio::ip;

// Echoed header values are cut short and stripped of control characters: the message is one line.
std::string quoted_value(std::string_view value) {
  constexpr std::size_t kMaxEchoed = 200;
  std::string out = "'";
  for (const char c : value.substr(0, kMaxEchoed)) out.push_back(std::iscntrl(static_cast<unsigned char>(c)) ? '?' : c);
  if (value.size() > kMaxEchoed) out += "...";
  return out + "'";
}

bool is_name_character(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '.' || c == '_';
}

// "8080" → 8080; nothing for an empty, non-digit or too large port.
std::optional<std::uint16_t> parse_port(std::string_view digits) {
  if (digits.empty() || digits.size() > 5) return std::nullopt;
  unsigned value = 0;
  for (const char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + static_cast<unsigned>(c - '0');
  }
  if (value > 65535) return std::nullopt;
  return static_cast<std::uint16_t>(value);
}

// A host without a port: "[v6]", an IPv4 address or a DNS name, in the guard's canonical form.
std::optional<std::string> canonical_host(std::string_view host) {
  boost::system::error_code ec;
  if (!host.empty() && host.front() == '[') {
    if (host.size() < 3 || host.back() != ']') return std::nullopt;
    const auto v6 = ip::make_address_v6(std::string(host.substr(1, host.size() - 2)), ec);
    if (ec) return std::nullopt;
    return "[" + v6.to_string() + "]";
  }
  if (host.empty()) return std::nullopt;
  for (const char c : host) {
    if (!is_name_character(c)) return std::nullopt;
  }
  const auto v4 = ip::make_address_v4(std::string(host), ec);
  if (!ec) return v4.to_string();
  return ascii_lowercase(host);
}

bool is_address_literal(std::string_view canonical) {
  if (!canonical.empty() && canonical.front() == '[') return true;
  boost::system::error_code ec;
  (void)ip::make_address_v4(std::string(canonical), ec);
  return !ec;
}

// "http://host:port" → scheme and authority; nothing for anything else ("null", a path, ftp:).
struct parsed_origin {
  std::string scheme;  // "http" | "https"
  host_and_port authority;
};

std::optional<parsed_origin> parse_origin(std::string_view origin) {
  const auto separator = origin.find("://");
  if (separator == std::string_view::npos) return std::nullopt;
  auto scheme = ascii_lowercase(origin.substr(0, separator));
  if (scheme != "http" && scheme != "https") return std::nullopt;
  auto authority = parse_host_header(origin.substr(separator + 3));
  if (!authority) return std::nullopt;
  return parsed_origin{std::move(scheme), std::move(*authority)};
}

std::uint16_t default_port(std::string_view scheme) { return scheme == "https" ? 443 : 80; }

// The Origin names the place the request was sent to: same host, same port (a port left out
// is the scheme's default on both sides). Behind a port forward the browser's Host keeps the
// outer port, so comparing with Host rather than the port we listen on is what works there.
bool same_origin(const parsed_origin& origin, const host_and_port& host) {
  const auto scheme_port = default_port(origin.scheme);
  return origin.authority.host == host.host &&
         origin.authority.port.value_or(scheme_port) == host.port.value_or(scheme_port);
}

bool changes_state(const guarded_request& request) {
  if (request.websocket_upgrade) return true;
  return request.method != "GET" && request.method != "HEAD" && request.method != "OPTIONS";
}

guard_refusal refuse(unsigned status, std::string code, std::string message) {
  return guard_refusal{status, std::move(code), std::move(message)};
}

}  // namespace

std::optional<host_and_port> parse_host_header(std::string_view text) {
  std::string_view host = text;
  std::string_view port;
  bool has_port = false;
  if (!text.empty() && text.front() == '[') {
    const auto close = text.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    host = text.substr(0, close + 1);
    const auto rest = text.substr(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':') return std::nullopt;
      port = rest.substr(1);
      has_port = true;
    }
  } else if (const auto colon = text.find(':'); colon != std::string_view::npos) {
    host = text.substr(0, colon);
    port = text.substr(colon + 1);  // a second ':' (an unbracketed IPv6 address) fails parse_port
    has_port = true;
  }
  auto canonical = canonical_host(host);
  if (!canonical) return std::nullopt;
  host_and_port out{std::move(*canonical), std::nullopt};
  if (has_port) {
    out.port = parse_port(port);
    if (!out.port) return std::nullopt;
  }
  return out;
}

result<std::string> normalize_host_name(std::string_view name, std::string_view flag) {
  std::string bracketed(name);
  // An IPv6 address is given bare on the command line (--host ::1); Host headers bracket it.
  if (name.find(':') != std::string_view::npos && name.front() != '[') bracketed = "[" + bracketed + "]";
  auto canonical = canonical_host(bracketed);
  if (!canonical) {
    return make_error(errc::invalid_argument, std::string(flag) + ": " + quoted_value(name) +
                                                  " is not a host name or IP address (no scheme, no port)");
  }
  return std::move(*canonical);
}

request_guard::request_guard(const server_options& options) {
  for (const char* name : {"localhost", "127.0.0.1", "[::1]"}) names_.insert(name);
  if (auto bound = normalize_host_name(options.host, "--host")) {
    any_address_literal_ = *bound == "0.0.0.0" || *bound == "[::]";
    if (!any_address_literal_) names_.insert(std::move(*bound));
  }
  for (const auto& extra : options.allowed_hosts) {
    if (auto name = normalize_host_name(extra, "--allowed-host")) names_.insert(std::move(*name));
  }
  cors_origin_ = ascii_lowercase(options.cors_origin);
  while (!cors_origin_.empty() && cors_origin_.back() == '/') cors_origin_.pop_back();
}

bool request_guard::allows_host(const host_and_port& host) const {
  return names_.count(host.host) != 0 || (any_address_literal_ && is_address_literal(host.host));
}

bool request_guard::is_cors_origin(std::string_view origin) const {
  return !cors_origin_.empty() && ascii_lowercase(origin) == cors_origin_;
}

std::optional<guard_refusal> request_guard::check(const guarded_request& request) const {
  if (request.repeated_host) return refuse(400, "bad_request", "Host: more than one Host header");
  std::optional<host_and_port> host;
  if (request.host) {
    host = parse_host_header(*request.host);
    if (!host || !allows_host(*host)) {
      return refuse(403, "bad_host",
                    "Host: " + quoted_value(*request.host) +
                        " is not a name of this server (accept it with --allowed-host NAME)");
    }
  } else if (request.http_1_1) {
    return refuse(400, "bad_request", "Host: missing; HTTP/1.1 requires it");
  }
  // Reads need no more: another origin cannot read the answers (no CORS for it) and /api needs the
  // token besides. Changes must come from a page of ours, whatever credentials they carry.
  if (!changes_state(request)) return std::nullopt;
  const bool from_cors_origin = request.origin && is_cors_origin(*request.origin);
  if (request.origin && !from_cors_origin) {
    const auto origin = parse_origin(*request.origin);
    if (!origin || !host || !same_origin(*origin, *host)) {
      return refuse(403, "bad_origin",
                    "Origin: " + quoted_value(*request.origin) +
                        " is neither this server's origin nor --cors-origin; pages of other sites may not "
                        "change anything here");
    }
  }
  if (request.fetch_site == "cross-site" && !from_cors_origin) {
    return refuse(403, "bad_origin", "Sec-Fetch-Site: 'cross-site'; pages of other sites may not change anything here");
  }
  return std::nullopt;
}

}  // namespace parley::server

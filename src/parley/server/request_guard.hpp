// The checks every request passes before a handler, a static file or the WebSocket sees it. They
// keep web pages of other sites from using a server the browser can reach (loopback included):
//  - Host: only this server's own names are served, so a page whose DNS name is rebound to our
//    address (DNS rebinding) is refused instead of being treated as same-origin and read.
//  - Origin / Sec-Fetch-Site: a request that changes something (any method but GET, HEAD and
//    OPTIONS) and the WebSocket upgrade must come from this server's own origin or the
//    --cors-origin one, so another site cannot drive the team with a form or a no-cors fetch.
// Plain strings in, a refusal or nothing out; http_server.cpp reads the headers from Beast.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/server/server_options.hpp"

namespace parley::server {

// The headers and facts of one request that the guard looks at.
struct guarded_request {
  std::string_view method;                 // "GET", "POST", ...
  bool http_1_1 = true;                    // HTTP/1.1 (or later) requires a Host
  std::optional<std::string_view> host;    // the Host header; nullopt when absent
  bool repeated_host = false;              // more than one Host header
  std::optional<std::string_view> origin;  // the Origin header; nullopt when absent
  std::string_view fetch_site;             // Sec-Fetch-Site; empty when absent
  bool websocket_upgrade = false;
};

struct guard_refusal {
  unsigned status = 403;
  std::string code;     // "bad_host", "bad_origin", "bad_request"
  std::string message;  // one line naming the header and the problem
};

// A host as the guard compares hosts: lowercased; an IP address in its canonical text form, IPv6
// in brackets ("[::1]").
struct host_and_port {
  std::string host;
  std::optional<std::uint16_t> port;
};

// "Example.COM:8080" → {"example.com", 8080}; "[0:0::1]" → {"[::1]"}. Nothing when malformed: an
// empty host, a character no host name has, an IPv6 address without brackets, a bad port.
std::optional<host_and_port> parse_host_header(std::string_view text);

// A name given on the command line (--host, --allowed-host), without a port: "::1" and "[::1]"
// both become "[::1]". invalid_argument naming `flag` when it is not a host name or address.
result<std::string> normalize_host_name(std::string_view name, std::string_view flag);

class request_guard {
 public:
  // The names come from options.host (the bound address), localhost, 127.0.0.1, [::1] and
  // options.allowed_hosts; names that do not parse are left out (verb_serve checks them first).
  explicit request_guard(const server_options& options);

  // Nothing when the request may go on; else the reply to send instead.
  std::optional<guard_refusal> check(const guarded_request& request) const;

  // Whether a Host header names this server (see check()).
  bool allows_host(const host_and_port& host) const;

 private:
  bool is_cors_origin(std::string_view origin) const;

  std::set<std::string, std::less<>> names_;
  // Bound to every address (0.0.0.0, ::): any IP address is accepted as Host too. DNS rebinding
  // needs a DNS name the attacker controls, so an address literal cannot be one; DNS names must
  // still be listed with --allowed-host.
  bool any_address_literal_ = false;
  std::string cors_origin_;  // lowercased, without a trailing '/'; empty: none
};

}  // namespace parley::server

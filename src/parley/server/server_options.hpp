// What `parley serve` was told: where to listen, the token, the names it answers to, where the web
// UI lives, limits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace parley::server {

struct server_options {
  std::string host = "127.0.0.1";
  std::uint16_t port = 7878;  // 0: pick a free port
  // Every /api request and the /ws upgrade must present it. Empty: no check, for servers embedded
  // in a process (benches); `parley serve` always has one, or --users.
  std::string token;
  // The token is this process's own loopback secret (no --token, --users): the web UI's index.html
  // carries it, so a page the server itself served can use the API and nobody else's can.
  bool token_in_page = false;
  std::vector<std::string> allowed_hosts;      // --allowed-host: more names the Host header may give
  std::string web_root;                        // the built web UI (web/dist); empty: no static files
  std::string cors_origin;                     // empty: no CORS headers
  std::size_t max_body_bytes = 1 << 20;        // REST request bodies
  std::size_t max_upload_bytes = 10 << 20;     // POST /api/uploads bodies
  std::size_t max_packet_bytes = 64 << 10;     // WebSocket packets we parse
  std::size_t max_frame_bytes = 1 << 20;       // larger WebSocket messages close the socket (1009)
  std::size_t outbound_queue_packets = 1024;   // per connection
  std::size_t outbound_queue_bytes = 4 << 20;  // per connection
  std::size_t replay_window_events = 4096;     // per dialog, for resuming subscribers
  // Replay windows kept for dialogs nobody watches and that do not generate: past this, the least
  // recently used are dropped (a later subscriber gets `resync`), so memory follows the work in
  // flight rather than the number of dialogs the process has seen.
  std::size_t idle_channels_kept = 256;
  // Hierarchies whose parent dialogs PubChan remembers (to say which dialogs have children) before
  // it forgets them all and asks the store again: bounded, however many subdialogs are created.
  std::size_t hierarchies_cached = 4096;
  // HTTP connections held open at once (idle keep-alives included), in all and from one address:
  // past either, a new connection is closed as soon as it is accepted, so idle sockets cannot use
  // up the process's file descriptors.
  std::size_t max_connections = 1024;
  std::size_t max_connections_per_client = 128;
};

// True for 127.0.0.0/8, ::1 and "localhost".
bool is_loopback_host(const std::string& host);

}  // namespace parley::server

// The web UI's static files: a request target → the file to send, confined to the web root.
// Paths with `..`, encoded or not, backslashes, NULs and symlinks that lead out of the root are
// refused; unknown paths without a file extension get index.html (the UI routes in the browser).
#pragma once

#include <string>
#include <string_view>

namespace parley::server {

struct static_reply {
  unsigned status = 200;
  std::string content_type;
  std::string body;
  bool cacheable = false;  // false for index.html, which names the hashed assets of the current build
  bool app_page = false;   // index.html: where the loopback secret goes (embed_token_in_page)
};

// `target` is the raw request target (path and optional query). `web_root` empty: no UI (404).
static_reply serve_static_file(const std::string& web_root, std::string_view target);

// The page with `<meta name="parley-token" content="TOKEN">` in its head, which the web UI reads.
// Only the browser's same-origin pages can read it: another site's page gets no CORS access to it,
// and the Host check keeps a DNS-rebound name from making it same-origin.
std::string embed_token_in_page(std::string_view html, std::string_view token);

// "text/html; charset=utf-8" for "index.html", "application/octet-stream" when unknown.
std::string_view mime_type_for(std::string_view file_name);

}  // namespace parley::server

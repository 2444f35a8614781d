#include "parley/server/static_files.hpp"

#include <array>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <system_error>
#include <utility>

#include "parley/core/text.hpp"
#include "parley/http/request_target.hpp"

namespace parley::server {

namespace fs = std::filesystem;

namespace {

constexpr std::array<std::pair<std::string_view, std::string_view>, 22> kMimeTypes{{
    {".html", "text/html; charset=utf-8"},
    {".htm", "text/html; charset=utf-8"},
    {".js", "text/javascript; charset=utf-8"},
    {".mjs", "text/javascript; charset=utf-8"},
    {".css", "text/css; charset=utf-8"},
    {".json", "application/json"},
    {".map", "application/json"},
    {".webmanifest", "application/manifest+json"},
    {".svg", "image/svg+xml"},
    {".png", "image/png"},
    {".jpg", "image/jpeg"},
    {".jpeg", "image/jpeg"},
    {".gif", "image/gif"},
    {".webp", "image/webp"},
    {".ico", "image/x-icon"},
    {".woff", "font/woff"},
    {".woff2", "font/woff2"},
    {".ttf", "font/ttf"},
    {".txt", "text/plain; charset=utf-8"},
    {".md", "text/markdown; charset=utf-8"},
    {".wasm", "application/wasm"},
    {".xml", "application/xml"},
}};

static_reply plain(unsigned status, std::string text) {
  return static_reply{status, "text/plain; charset=utf-8", std::move(text) + "\n", false};
}

// True when `inner` (canonical) is `root` (canonical) or lies under it.
bool is_inside(const fs::path& root, const fs::path& inner) {
  auto root_part = root.begin();
  auto inner_part = inner.begin();
  for (; root_part != root.end(); ++root_part, ++inner_part) {
    if (inner_part == inner.end() || *root_part != *inner_part) return false;
  }
  return true;
}

std::optional<std::string> read_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

std::string_view mime_type_for(std::string_view file_name) {
  const auto dot = file_name.rfind('.');
  if (dot == std::string_view::npos) return "application/octet-stream";
  std::string extension(file_name.substr(dot));
  for (auto& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const auto& [known, type] : kMimeTypes) {
    if (known == extension) return type;
  }
  return "application/octet-stream";
}

static_reply serve_static_file(const std::string& web_root, std::string_view target) {
  if (web_root.empty()) return plain(404, "parley: no web UI here (build it in web/ or pass --web DIR)");
  // Decoded segment by segment (http/request_target.hpp); checked after decoding, so "%2e%2e" is
  // caught like "..", and a segment holding "/" or "\\" ("%2F") names no file.
  auto parsed = parley::http::parse_request_target(target);
  if (!parsed) return plain(400, "bad path");
  fs::path relative;
  for (const auto& segment : parsed->segments) {
    if (segment == ".." || segment.find_first_of("/\\") != std::string::npos) return plain(400, "bad path");
    if (segment != ".") relative /= fs::path(segment);
  }

  std::error_code ec;
  const auto root = fs::canonical(web_root, ec);
  if (ec) return plain(404, "parley: the web UI directory " + web_root + " is missing");
  fs::path wanted = root / relative;
  if (fs::is_directory(wanted, ec)) wanted /= "index.html";
  if (!fs::exists(wanted, ec)) {
    // A path without an extension is a route of the single-page app: the UI handles it.
    if (relative.has_extension()) return plain(404, "not found");
    wanted = root / "index.html";
  }
  // canonical() resolves symlinks, so a link that points out of the root is refused here.
  const auto resolved = fs::canonical(wanted, ec);
  if (ec || !is_inside(root, resolved) || !fs::is_regular_file(resolved, ec)) return plain(404, "not found");
  auto body = read_file(resolved);
  if (!body) return plain(404, "not found");
  const auto name = resolved.filename().string();
  const bool app_page = name == "index.html";
  return static_reply{200, std::string(mime_type_for(name)), std::move(*body), !app_page, app_page};
}

std::string embed_token_in_page(std::string_view html, std::string_view token) {
  std::string escaped;  // a generated token is hex; escaped anyway, it lands in an attribute
  for (const char c : token) {
    if (c == '&')
      escaped += "&amp;";
    else if (c == '"')
      escaped += "&quot;";
    else if (c == '<')
      escaped += "&lt;";
    else
      escaped.push_back(c);
  }
  const std::string meta = "<meta name=\"parley-token\" content=\"" + escaped + "\">";
  const std::string lower = ascii_lowercase(html);
  // Before </head>; a page without one gets it after the doctype (never before: that would
  // switch the browser to quirks mode), where the parser opens the head by itself.
  std::size_t at = lower.find("</head>");
  if (at == std::string::npos) {
    at = 0;
    if (lower.rfind("<!doctype", 0) == 0) {
      const auto end = lower.find('>');
      at = end == std::string::npos ? 0 : end + 1;
    }
  }
  std::string out(html.substr(0, at));
  out += meta;
  out += html.substr(at);
  return out;
}

}  // namespace parley::server

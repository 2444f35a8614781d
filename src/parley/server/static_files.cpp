#include "parley/server/static_files.hpp"

#include <array>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <system_error>
#include <utility>

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

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
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

std::string lowercase(std::string_view text) {
  std::string out(text);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::optional<std::string> read_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

bool percent_decode(std::string_view encoded, std::string& decoded, bool plus_is_space) {
  decoded.clear();
  decoded.reserve(encoded.size());
  for (std::size_t i = 0; i < encoded.size(); ++i) {
    const char c = encoded[i];
    if (c == '%') {
      if (i + 2 >= encoded.size()) return false;
      const int high = hex_value(encoded[i + 1]);
      const int low = hex_value(encoded[i + 2]);
      if (high < 0 || low < 0) return false;
      const char byte = static_cast<char>(high * 16 + low);
      if (byte == '\0') return false;
      decoded.push_back(byte);
      i += 2;
    } else if (c == '+' && plus_is_space) {
      decoded.push_back(' ');
    } else {
      decoded.push_back(c);
    }
  }
  return true;
}

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
  const auto query = target.find_first_of("?#");
  std::string path;
  if (!percent_decode(target.substr(0, query), path, false)) return plain(400, "bad path");
  if (path.empty() || path.front() != '/' || path.find('\\') != std::string::npos) return plain(400, "bad path");

  // Checked segment by segment after decoding, so "%2e%2e" is caught like "..".
  fs::path relative;
  std::string_view rest(path);
  while (!rest.empty()) {
    const auto slash = rest.find('/');
    const auto segment = rest.substr(0, slash);
    if (segment == "..") return plain(400, "bad path");
    if (!segment.empty() && segment != ".") relative /= fs::path(std::string(segment));
    if (slash == std::string_view::npos) break;
    rest.remove_prefix(slash + 1);
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
  const std::string lower = lowercase(html);
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

#include "parley/http/url.hpp"
#include "parley/core/text.hpp"

#include <boost/url/parse.hpp>
#include <boost/url/url_view.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>

namespace parley::http {

namespace {

error bad_url(std::string_view url, std::string_view why) {
  return make_error(errc::invalid_argument, "invalid URL '" + std::string(url) + "': " + std::string(why));
}

}  // namespace

result<url_parts> parse_url(std::string_view url) {
  auto parsed = boost::urls::parse_uri(url);
  if (!parsed) return bad_url(url, parsed.error().message());
  const boost::urls::url_view& view = *parsed;

  url_parts parts;
  const std::string scheme = ascii_lowercase(std::string(view.scheme()));
  if (scheme != "http" && scheme != "https") return bad_url(url, "scheme must be http or https");
  parts.tls = scheme == "https";

  if (view.host_type() == boost::urls::host_type::ipv6) {
    parts.host = ascii_lowercase(std::string(view.host_address()));
    parts.authority = "[" + parts.host + "]";
  } else {
    parts.host = ascii_lowercase(std::string(view.host()));
    parts.authority = parts.host;
  }
  if (parts.host.empty()) return bad_url(url, "no host");

  const std::uint16_t default_port = parts.tls ? 443 : 80;
  parts.port = default_port;
  if (view.has_port()) {
    const auto digits = view.port();
    unsigned value = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (ec != std::errc{} || end != digits.data() + digits.size() || value == 0 || value > 65535) {
      return bad_url(url, "bad port");
    }
    parts.port = static_cast<std::uint16_t>(value);
  }
  if (parts.port != default_port) parts.authority += ":" + std::to_string(parts.port);

  parts.target = std::string(view.encoded_path());
  if (parts.target.empty()) parts.target = "/";
  if (view.has_query()) parts.target += "?" + std::string(view.encoded_query());
  return parts;
}

}  // namespace parley::http

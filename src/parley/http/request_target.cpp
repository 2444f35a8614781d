#include "parley/http/request_target.hpp"

#include <boost/url/parse.hpp>
#include <boost/url/url_view.hpp>

#include <algorithm>

namespace parley::http {

namespace {

bool has_control_character(std::string_view text) {
  return std::any_of(text.begin(), text.end(), [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return byte < 0x20 || byte == 0x7f;
  });
}

}  // namespace

result<request_target> parse_request_target(std::string_view target) {
  // A fragment is never sent by a client; one that is would be no part of the resource.
  const auto parsed = boost::urls::parse_origin_form(target.substr(0, target.find('#')));
  if (!parsed) {
    return make_error(errc::invalid_argument, "target: not a valid request target (" + parsed.error().message() +
                                                  "; percent-encode every byte that is not printable ASCII)");
  }
  const boost::urls::url_view& url = *parsed;
  request_target out;
  out.path = std::string(url.encoded_path());
  std::size_t position = 0;
  for (const auto& segment : url.segments()) {
    ++position;
    // "." names the segment it stands in (RFC 3986 §5.2.4), and Boost.URL hides a leading one it
    // reads as the escape of a path starting "//": dropped either way, so "/./a" and "/././a" agree.
    if (segment.empty() || segment == ".") continue;
    if (has_control_character(segment)) {
      return make_error(errc::invalid_argument,
                        "path: segment " + std::to_string(position) + " holds a control character once decoded");
    }
    out.segments.push_back(segment);
  }
  if (!url.has_query()) return out;
  for (const auto& param : url.params()) {  // "+" decodes to a space here
    if (has_control_character(param.key) || has_control_character(param.value)) {
      return make_error(errc::invalid_argument,
                        "query: parameter '" +
                            (has_control_character(param.key) ? std::string("(unprintable)") : std::string(param.key)) +
                            "' holds a control character once decoded");
    }
    if (param.key.empty()) continue;  // "a=1&&b=2"
    out.query[param.key] = param.value;
  }
  return out;
}

}  // namespace parley::http

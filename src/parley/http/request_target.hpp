// A request's target as a server reads it (RFC 3986 origin form, "/a/b%2Fc?k=v"), decoded by
// Boost.URL the way the RFC means: segment by segment, so "%2F" inside a segment is a character of
// that segment, never a separator, and the query pair by pair ("+" a space). Decoding the whole
// path first and splitting it after would let an id holding "%2F" reach another route.
//
// Refused, with an error naming the part: malformed percent-encoding, a target that is not in
// origin form, and a decoded segment, key or value holding NUL or another control character —
// such bytes name nothing a route or a file could mean.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "parley/core/result.hpp"

namespace parley::http {

struct request_target {
  std::string path;                   // as sent (still percent-encoded), for messages
  std::vector<std::string> segments;  // decoded; empty ones ("a//b", a trailing "/") and "." dropped
  std::map<std::string, std::string, std::less<>> query;  // decoded; the last of repeated keys wins
};

result<request_target> parse_request_target(std::string_view target);

}  // namespace parley::http

// parse_request_target: a target decoded segment by segment (Boost.URL), so "%2F" stays inside its
// segment; control characters once decoded, and malformed escapes, refused naming the part.
#include <gtest/gtest.h>

#include "parley/http/request_target.hpp"

namespace parley::http {
namespace {

using segments = std::vector<std::string>;

TEST(RequestTarget, AnEncodedSlashStaysInsideItsSegment) {
  auto parsed = parse_request_target("/api/dialogs/a%2Fb/messages");
  ASSERT_TRUE(parsed) << parsed.err().message;
  EXPECT_EQ(parsed->segments, (segments{"api", "dialogs", "a/b", "messages"}));
  EXPECT_EQ(parsed->path, "/api/dialogs/a%2Fb/messages");
}

TEST(RequestTarget, DotSegmentsAreDataNotNavigation) {
  // Boost.URL leaves them as they are; the routes and the file server decide what they mean.
  auto parsed = parse_request_target("/assets/%2e%2e/x");
  ASSERT_TRUE(parsed) << parsed.err().message;
  EXPECT_EQ(parsed->segments, (segments{"assets", "..", "x"}));
  // "." names its own segment: dropped, however Boost.URL shows a leading one (found by the fuzzer).
  for (const char* target : {"/./a", "/././a", "/a/%2e/"}) {
    auto dotted = parse_request_target(target);
    ASSERT_TRUE(dotted) << target;
    EXPECT_EQ(dotted->segments, (segments{"a"})) << target;
  }
}

TEST(RequestTarget, EmptySegmentsAreDroppedAndTheQueryIsDecodedPairByPair) {
  auto parsed = parse_request_target("/api//records/?q=a+b%26c&since=2026-01-01T00%3A00%3A00Z&q2=&&flag");
  ASSERT_TRUE(parsed) << parsed.err().message;
  EXPECT_EQ(parsed->segments, (segments{"api", "records"}));
  EXPECT_EQ(parsed->query.at("q"), "a b&c");
  EXPECT_EQ(parsed->query.at("since"), "2026-01-01T00:00:00Z");
  EXPECT_EQ(parsed->query.at("q2"), "");
  EXPECT_EQ(parsed->query.at("flag"), "");
  EXPECT_EQ(parsed->query.size(), 4U);
}

TEST(RequestTarget, ControlCharactersOnceDecodedAreRefusedNamingThePart) {
  auto nul = parse_request_target("/api/dialogs/a%00b");
  ASSERT_FALSE(nul);
  EXPECT_EQ(nul.err().message, "path: segment 3 holds a control character once decoded");
  auto escape = parse_request_target("/api/dialogs?q=%1b%5b31m");
  ASSERT_FALSE(escape);
  EXPECT_EQ(escape.err().message, "query: parameter 'q' holds a control character once decoded");
}

TEST(RequestTarget, MalformedTargetsAreRefused) {
  for (const char* bad : {"/api/dialogs/%zz", "/api/dialogs/%4", "api/dialogs", "/a b", "/\xe4\xb8\xad"}) {
    auto parsed = parse_request_target(bad);
    ASSERT_FALSE(parsed) << bad;
    EXPECT_EQ(parsed.err().code, errc::invalid_argument);
    EXPECT_EQ(parsed.err().message.rfind("target: not a valid request target", 0), 0U) << parsed.err().message;
  }
}

}  // namespace
}  // namespace parley::http

// The request guard in process: which Host names a server answers to, which Origins may change
// things, the JSON media type, and where the page's secret goes.
#include <gtest/gtest.h>

#include "parley/server/media_types.hpp"
#include "parley/server/request_guard.hpp"
#include "parley/server/static_files.hpp"

namespace parley::server {
namespace {

server_options options_for(std::string host, std::vector<std::string> allowed = {}, std::string cors = {}) {
  server_options options;
  options.host = std::move(host);
  options.allowed_hosts = std::move(allowed);
  options.cors_origin = std::move(cors);
  return options;
}

guarded_request get_with_host(std::string_view host) {
  guarded_request request;
  request.method = "GET";
  request.host = host;
  return request;
}

guarded_request post_from(std::string_view host, std::optional<std::string_view> origin) {
  guarded_request request;
  request.method = "POST";
  request.host = host;
  request.origin = origin;
  return request;
}

TEST(RequestGuard, ParsesHostHeaders) {
  auto parsed = parse_host_header("Example.COM:8080");
  ASSERT_TRUE(parsed);
  EXPECT_EQ(parsed->host, "example.com");
  EXPECT_EQ(parsed->port, 8080);
  parsed = parse_host_header("[0:0:0:0:0:0:0:1]");
  ASSERT_TRUE(parsed);
  EXPECT_EQ(parsed->host, "[::1]");
  EXPECT_FALSE(parsed->port);
  parsed = parse_host_header("127.000.000.001:1");
  EXPECT_TRUE(!parsed || parsed->host != "127.0.0.1");  // not the canonical form: no alias for loopback
  for (const char* bad : {"", ":80", "::1", "[::1", "[::1]80", "[nope]", "host:", "host:99999", "host:8o", "a b",
                          "host/path", "user@host", "a:1:2"}) {
    EXPECT_FALSE(parse_host_header(bad)) << bad;
  }
}

TEST(RequestGuard, NormalizesNamesFromTheCommandLine) {
  EXPECT_EQ(*normalize_host_name("::1", "--host"), "[::1]");
  EXPECT_EQ(*normalize_host_name("[::1]", "--host"), "[::1]");
  EXPECT_EQ(*normalize_host_name("Parley.LAN", "--allowed-host"), "parley.lan");
  const auto bad = normalize_host_name("parley.lan:80", "--allowed-host");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.err().message, "--allowed-host: 'parley.lan:80' is not a host name or IP address (no scheme, no port)");
  EXPECT_FALSE(normalize_host_name("", "--allowed-host"));
  EXPECT_FALSE(normalize_host_name("http://x", "--allowed-host"));
}

TEST(RequestGuard, ALoopbackServerAnswersToItsOwnNamesOnly) {
  const request_guard guard(options_for("127.0.0.1", {"parley.lan"}));
  for (const char* host : {"127.0.0.1", "127.0.0.1:7878", "localhost:7878", "LocalHost", "[::1]:7878", "parley.lan"}) {
    EXPECT_FALSE(guard.check(get_with_host(host))) << host;
  }
  for (const char* host :
       {"evil.example", "127.0.0.2", "10.0.0.1", "sub.localhost", "parley.lan.evil.example", "localhost.", "[::2]"}) {
    const auto refused = guard.check(get_with_host(host));
    ASSERT_TRUE(refused) << host;
    EXPECT_EQ(refused->status, 403U);
    EXPECT_EQ(refused->code, "bad_host");
  }
}

TEST(RequestGuard, AServerBoundToAnotherAddressAnswersToIt) {
  const request_guard guard(options_for("192.168.1.5"));
  EXPECT_FALSE(guard.check(get_with_host("192.168.1.5:7878")));
  EXPECT_FALSE(guard.check(get_with_host("localhost")));
  EXPECT_TRUE(guard.check(get_with_host("192.168.1.6")));
  const request_guard v6(options_for("fe80::1"));
  EXPECT_FALSE(v6.check(get_with_host("[fe80::1]:7878")));
}

TEST(RequestGuard, BoundToEveryAddressAnyAddressLiteralPassesButNamesMustBeListed) {
  for (const char* any : {"0.0.0.0", "::"}) {
    const request_guard guard(options_for(any, {"parley.lan"}));
    for (const char* host : {"192.168.1.5:7878", "10.0.0.1", "[fd00::5]:7878", "localhost", "parley.lan:7878"}) {
      EXPECT_FALSE(guard.check(get_with_host(host))) << any << " " << host;
    }
    for (const char* host : {"evil.example", "my-laptop", "0.0.0.0.evil.example"}) {
      EXPECT_TRUE(guard.check(get_with_host(host))) << any << " " << host;
    }
  }
}

TEST(RequestGuard, AMissingOrRepeatedHostIsABadRequest) {
  const request_guard guard(options_for("127.0.0.1"));
  guarded_request request;
  request.method = "GET";
  auto refused = guard.check(request);
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->status, 400U);
  EXPECT_EQ(refused->message, "Host: missing; HTTP/1.1 requires it");
  request.http_1_1 = false;  // HTTP/1.0 has no Host; no browser sends it
  EXPECT_FALSE(guard.check(request));
  request = get_with_host("127.0.0.1");
  request.repeated_host = true;
  refused = guard.check(request);
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->status, 400U);
}

TEST(RequestGuard, ChangesMustComeFromTheOriginTheRequestWasSentTo) {
  const request_guard guard(options_for("127.0.0.1"));
  EXPECT_FALSE(guard.check(post_from("127.0.0.1:7878", std::nullopt)));  // curl, the CLI, tests
  EXPECT_FALSE(guard.check(post_from("127.0.0.1:7878", "http://127.0.0.1:7878")));
  EXPECT_FALSE(guard.check(post_from("localhost:7878", "http://LOCALHOST:7878")));
  EXPECT_FALSE(guard.check(post_from("127.0.0.1", "http://127.0.0.1")));  // port 80 on both sides
  EXPECT_FALSE(guard.check(post_from("127.0.0.1:80", "http://127.0.0.1")));
  EXPECT_FALSE(guard.check(post_from("127.0.0.1:443", "https://127.0.0.1")));  // behind a TLS proxy
  for (const char* origin :
       {"http://evil.example", "null", "http://127.0.0.1:7879", "http://localhost:7878", "https://127.0.0.1:7878x",
        "ftp://127.0.0.1:7878", "http://127.0.0.1:7878/path", "chrome-extension://abc"}) {
    const auto refused = guard.check(post_from("127.0.0.1:7878", origin));
    ASSERT_TRUE(refused) << origin;
    EXPECT_EQ(refused->status, 403U);
    EXPECT_EQ(refused->code, "bad_origin");
  }
  // Every method that is not a read counts, and so does the WebSocket upgrade, a GET.
  for (const char* method : {"PUT", "PATCH", "DELETE", "PROPFIND"}) {
    auto request = post_from("127.0.0.1:7878", "http://evil.example");
    request.method = method;
    EXPECT_TRUE(guard.check(request)) << method;
  }
  for (const char* method : {"GET", "HEAD", "OPTIONS"}) {
    auto request = post_from("127.0.0.1:7878", "http://evil.example");
    request.method = method;
    EXPECT_FALSE(guard.check(request)) << method;
    request.websocket_upgrade = true;
    EXPECT_TRUE(guard.check(request)) << method << " upgrade";
  }
}

TEST(RequestGuard, SecFetchSiteCrossSiteIsRefusedUnlessFromTheCorsOrigin) {
  const request_guard guard(options_for("127.0.0.1", {}, "http://localhost:5173/"));
  auto request = post_from("127.0.0.1:7878", std::nullopt);
  request.fetch_site = "cross-site";
  const auto refused = guard.check(request);
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->code, "bad_origin");
  request.fetch_site = "same-origin";
  EXPECT_FALSE(guard.check(request));
  request.fetch_site = "none";  // typed into the address bar
  EXPECT_FALSE(guard.check(request));

  request = post_from("127.0.0.1:7878", "http://localhost:5173");
  request.fetch_site = "cross-site";
  EXPECT_FALSE(guard.check(request));  // the operator allowed that origin (trailing '/' and case aside)
  request.origin = "HTTP://LOCALHOST:5173";
  EXPECT_FALSE(guard.check(request));
  request.origin = "http://localhost:5174";
  EXPECT_TRUE(guard.check(request));
}

TEST(RequestGuard, JsonMediaTypes) {
  for (const char* type :
       {"application/json", "application/json; charset=utf-8", "Application/JSON", " application/json "}) {
    EXPECT_TRUE(is_json_media_type(type)) << type;
  }
  for (const char* type : {"", "text/plain", "application/jsonp", "application/json-seq", "text/json",
                           "application/x-www-form-urlencoded", "multipart/form-data; boundary=application/json"}) {
    EXPECT_FALSE(is_json_media_type(type)) << type;
  }
}

TEST(PageToken, GoesIntoTheHeadAndNeverBeforeTheDoctype) {
  EXPECT_EQ(embed_token_in_page("<!doctype html><html><head><title>t</title></head><body></body></html>", "abc"),
            "<!doctype html><html><head><title>t</title><meta name=\"parley-token\" content=\"abc\"></head><body>"
            "</body></html>");
  EXPECT_EQ(embed_token_in_page("<!DOCTYPE html><title>t</title>", "abc"),
            "<!DOCTYPE html><meta name=\"parley-token\" content=\"abc\"><title>t</title>");
  EXPECT_EQ(embed_token_in_page("<p>x</p>", "abc"), "<meta name=\"parley-token\" content=\"abc\"><p>x</p>");
  EXPECT_EQ(embed_token_in_page("<HEAD></HEAD>", "a\"<&"),
            "<HEAD><meta name=\"parley-token\" content=\"a&quot;&lt;&amp;\"></HEAD>");
}

}  // namespace
}  // namespace parley::server

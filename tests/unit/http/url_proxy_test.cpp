#include <gtest/gtest.h>

#include <cstdlib>

#include "parley/http/proxy.hpp"
#include "parley/http/url.hpp"

namespace parley::http {
namespace {

TEST(parse_url, splits_https_url_with_default_port) {
  auto parts = parse_url("https://API.openai.com/v1/chat/completions?x=1");
  ASSERT_TRUE(parts) << parts.err().message;
  EXPECT_TRUE(parts->tls);
  EXPECT_EQ(parts->host, "api.openai.com");
  EXPECT_EQ(parts->port, 443);
  EXPECT_EQ(parts->authority, "api.openai.com");
  EXPECT_EQ(parts->target, "/v1/chat/completions?x=1");
  EXPECT_EQ(parts->absolute(), "https://api.openai.com/v1/chat/completions?x=1");
}

TEST(parse_url, keeps_explicit_port_and_defaults_path) {
  auto parts = parse_url("http://127.0.0.1:8080");
  ASSERT_TRUE(parts) << parts.err().message;
  EXPECT_FALSE(parts->tls);
  EXPECT_EQ(parts->port, 8080);
  EXPECT_EQ(parts->authority, "127.0.0.1:8080");
  EXPECT_EQ(parts->target, "/");
}

TEST(parse_url, brackets_ipv6_only_in_authority) {
  auto parts = parse_url("http://[::1]:9000/v1");
  ASSERT_TRUE(parts) << parts.err().message;
  EXPECT_EQ(parts->host, "::1");
  EXPECT_EQ(parts->authority, "[::1]:9000");
}

TEST(parse_url, rejects_other_schemes_and_garbage) {
  auto ftp = parse_url("ftp://example.com/");
  ASSERT_FALSE(ftp);
  EXPECT_EQ(ftp.err().code, errc::invalid_argument);
  EXPECT_NE(ftp.err().message.find("scheme"), std::string::npos);
  EXPECT_FALSE(parse_url("not a url"));
  EXPECT_FALSE(parse_url("http://host:99999/"));
}

TEST(no_proxy, matches_hosts_and_domain_suffixes) {
  EXPECT_TRUE(bypasses_proxy("localhost, .internal.example", "localhost"));
  EXPECT_TRUE(bypasses_proxy("localhost, .internal.example", "api.internal.example"));
  EXPECT_TRUE(bypasses_proxy("internal.example", "api.internal.example"));
  EXPECT_TRUE(bypasses_proxy("internal.example", "INTERNAL.example"));
  EXPECT_FALSE(bypasses_proxy("internal.example", "notinternal.example"));
  EXPECT_TRUE(bypasses_proxy("127.0.0.1:8080", "127.0.0.1"));
  EXPECT_TRUE(bypasses_proxy("*", "anything.example"));
  EXPECT_FALSE(bypasses_proxy("", "anything.example"));
}

TEST(proxy_for, picks_the_proxy_by_scheme_and_reads_credentials) {
  const proxy_settings settings{"http://user:p%40ss@proxy.local:3128", "proxy.local:8443", "direct.example"};
  auto plain = proxy_for(settings, *parse_url("http://api.example/v1"));
  ASSERT_TRUE(plain && plain->has_value());
  EXPECT_EQ((*plain)->host, "proxy.local");
  EXPECT_EQ((*plain)->port, 3128);
  EXPECT_EQ((*plain)->authorization, "Basic dXNlcjpwQHNz");  // user:p@ss

  auto secure = proxy_for(settings, *parse_url("https://api.example/v1"));
  ASSERT_TRUE(secure && secure->has_value());
  EXPECT_EQ((*secure)->port, 8443);
  EXPECT_TRUE((*secure)->authorization.empty());

  auto direct = proxy_for(settings, *parse_url("https://direct.example/"));
  ASSERT_TRUE(direct);
  EXPECT_FALSE(direct->has_value());
}

TEST(proxy_settings, lower_case_environment_names_win) {
  ::setenv("HTTPS_PROXY", "http://upper:1", 1);
  ::setenv("https_proxy", "http://lower:2", 1);
  ::setenv("HTTP_PROXY", "http://only-upper:3", 1);
  ::unsetenv("http_proxy");
  ::setenv("NO_PROXY", "localhost", 1);
  ::unsetenv("no_proxy");
  const auto settings = proxy_settings::from_environment();
  for (const char* name : {"HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "NO_PROXY"}) ::unsetenv(name);
  EXPECT_EQ(settings.https_proxy, "http://lower:2");
  EXPECT_EQ(settings.http_proxy, "http://only-upper:3");
  EXPECT_EQ(settings.no_proxy, "localhost");
}

TEST(proxy_for, rejects_tls_proxies) {
  const proxy_settings settings{"", "https://proxy.local:443", ""};
  auto chosen = proxy_for(settings, *parse_url("https://api.example/"));
  ASSERT_FALSE(chosen);
  EXPECT_NE(chosen.err().message.find("only http://"), std::string::npos);
}

}  // namespace
}  // namespace parley::http

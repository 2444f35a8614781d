#include <gtest/gtest.h>

#include "parley/core/utf8.hpp"
#include "parley/llm/remote_call.hpp"
#include "parley/llm/remote_options.hpp"

namespace parley::llm {
namespace {

TEST(provider_errors, status_is_read_back_from_the_message) {
  EXPECT_EQ(provider_http_status(make_error(errc::provider_error, "openai: HTTP 429 Too Many Requests from x: y")),
            429);
  EXPECT_EQ(provider_http_status(make_error(errc::provider_error, "openai: HTTP 500 from x: y")), 500);
  EXPECT_FALSE(provider_http_status(make_error(errc::provider_error, "openai: no data from x for 200 ms")));
  EXPECT_FALSE(provider_http_status(make_error(errc::provider_error, "HTTP 12345")));
}

TEST(provider_errors, retryable_means_throttled_server_trouble_or_network) {
  EXPECT_TRUE(is_retryable(make_error(errc::provider_error, "openai: HTTP 429 Too Many Requests from x: y")));
  EXPECT_TRUE(is_retryable(make_error(errc::provider_error, "anthropic: HTTP 529 from x: Overloaded")));
  EXPECT_TRUE(is_retryable(make_error(errc::provider_error, "openai: cannot connect to x:443: refused")));
  EXPECT_FALSE(is_retryable(make_error(errc::provider_error, "openai: HTTP 401 Unauthorized from x: bad key")));
  EXPECT_FALSE(is_retryable(make_error(errc::cancelled, "request cancelled")));
  EXPECT_FALSE(is_retryable(make_error(errc::invalid_argument, "invalid URL")));
}

TEST(provider_errors, status_error_quotes_the_server_message_in_each_shape) {
  http::response answer;
  answer.status = 400;
  answer.reason = "Bad Request";
  answer.body = R"({"error":{"type":"invalid_request_error","message":"max_tokens too large"}})";
  EXPECT_EQ(http_status_error("anthropic", answer, "https://api.anthropic.com/v1/messages").message,
            "anthropic: HTTP 400 Bad Request from api.anthropic.com: invalid_request_error: max_tokens too large");
  answer.body = R"({"error":"model not loaded"})";
  EXPECT_EQ(http_status_error("openai", answer, "http://127.0.0.1:8080/v1/chat/completions").message,
            "openai: HTTP 400 Bad Request from 127.0.0.1:8080: model not loaded");
  answer.body = "<html>gateway</html>";
  EXPECT_EQ(http_status_error("openai", answer, "http://h/v1").message,
            "openai: HTTP 400 Bad Request from h: <html>gateway</html>");
}

TEST(provider_errors, retry_after_prefers_milliseconds) {
  http::response answer;
  answer.headers = {{"Retry-After", "3"}};
  EXPECT_EQ(retry_after(answer), std::chrono::milliseconds(3000));
  answer.headers.push_back({"retry-after-ms", "250"});
  EXPECT_EQ(retry_after(answer), std::chrono::milliseconds(250));
  answer.headers = {{"Retry-After", "Wed, 21 Oct 2015 07:28:00 GMT"}};
  EXPECT_FALSE(retry_after(answer));
}

TEST(provider_errors, join_url_handles_slashes) {
  EXPECT_EQ(join_url("https://api.openai.com/v1/", "/chat/completions"), "https://api.openai.com/v1/chat/completions");
  EXPECT_EQ(join_url("http://127.0.0.1:8080/v1", "messages"), "http://127.0.0.1:8080/v1/messages");
}

// Found by fuzz/sse_fuzzer.cpp (the same cut in the stream assemblers): a body quoted in an error
// is cut anywhere and may be in any encoding, and the error is logged (drive_failed) as UTF-8.
TEST(provider_errors, a_quoted_body_is_utf8_whatever_it_holds) {
  http::response answer;
  answer.status = 502;
  answer.reason = "Bad Gateway";
  answer.body = "<html>caf\xE9 \xFF</html>";
  const std::string latin1 = http_status_error("openai", answer, "http://h/v1").message;
  EXPECT_TRUE(is_valid_utf8(latin1)) << latin1;
  EXPECT_NE(latin1.find("caf\xEF\xBF\xBD"), std::string::npos) << latin1;
  answer.body.clear();
  for (int i = 0; i < 400; ++i) answer.body += "\xE9\x94\x99";  // 错, 1,200 bytes: cut after 500
  const std::string cut = http_status_error("openai", answer, "http://h/v1").message;
  EXPECT_TRUE(is_valid_utf8(cut)) << cut;
  EXPECT_TRUE(cut.ends_with("\xE9\x94\x99...")) << cut;
}

}  // namespace
}  // namespace parley::llm

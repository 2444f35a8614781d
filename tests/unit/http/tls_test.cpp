#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>

#include <filesystem>

#include "parley/http/client.hpp"
#include "support/fake_http_server.hpp"
#include "support/run_awaitable.hpp"
#include "support/test_certificate.hpp"
#include "support/text_contains.hpp"

namespace parley::http {
namespace {

using namespace std::chrono_literals;
using testing::fake_response;
using testing::run_awaitable;

using parley::testing::contains;

class https_client_test : public ::testing::Test {
 protected:
  explicit https_client_test(const std::string& names = "DNS:localhost,IP:127.0.0.1")
      : certificate_(testing::make_test_certificate(names)),
        ca_file_(testing::write_temp_file("parley-test-ca", certificate_.cert_pem)),
        server_(certificate_) {}
  ~https_client_test() override { std::filesystem::remove(ca_file_); }

  client_options options(bool trust_test_ca = true) {
    client_options opts;
    opts.proxy = proxy_settings{};
    opts.timeouts = {2'000ms, 5'000ms, 5'000ms};
    if (trust_test_ca) opts.ca_file = ca_file_.string();
    return opts;
  }

  request get(const std::string& host) {
    request req;
    req.method = "GET";
    req.url = "https://" + host + ":" + std::to_string(server_.port()) + "/v1/models";
    return req;
  }

  testing::test_certificate certificate_;
  std::filesystem::path ca_file_;
  boost::asio::io_context io_;
  testing::fake_http_server server_;
};

TEST_F(https_client_test, trusted_certificate_round_trip_sends_sni_and_reuses_the_session) {
  server_.push(fake_response::json(R"({"data":[]})"));
  server_.push(fake_response::json(R"({"data":[1]})"));
  client http(options());
  auto first = run_awaitable(io_, http.send(get("localhost")));
  ASSERT_TRUE(first) << first.err().message;
  EXPECT_EQ(first->body, R"({"data":[]})");
  EXPECT_EQ(server_.last_server_name(), "localhost");
  auto second = run_awaitable(io_, http.send(get("localhost")));
  ASSERT_TRUE(second) << second.err().message;
  EXPECT_EQ(second->body, R"({"data":[1]})");
  EXPECT_EQ(server_.connections_accepted(), 1u);
  EXPECT_EQ(server_.requests().at(0).method, "GET");
}

TEST_F(https_client_test, ip_address_is_verified_against_the_certificate) {
  server_.push(fake_response::json("{}"));
  client http(options());
  auto answer = run_awaitable(io_, http.send(get("127.0.0.1")));
  ASSERT_TRUE(answer) << answer.err().message;
  EXPECT_TRUE(server_.last_server_name().empty());  // no SNI for IP addresses
}

TEST_F(https_client_test, untrusted_certificate_is_refused) {
  client http(options(/*trust_test_ca=*/false));
  auto answer = run_awaitable(io_, http.send(get("localhost")));
  ASSERT_FALSE(answer);
  EXPECT_EQ(answer.err().code, errc::provider_error);
  EXPECT_TRUE(contains(answer.err().message, "TLS handshake with localhost failed")) << answer.err().message;
  EXPECT_TRUE(contains(answer.err().message, "certificate verify failed")) << answer.err().message;
  EXPECT_TRUE(server_.requests().empty());
}

class https_wrong_name_test : public https_client_test {
 protected:
  https_wrong_name_test() : https_client_test("DNS:other.example") {}
};

TEST_F(https_wrong_name_test, certificate_for_another_host_is_refused) {
  client http(options());
  auto answer = run_awaitable(io_, http.send(get("localhost")));
  ASSERT_FALSE(answer);
  EXPECT_TRUE(contains(answer.err().message, "certificate verify failed")) << answer.err().message;
  EXPECT_TRUE(server_.requests().empty());
}

TEST_F(https_wrong_name_test, verification_can_be_turned_off_for_local_servers) {
  server_.push(fake_response::json("{}"));
  auto opts = options(/*trust_test_ca=*/false);
  opts.verify_tls = false;
  client http(opts);
  auto answer = run_awaitable(io_, http.send(get("localhost")));
  ASSERT_TRUE(answer) << answer.err().message;
}

TEST(https_client_options, missing_ca_file_is_a_config_error) {
  boost::asio::io_context io;
  client_options opts;
  opts.proxy = proxy_settings{};
  opts.ca_file = "/nonexistent/parley-ca.pem";
  client http(opts);
  request req;
  req.url = "https://127.0.0.1:1/";
  auto answer = run_awaitable(io, http.send(req));
  ASSERT_FALSE(answer);
  EXPECT_EQ(answer.err().code, errc::config_error);
  EXPECT_TRUE(contains(answer.err().message, "/nonexistent/parley-ca.pem")) << answer.err().message;
}

}  // namespace
}  // namespace parley::http

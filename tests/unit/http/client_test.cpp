#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>

#include "parley/http/client.hpp"
#include "support/fake_http_server.hpp"
#include "support/run_awaitable.hpp"
#include "support/text_contains.hpp"

namespace parley::http {
namespace {

using namespace std::chrono_literals;
using testing::fake_ending;
using testing::fake_response;
using testing::run_awaitable;

using parley::testing::contains;

class http_client_test : public ::testing::Test {
 protected:
  client_options options() {
    client_options opts;
    opts.proxy = proxy_settings{};  // tests never go through a proxy from the environment
    opts.timeouts = {2'000ms, 5'000ms, 5'000ms};
    return opts;
  }

  request post(std::string path, std::string body = R"({"hello":"world"})") {
    request req;
    req.url = server_.base_url() + path;
    req.headers = {{"Content-Type", "application/json"}, {"Authorization", "Bearer secret"}};
    req.body = std::move(body);
    return req;
  }

  // Streams `req`, collecting the pieces; `after_piece` runs on each.
  result<response> stream(client& http, const request& req, std::vector<std::string>& pieces,
                          boost::asio::cancellation_slot slot = {}, std::function<void()> after_piece = {}) {
    return run_awaitable(io_, http.stream(
                                  req,
                                  [&](std::string_view piece) -> result<void> {
                                    pieces.emplace_back(piece);
                                    if (after_piece) after_piece();
                                    return ok();
                                  },
                                  slot));
  }

  boost::asio::io_context io_;
  testing::fake_http_server server_;
};

TEST_F(http_client_test, post_returns_the_whole_response_and_sends_headers_and_body) {
  server_.push(fake_response::json(R"({"ok":true})", 201));
  client http(options());
  auto answer = run_awaitable(io_, http.send(post("/v1/things?x=1")));
  ASSERT_TRUE(answer) << answer.err().message;
  EXPECT_EQ(answer->status, 201);
  EXPECT_EQ(answer->body, R"({"ok":true})");
  EXPECT_EQ(answer->header("content-type"), "application/json");

  const auto received = server_.requests();
  ASSERT_EQ(received.size(), 1u);
  EXPECT_EQ(received[0].method, "POST");
  EXPECT_EQ(received[0].target, "/v1/things?x=1");
  EXPECT_EQ(received[0].body, R"({"hello":"world"})");
  EXPECT_EQ(received[0].header("authorization"), "Bearer secret");
  EXPECT_EQ(received[0].header("host"), "127.0.0.1:" + std::to_string(server_.port()));
  EXPECT_EQ(received[0].header("content-length"), "17");
}

TEST_F(http_client_test, streamed_body_is_delivered_before_the_response_ends) {
  // The body never ends: the test can only see the first piece if it is handed over on arrival.
  server_.push(fake_response::sse({"data: one\n\n"}, fake_ending::never_end));
  client http(options());
  boost::asio::cancellation_signal cancel;
  std::vector<std::string> pieces;
  auto answer = stream(http, post("/stream"), pieces, cancel.slot(),
                       [&] { boost::asio::post(io_, [&] { cancel.emit(boost::asio::cancellation_type::terminal); }); });
  ASSERT_FALSE(answer);
  EXPECT_EQ(answer.err().code, errc::cancelled);
  ASSERT_EQ(pieces.size(), 1u);
  EXPECT_EQ(pieces[0], "data: one\n\n");
}

TEST_F(http_client_test, chunked_pieces_are_decoded_in_order) {
  fake_response chunked = fake_response::sse({"alpha ", "beta ", "gamma"});
  chunked.pieces[1].delay = 20ms;
  server_.push(chunked);
  client http(options());
  std::vector<std::string> pieces;
  auto answer = stream(http, post("/stream"), pieces);
  ASSERT_TRUE(answer) << answer.err().message;
  EXPECT_EQ(answer->status, 200);
  EXPECT_TRUE(answer->body.empty());
  std::string joined;
  for (const auto& piece : pieces) joined += piece;
  EXPECT_EQ(joined, "alpha beta gamma");
}

TEST_F(http_client_test, error_status_body_is_read_whole_when_streaming) {
  server_.push(fake_response::json(R"({"error":{"message":"slow down"}})", 429));
  client http(options());
  std::vector<std::string> pieces;
  auto answer = stream(http, post("/stream"), pieces);
  ASSERT_TRUE(answer) << answer.err().message;
  EXPECT_EQ(answer->status, 429);
  EXPECT_FALSE(answer->success());
  EXPECT_EQ(answer->body, R"({"error":{"message":"slow down"}})");
  EXPECT_TRUE(pieces.empty());
}

TEST_F(http_client_test, head_callback_sees_the_headers_before_the_first_piece) {
  fake_response events = fake_response::sse({"data: one\n\n", "data: two\n\n"});
  events.headers.push_back({"Mcp-Session-Id", "abc"});
  server_.push(events);
  client http(options());
  std::vector<std::string> seen;
  const head_callback on_head = [&](const response& head) -> result<void> {
    seen.push_back("head " + std::to_string(head.status) + " " + std::string(head.header("mcp-session-id")));
    return ok();
  };
  const body_callback on_body = [&](std::string_view piece) -> result<void> {
    seen.emplace_back(piece);
    return ok();
  };
  auto answer = run_awaitable(io_, http.stream(post("/stream"), on_head, on_body));
  ASSERT_TRUE(answer) << answer.err().message;
  ASSERT_GE(seen.size(), 2u);
  EXPECT_EQ(seen.front(), "head 200 abc");
  std::string joined;
  for (std::size_t i = 1; i < seen.size(); ++i) joined += seen[i];
  EXPECT_EQ(joined, "data: one\n\ndata: two\n\n");
}

TEST_F(http_client_test, head_callback_error_aborts_before_the_body_and_is_not_called_for_errors) {
  server_.push(fake_response::sse({"data: one\n\n"}, fake_ending::never_end));
  server_.push(fake_response::json(R"({"error":"nope"})", 500));
  client http(options());
  bool body_seen = false;
  int heads = 0;
  const head_callback refuse = [&](const response&) -> result<void> {
    ++heads;
    return make_error(errc::invalid_argument, "not this type");
  };
  const body_callback on_body = [&](std::string_view) -> result<void> {
    body_seen = true;
    return ok();
  };
  auto refused = run_awaitable(io_, http.stream(post("/stream"), refuse, on_body));
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.err().message, "not this type");
  EXPECT_FALSE(body_seen);
  auto failed = run_awaitable(io_, http.stream(post("/stream"), refuse, on_body));
  ASSERT_TRUE(failed) << failed.err().message;
  EXPECT_EQ(failed->status, 500);
  EXPECT_EQ(failed->body, R"({"error":"nope"})");
  EXPECT_EQ(heads, 1);
}

TEST_F(http_client_test, keep_alive_connection_is_reused) {
  server_.push(fake_response::json("{}"));
  server_.push(fake_response::json("{}"));
  client http(options());
  ASSERT_TRUE(run_awaitable(io_, http.send(post("/a"))));
  EXPECT_EQ(http.idle_connections(), 1u);
  ASSERT_TRUE(run_awaitable(io_, http.send(post("/b"))));
  EXPECT_EQ(server_.connections_accepted(), 1u);
  EXPECT_EQ(server_.requests().size(), 2u);
}

TEST_F(http_client_test, connection_close_is_not_pooled) {
  fake_response closing = fake_response::json("{}");
  closing.close = true;
  server_.push(closing);
  server_.push(fake_response::json("{}"));
  client http(options());
  ASSERT_TRUE(run_awaitable(io_, http.send(post("/a"))));
  EXPECT_EQ(http.idle_connections(), 0u);
  ASSERT_TRUE(run_awaitable(io_, http.send(post("/b"))));
  EXPECT_EQ(server_.connections_accepted(), 2u);
}

TEST_F(http_client_test, stale_pooled_connection_is_replaced_transparently) {
  fake_response dropped = fake_response::json(R"({"n":1})");
  dropped.drop_after = true;  // keep-alive promised, then the server closes anyway
  server_.push(dropped);
  server_.push(fake_response::json(R"({"n":2})"));
  client http(options());
  ASSERT_TRUE(run_awaitable(io_, http.send(post("/a"))));
  EXPECT_EQ(http.idle_connections(), 1u);
  auto second = run_awaitable(io_, http.send(post("/b")));
  ASSERT_TRUE(second) << second.err().message;
  EXPECT_EQ(second->body, R"({"n":2})");
  EXPECT_EQ(server_.connections_accepted(), 2u);
}

TEST_F(http_client_test, unfinished_streamed_response_drops_the_connection) {
  server_.push(fake_response::sse({"data: x\n\n"}, fake_ending::disconnect));
  client http(options());
  std::vector<std::string> pieces;
  auto answer = stream(http, post("/stream"), pieces);
  ASSERT_FALSE(answer);
  EXPECT_EQ(answer.err().code, errc::provider_error);
  EXPECT_TRUE(contains(answer.err().message, "closed the connection mid-response")) << answer.err().message;
  EXPECT_EQ(http.idle_connections(), 0u);
}

TEST_F(http_client_test, silence_between_pieces_times_out) {
  server_.push(fake_response::sse({"data: first\n\n"}, fake_ending::never_end));
  auto opts = options();
  opts.timeouts.idle = 200ms;
  client http(opts);
  std::vector<std::string> pieces;
  auto answer = stream(http, post("/stream"), pieces);
  ASSERT_FALSE(answer);
  EXPECT_EQ(answer.err().code, errc::provider_error);
  EXPECT_TRUE(
      contains(answer.err().message, "no data from 127.0.0.1:" + std::to_string(server_.port()) + " for 200 ms"))
      << answer.err().message;
  EXPECT_EQ(pieces.size(), 1u);
}

TEST_F(http_client_test, missing_response_head_times_out) {
  fake_response late = fake_response::json("{}");
  late.head_delay = 10'000ms;
  server_.push(late);
  auto opts = options();
  opts.timeouts.first_byte = 200ms;
  client http(opts);
  auto answer = run_awaitable(io_, http.send(post("/slow")));
  ASSERT_FALSE(answer);
  EXPECT_EQ(answer.err().code, errc::provider_error);
  EXPECT_TRUE(contains(answer.err().message, "no response from")) << answer.err().message;
  EXPECT_TRUE(contains(answer.err().message, "within 200 ms")) << answer.err().message;
}

TEST_F(http_client_test, body_over_the_cap_is_refused) {
  server_.push(fake_response::json(std::string(2048, 'x')));
  auto opts = options();
  opts.max_body_bytes = 1024;
  client http(opts);
  auto answer = run_awaitable(io_, http.send(post("/big")));
  ASSERT_FALSE(answer);
  EXPECT_EQ(answer.err().code, errc::limit_exceeded);
  EXPECT_TRUE(contains(answer.err().message, "exceeds 1024 bytes")) << answer.err().message;
}

TEST_F(http_client_test, callback_error_aborts_the_request) {
  server_.push(fake_response::sse({"a", "b"}, fake_ending::never_end));
  client http(options());
  auto answer = run_awaitable(io_, http.stream(post("/stream"), [](std::string_view) -> result<void> {
    return make_error(errc::invalid_argument, "bad piece");
  }));
  ASSERT_FALSE(answer);
  EXPECT_EQ(answer.err().code, errc::invalid_argument);
  EXPECT_EQ(answer.err().message, "bad piece");
}

TEST_F(http_client_test, refused_connection_names_host_and_port) {
  std::uint16_t closed_port = 0;
  {
    boost::asio::ip::tcp::acceptor probe(io_, {boost::asio::ip::make_address("127.0.0.1"), 0});
    closed_port = probe.local_endpoint().port();
  }
  client http(options());
  request req;
  req.url = "http://127.0.0.1:" + std::to_string(closed_port) + "/";
  auto answer = run_awaitable(io_, http.send(req));
  ASSERT_FALSE(answer);
  EXPECT_EQ(answer.err().code, errc::provider_error);
  EXPECT_TRUE(contains(answer.err().message, "cannot connect to 127.0.0.1:" + std::to_string(closed_port)))
      << answer.err().message;
}

TEST_F(http_client_test, tls_handshake_failure_is_reported) {
  server_.push(fake_response::json("{}"));  // a plain-HTTP server cannot complete a TLS handshake
  client http(options());
  request req;
  req.url = "https://127.0.0.1:" + std::to_string(server_.port()) + "/";
  auto answer = run_awaitable(io_, http.send(req));
  ASSERT_FALSE(answer);
  EXPECT_EQ(answer.err().code, errc::provider_error);
  EXPECT_TRUE(contains(answer.err().message, "TLS handshake with 127.0.0.1 failed")) << answer.err().message;
}

TEST_F(http_client_test, invalid_url_and_header_are_rejected) {
  client http(options());
  request bad_url;
  bad_url.url = "ftp://example.com/";
  auto answer = run_awaitable(io_, http.send(bad_url));
  ASSERT_FALSE(answer);
  EXPECT_EQ(answer.err().code, errc::invalid_argument);

  server_.push(fake_response::json("{}"));
  request injected = post("/x");
  injected.headers.push_back({"X-Bad", "a\r\nX-Injected: 1"});
  auto refused = run_awaitable(io_, http.send(injected));
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.err().code, errc::invalid_argument);
}

TEST_F(http_client_test, plain_http_goes_through_proxy_in_absolute_form) {
  server_.push(fake_response::json(R"({"via":"proxy"})"));
  auto opts = options();
  opts.proxy = proxy_settings{"http://me:pw@127.0.0.1:" + std::to_string(server_.port()), "", ""};
  client http(opts);
  request req;
  req.url = "http://api.example.invalid:8080/v1/chat";
  auto answer = run_awaitable(io_, http.send(req));
  ASSERT_TRUE(answer) << answer.err().message;
  EXPECT_EQ(answer->body, R"({"via":"proxy"})");
  const auto received = server_.requests();
  ASSERT_EQ(received.size(), 1u);
  EXPECT_EQ(received[0].target, "http://api.example.invalid:8080/v1/chat");
  EXPECT_EQ(received[0].header("host"), "api.example.invalid:8080");
  EXPECT_EQ(received[0].header("proxy-authorization"), "Basic bWU6cHc=");
}

TEST_F(http_client_test, https_through_proxy_asks_for_a_tunnel) {
  server_.push(fake_response::json("{}", 403));
  auto opts = options();
  opts.proxy = proxy_settings{"", "127.0.0.1:" + std::to_string(server_.port()), ""};
  client http(opts);
  request req;
  req.url = "https://api.example.invalid/v1/messages";
  auto answer = run_awaitable(io_, http.send(req));
  ASSERT_FALSE(answer);
  EXPECT_TRUE(contains(answer.err().message, "refused CONNECT to api.example.invalid:443: 403"))
      << answer.err().message;
  const auto received = server_.requests();
  ASSERT_EQ(received.size(), 1u);
  EXPECT_EQ(received[0].method, "CONNECT");
  EXPECT_EQ(received[0].target, "api.example.invalid:443");
}

TEST_F(http_client_test, no_proxy_hosts_go_direct) {
  server_.push(fake_response::json("{}"));
  auto opts = options();
  opts.proxy = proxy_settings{"http://127.0.0.1:1", "", "localhost,127.0.0.1"};
  client http(opts);
  auto answer = run_awaitable(io_, http.send(post("/direct")));
  ASSERT_TRUE(answer) << answer.err().message;
  EXPECT_EQ(server_.requests().size(), 1u);
}

}  // namespace
}  // namespace parley::http

// MCP's streamable HTTP transport against a scripted HTTP server: the headers it sends, and the
// answers a real MCP server does not give — error pages, the wrong type, oversized messages, a
// server that never answers, an expired session, a stream broken before its response.
#include <gtest/gtest.h>

#include "parley/tools/mcp/http_transport.hpp"
#include "support/fake_http_server.hpp"
#include "support/text_contains.hpp"
#include "unit/tools/mcp_http_fixture.hpp"

namespace parley::tools::mcp {
namespace {

using namespace std::chrono_literals;
using namespace testing;  // NOLINT(google-build-using-namespace): the fixture's helpers
using parley::testing::contains;
using parley::testing::fake_ending;
using parley::testing::fake_http_server;
using parley::testing::fake_response;
using parley::testing::received_request;

constexpr std::string_view kInitializeResult =
    R"({"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"fake","version":"1"}}})";

bool has_control_character(std::string_view text) {
  for (const char c : text) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) return true;
  }
  return false;
}

class McpHttpTransport : public ::testing::Test {
 protected:
  http_transport_options options() {
    http_transport_options made;
    made.server = "fake";
    made.url = server_.base_url() + "/mcp";
    made.proxy = http::proxy_settings{};  // never through a proxy from the environment
    made.timeouts = {5s, 20s, 20s};
    made.reconnect_delay = 10ms;
    made.listen = false;
    return made;
  }

  // The transport under test, closed at the end of the test with whatever it still runs.
  http_transport* make(http_transport_options made) {
    auto transport = http_transport::make(io_.get_executor(), std::move(made));
    EXPECT_TRUE(transport) << transport.err().message;
    if (!transport) return nullptr;
    channel_ = std::move(*transport);
    return channel_.get();
  }

  void TearDown() override {
    channel_.reset();
    io_.restart();
    io_.run();
  }

  // Sends a request and returns the error the transport ends with.
  error error_after(transport& channel, std::string message) {
    return run_task(io_, [](transport& c, std::string text) -> asio::awaitable<error> {
      auto sent = co_await c.send(std::move(text));
      if (!sent) co_return std::move(sent).err();
      co_return co_await receive_until_error(c);
    }(channel, std::move(message)));
  }

  // Sends `message` and reads up to the response to `id`.
  result<std::vector<rpc_message>> call(transport& channel, std::string message, std::int64_t id) {
    return run_task(
        io_,
        [](transport& c, std::string text, std::int64_t awaited) -> asio::awaitable<result<std::vector<rpc_message>>> {
          auto sent = co_await c.send(std::move(text));
          if (!sent) co_return std::move(sent).err();
          co_return co_await receive_until_response(c, awaited);
        }(channel, std::move(message), id));
  }

  void expect_one_line_naming_the_server(const error& failure) {
    EXPECT_TRUE(contains(failure.message, "MCP server 'fake'")) << failure.message;
    EXPECT_FALSE(has_control_character(failure.message)) << failure.message;
  }

  asio::io_context io_;
  fake_http_server server_;
  std::unique_ptr<http_transport> channel_;
};

TEST_F(McpHttpTransport, HeadersWithControlCharactersOrTakenByTheTransportAreRefusedNamingTheHeader) {
  auto with_header = [&](std::string name, std::string value) {
    auto made = options();
    made.headers = {{"X-Fine", "ok"}, {std::move(name), std::move(value)}};
    return http_transport::make(io_.get_executor(), std::move(made));
  };
  auto injected = with_header("Authorization", "Bearer secret\r\nX-Evil: 1");
  ASSERT_FALSE(injected);
  EXPECT_EQ(injected.err().code, errc::invalid_argument);
  EXPECT_TRUE(contains(injected.err().message, "MCP server 'fake'")) << injected.err().message;
  EXPECT_TRUE(contains(injected.err().message, "header 'Authorization'")) << injected.err().message;
  EXPECT_FALSE(contains(injected.err().message, "secret")) << "a header's value is never quoted";

  auto escape = with_header("X-Token", std::string("a\x1b[31mb"));
  ASSERT_FALSE(escape);
  EXPECT_TRUE(contains(escape.err().message, "header 'X-Token'")) << escape.err().message;

  auto bad_name = with_header("X Bad\nName", "v");
  ASSERT_FALSE(bad_name);
  EXPECT_TRUE(contains(bad_name.err().message, "not an HTTP token")) << bad_name.err().message;
  EXPECT_FALSE(has_control_character(bad_name.err().message)) << bad_name.err().message;

  auto reserved = with_header("mcp-session-id", "forged");
  ASSERT_FALSE(reserved);
  EXPECT_TRUE(contains(reserved.err().message, "set by the MCP transport itself")) << reserved.err().message;

  EXPECT_TRUE(with_header("X-Api-Key", "tab\tis fine"));
}

TEST_F(McpHttpTransport, EveryRequestCarriesTheHeadersAndLaterOnesTheSessionAndTheProtocolVersion) {
  fake_response initialized = fake_response::json(std::string(kInitializeResult));
  initialized.headers.push_back({"Mcp-Session-Id", "session-1"});
  server_.push(initialized);
  server_.answer_with([](const received_request& asked) {
    if (contains(asked.body, "notifications/initialized")) return fake_response::json("", 202);
    return fake_response::json(R"({"jsonrpc":"2.0","id":2,"result":{"tools":[]}})");
  });
  auto made = options();
  made.headers = {{"Authorization", "Bearer t0ken"}};
  auto channel = make(made);
  ASSERT_TRUE(channel);

  auto init = call(*channel, initialize_request(1), 1);
  ASSERT_TRUE(init) << init.err().message;
  EXPECT_EQ(channel->session_id(), "session-1");
  channel->set_protocol_version("2025-11-25");
  ASSERT_TRUE(run_task(io_, channel->send(notification_text("notifications/initialized"))));
  auto listed = call(*channel, request_text(2, "tools/list"), 2);
  ASSERT_TRUE(listed) << listed.err().message;
  ASSERT_EQ(listed->size(), 1u);
  ASSERT_TRUE(response_in(*listed)->ok());

  const auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 3u);
  for (const auto& asked : requests) {
    EXPECT_EQ(asked.method, "POST");
    EXPECT_EQ(asked.target, "/mcp");
    EXPECT_EQ(asked.header("Content-Type"), "application/json");
    EXPECT_EQ(asked.header("Accept"), "application/json, text/event-stream");
    EXPECT_EQ(asked.header("Authorization"), "Bearer t0ken");
  }
  EXPECT_EQ(requests[0].header("Mcp-Session-Id"), "");
  EXPECT_EQ(requests[0].header("MCP-Protocol-Version"), "");
  for (std::size_t i = 1; i < requests.size(); ++i) {
    EXPECT_EQ(requests[i].header("Mcp-Session-Id"), "session-1");
    EXPECT_EQ(requests[i].header("MCP-Protocol-Version"), "2025-11-25");
  }
  channel->close();
  io_.restart();
  io_.run();  // the DELETE
  const auto after = server_.requests();
  ASSERT_EQ(after.size(), 4u);
  EXPECT_EQ(after[3].method, "DELETE");
  EXPECT_EQ(after[3].header("Mcp-Session-Id"), "session-1");
}

TEST_F(McpHttpTransport, AServerErrorWithAnHtmlPageIsAnErrorNamingTheServerTheStatusAndAnExcerpt) {
  fake_response page;
  page.status = 500;
  page.headers = {{"Content-Type", "text/html"}};
  page.body = "<html>\r\n<body>\n\t<h1>Upstream \x1b[2Jexploded</h1>\n</body></html>";
  server_.push(page);
  auto channel = make(options());
  const error failure = error_after(*channel, request_text(7, "tools/list"));
  expect_one_line_naming_the_server(failure);
  EXPECT_EQ(failure.code, errc::provider_error);
  EXPECT_TRUE(contains(failure.message, "HTTP 500")) << failure.message;
  EXPECT_TRUE(contains(failure.message, "request 7 (tools/list)")) << failure.message;
  EXPECT_TRUE(contains(failure.message, "<html> <body> <h1>Upstream [2Jexploded</h1>")) << failure.message;
  // Dead for good: what is sent next is refused with the same error.
  auto again = run_task(io_, channel->send(request_text(8, "tools/list")));
  ASSERT_FALSE(again);
  EXPECT_EQ(again.err().message, failure.message);
}

TEST_F(McpHttpTransport, APlainTextAnswerToARequestIsRefusedQuotingIt) {
  fake_response text;
  text.headers = {{"Content-Type", "text/plain; charset=utf-8"}};
  text.body = "hello\nfrom a proxy";
  server_.push(text);
  auto channel = make(options());
  const error failure = error_after(*channel, request_text(3, "tools/list"));
  expect_one_line_naming_the_server(failure);
  EXPECT_TRUE(contains(failure.message, "HTTP 200")) << failure.message;
  EXPECT_TRUE(contains(failure.message, "text/plain")) << failure.message;
  EXPECT_TRUE(contains(failure.message, "hello from a proxy")) << failure.message;
}

TEST_F(McpHttpTransport, AnEventWhoseDataIsOverTheLimitEndsTheTransport) {
  const std::string big(3000, 'x');
  server_.push(fake_response::sse(
      {R"(data: {"jsonrpc":"2.0","method":"notifications/message","params":{"data":")", big, "\"}}\n\n"}));
  auto made = options();
  made.max_message_bytes = 1024;
  auto channel = make(made);
  const error failure = error_after(*channel, request_text(4, "tools/call"));
  expect_one_line_naming_the_server(failure);
  EXPECT_EQ(failure.code, errc::limit_exceeded);
  EXPECT_TRUE(contains(failure.message, "larger than 1024 bytes")) << failure.message;
}

TEST_F(McpHttpTransport, AJsonAnswerOverTheLimitEndsTheTransport) {
  server_.push(fake_response::json(R"({"jsonrpc":"2.0","id":4,"result":{"text":")" + std::string(3000, 'y') + "\"}}"));
  auto made = options();
  made.max_message_bytes = 1024;
  auto channel = make(made);
  const error failure = error_after(*channel, request_text(4, "tools/call"));
  expect_one_line_naming_the_server(failure);
  EXPECT_EQ(failure.code, errc::limit_exceeded);
}

TEST_F(McpHttpTransport, AServerThatNeverAnswersIsATimeoutNotAHang) {
  fake_response silent = fake_response::json("{}");
  silent.head_delay = 1h;
  server_.push(silent);
  auto made = options();
  made.timeouts.first_byte = 200ms;
  auto channel = make(made);
  const error failure = error_after(*channel, request_text(5, "tools/call"));
  expect_one_line_naming_the_server(failure);
  EXPECT_TRUE(contains(failure.message, "no response from 127.0.0.1:")) << failure.message;
}

TEST_F(McpHttpTransport, AnEventStreamThatFallsSilentIsATimeoutNotAHang) {
  server_.push(fake_response::sse({R"(data: {"jsonrpc":"2.0","method":"notifications/progress","params":{}})"
                                   "\n\n"},
                                  fake_ending::never_end));
  auto made = options();
  made.timeouts.idle = 200ms;
  auto channel = make(made);
  const error failure = error_after(*channel, request_text(6, "tools/call"));
  expect_one_line_naming_the_server(failure);
  EXPECT_TRUE(contains(failure.message, "no data from 127.0.0.1:")) << failure.message;
}

TEST_F(McpHttpTransport, A404ToARequestWithASessionIdSaysTheSessionIsGone) {
  server_.push(fake_response::json(R"({"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"}})", 404));
  auto made = options();
  made.session_id = "old-session";
  auto channel = make(made);
  const error failure = error_after(*channel, request_text(9, "tools/list"));
  expect_one_line_naming_the_server(failure);
  EXPECT_EQ(failure.code, errc::not_found);
  EXPECT_TRUE(contains(failure.message, "session old-session is gone (HTTP 404")) << failure.message;
  EXPECT_EQ(server_.requests().at(0).header("Mcp-Session-Id"), "old-session");
}

TEST_F(McpHttpTransport, AStreamThatBreaksBeforeItsResponseIsResumedWithLastEventId) {
  server_.push(fake_response::sse({"id: e1\ndata: \n\n",
                                   "id: e2\ndata: "
                                   R"({"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}})"
                                   "\n\n"},
                                  fake_ending::disconnect));
  server_.push(
      fake_response::sse({"id: e3\ndata: "
                          R"({"jsonrpc":"2.0","id":11,"result":{"content":[]}})"
                          "\n\n"}));
  auto channel = make(options());
  auto answered = call(*channel, request_text(11, "tools/call"), 11);
  ASSERT_TRUE(answered) << answered.err().message;
  ASSERT_EQ(answered->size(), 2u);
  EXPECT_TRUE(std::holds_alternative<rpc_notification>((*answered)[0]));
  EXPECT_TRUE(response_in(*answered)->ok());
  const auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[1].method, "GET");
  EXPECT_EQ(requests[1].header("Last-Event-ID"), "e2");
  EXPECT_EQ(requests[1].header("Accept"), "text/event-stream");
}

TEST_F(McpHttpTransport, AStreamThatEndsWithoutItsResponseOrAnEventIdIsAnError) {
  server_.push(fake_response::sse({R"(data: {"jsonrpc":"2.0","method":"notifications/progress","params":{}})"
                                   "\n\n"}));
  auto channel = make(options());
  const error failure = error_after(*channel, request_text(12, "tools/call"));
  expect_one_line_naming_the_server(failure);
  EXPECT_TRUE(contains(failure.message, "event stream of request 12 (tools/call) ended without its response"))
      << failure.message;
}

TEST_F(McpHttpTransport, ANotificationIsAcceptedWithoutABodyAndTheGetStreamIs405) {
  server_.answer_with([](const received_request& asked) {
    if (asked.method == "GET") return fake_response::json(R"({"error":"no"})", 405);
    return fake_response::json("", 202);
  });
  auto made = options();
  made.listen = true;
  auto channel = make(made);
  ASSERT_TRUE(run_task(io_, channel->send(notification_text("notifications/initialized"))));
  // The POST, then the GET answered 405: nothing is left listening, so the io_context runs out of
  // work.
  io_.restart();
  io_.run();
  const auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[0].method, "POST");
  EXPECT_EQ(requests[1].method, "GET");
  EXPECT_EQ(requests[1].header("Accept"), "text/event-stream");
  channel->close();
  auto after = run_task(io_, channel->receive());
  ASSERT_FALSE(after);
  EXPECT_EQ(after.err().code, errc::cancelled);  // closed, not failed by the 202 or the 405
}

TEST_F(McpHttpTransport, OnlyMessageEventsWithDataAreMessages) {
  server_.push(fake_response::sse({"id: prime\ndata: \n\n", "event: ping\ndata: {}\n\n", ": keep-alive\n\n",
                                   "data: "
                                   R"({"jsonrpc":"2.0","id":13,"result":{}})"
                                   "\n\n"}));
  auto channel = make(options());
  auto answered = call(*channel, request_text(13, "ping"), 13);
  ASSERT_TRUE(answered) << answered.err().message;
  EXPECT_EQ(answered->size(), 1u);
}

TEST_F(McpHttpTransport, ANotificationTheServerRefusesFailsItsSend) {
  server_.push(fake_response::json(R"({"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request"}})", 400));
  auto channel = make(options());
  auto sent = run_task(io_, channel->send(notification_text("notifications/initialized")));
  ASSERT_FALSE(sent);
  expect_one_line_naming_the_server(sent.err());
  EXPECT_TRUE(contains(sent.err().message, "HTTP 400")) << sent.err().message;
  EXPECT_TRUE(contains(sent.err().message, "notification notifications/initialized")) << sent.err().message;
}

TEST_F(McpHttpTransport, ASessionIdThatCannotBeSentBackIsRefused) {
  fake_response initialized = fake_response::json(std::string(kInitializeResult));
  initialized.headers.push_back({"Mcp-Session-Id", "two words"});
  server_.push(initialized);
  auto channel = make(options());
  const error failure = error_after(*channel, initialize_request(1));
  expect_one_line_naming_the_server(failure);
  EXPECT_TRUE(contains(failure.message, "Mcp-Session-Id")) << failure.message;
  EXPECT_EQ(channel->session_id(), "");
}

TEST_F(McpHttpTransport, AnEmptyJsonAnswerToARequestIsAnError) {
  server_.push(fake_response::json(""));
  auto channel = make(options());
  const error failure = error_after(*channel, request_text(14, "tools/list"));
  expect_one_line_naming_the_server(failure);
  EXPECT_TRUE(contains(failure.message, "empty JSON answer")) << failure.message;
}

TEST_F(McpHttpTransport, ABadProtocolVersionFromTheServerIsNotPutInAHeader) {
  auto channel = make(options());
  channel->set_protocol_version("2025-11-25\r\nX-Evil: 1");
  auto after = run_task(io_, channel->receive());
  ASSERT_FALSE(after);
  expect_one_line_naming_the_server(after.err());
  EXPECT_TRUE(contains(after.err().message, "protocol version")) << after.err().message;
}

}  // namespace
}  // namespace parley::tools::mcp

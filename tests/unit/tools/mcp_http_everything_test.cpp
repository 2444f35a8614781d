// MCP's streamable HTTP transport against the real thing: the reference server
// @modelcontextprotocol/server-everything (tests/mcp, installed by scripts/setup.sh) run with node
// in its streamableHttp mode, as a user would run it.
#include <gtest/gtest.h>

#include <boost/asio/ip/tcp.hpp>
#include <boost/json.hpp>

#include <fcntl.h>
#include <signal.h>

#include <filesystem>
#include <thread>

#include "parley/http/client.hpp"
#include "parley/tools/mcp/http_transport.hpp"
#include "support/child_process.hpp"
#include "support/text_contains.hpp"
#include "unit/tools/mcp_http_fixture.hpp"

namespace parley::tools::mcp {
namespace {

using namespace std::chrono_literals;
using namespace testing;  // NOLINT(google-build-using-namespace): the fixture's helpers
using parley::testing::contains;

const std::filesystem::path kEverything =
    std::filesystem::path(PARLEY_SOURCE_DIR) /
    "tests/mcp/node_modules/@modelcontextprotocol/server-everything/dist/index.js";

std::uint16_t free_port() {
  asio::io_context io;
  asio::ip::tcp::acceptor probe(io, asio::ip::tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  return probe.local_endpoint().port();
}

bool accepts_connections(std::uint16_t port) {
  asio::io_context io;
  asio::ip::tcp::socket socket(io);
  boost::system::error_code ec;
  socket.connect(asio::ip::tcp::endpoint(asio::ip::make_address("127.0.0.1"), port), ec);
  return !ec;
}

json::object call_params(std::string tool, json::object arguments, std::string progress_token = {}) {
  json::object params{{"name", std::move(tool)}, {"arguments", std::move(arguments)}};
  if (!progress_token.empty()) params["_meta"] = json::object{{"progressToken", std::move(progress_token)}};
  return params;
}

std::vector<std::string> progress_tokens(const std::vector<rpc_message>& seen) {
  std::vector<std::string> tokens;
  for (const auto& message : seen) {
    const auto* note = std::get_if<rpc_notification>(&message);
    if (note == nullptr || note->method != "notifications/progress") continue;
    tokens.push_back(json::serialize(note->params.at("progressToken")));
  }
  return tokens;
}

class McpHttpEverything : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(std::string_view(PARLEY_NODE).size() > 0) << "node was not found when the build was configured";
    ASSERT_TRUE(std::filesystem::exists(kEverything)) << kEverything << " is missing: run scripts/setup.sh";
    port_ = free_port();
    log_ = std::filesystem::temp_directory_path() / ("parley-mcp-everything-" + std::to_string(::getpid()) + ".log");
    const int log_fd = ::open(log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ASSERT_GE(log_fd, 0);
    pid_ = parley::test::spawn_program({PARLEY_NODE, kEverything.string(), "streamableHttp"},
                                       {log_fd, {{"PORT", std::to_string(port_)}}, {}});
    ::close(log_fd);
    ASSERT_GT(pid_, 0);
    // Until it listens (node takes a moment to load the SDK); a server that dies is reported.
    for (int tries = 0; tries < 600 && !accepts_connections(port_); ++tries) {
      ASSERT_EQ(::waitpid(pid_, nullptr, WNOHANG), 0) << "server-everything exited; see " << log_;
      std::this_thread::sleep_for(50ms);
    }
    ASSERT_TRUE(accepts_connections(port_)) << "server-everything does not listen on " << port_;
  }

  void TearDown() override {
    // Closed by its destructor: the DELETE and the cancelled streams finish on the io_context.
    channel_.reset();
    io_.restart();
    io_.run();
    if (pid_ > 0) ::kill(pid_, SIGKILL);
    if (pid_ > 0) parley::test::reaped_status(pid_);
    std::error_code ignored;
    std::filesystem::remove(log_, ignored);
  }

  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/mcp"; }

  http_transport& open_channel() {
    http_transport_options options;
    options.server = "everything";
    options.url = url();
    options.proxy = http::proxy_settings{};
    options.reconnect_delay = 50ms;
    auto made = http_transport::make(io_.get_executor(), std::move(options));
    EXPECT_TRUE(made) << made.err().message;
    channel_ = std::move(*made);
    return *channel_;
  }

  // initialize, the negotiated version, notifications/initialized: what the session layer does.
  result<std::string> initialize(http_transport& channel) {
    return run_task(io_, [](http_transport& c) -> asio::awaitable<result<std::string>> {
      if (auto opened = co_await c.open(); !opened) co_return std::move(opened).err();
      if (auto sent = co_await c.send(initialize_request(1)); !sent) co_return std::move(sent).err();
      auto answer = co_await receive_until_response(c, 1);
      if (!answer) co_return std::move(answer).err();
      const auto* response = response_in(*answer);
      if (!response->ok()) co_return make_error(errc::provider_error, "initialize failed");
      const auto& result = std::get<json::value>(response->outcome).as_object();
      std::string version(result.at("protocolVersion").as_string());
      c.set_protocol_version(version);
      if (auto sent = co_await c.send(notification_text("notifications/initialized")); !sent) {
        co_return std::move(sent).err();
      }
      co_return version;
    }(channel));
  }

  result<std::vector<rpc_message>> call(http_transport& channel, std::string message, std::int64_t id) {
    return run_task(io_,
                    [](http_transport& c, std::string text,
                       std::int64_t awaited) -> asio::awaitable<result<std::vector<rpc_message>>> {
                      if (auto sent = co_await c.send(std::move(text)); !sent) co_return std::move(sent).err();
                      co_return co_await receive_until_response(c, awaited);
                    }(channel, std::move(message), id));
  }

  asio::io_context io_;
  std::uint16_t port_ = 0;
  pid_t pid_ = -1;
  std::filesystem::path log_;
  std::unique_ptr<http_transport> channel_;
};

TEST_F(McpHttpEverything, InitializeKeepsTheSessionIdAndTheSessionThenListsTools) {
  auto& channel = open_channel();
  auto version = initialize(channel);
  ASSERT_TRUE(version) << version.err().message;
  EXPECT_EQ(*version, "2025-11-25");
  EXPECT_FALSE(channel.session_id().empty());
  // Answered only within the session: the server refuses a request without a valid session id.
  auto listed = call(channel, request_text(2, "tools/list"), 2);
  ASSERT_TRUE(listed) << listed.err().message;
  const auto* response = response_in(*listed);
  ASSERT_TRUE(response->ok());
  const auto& tools = std::get<json::value>(response->outcome).at("tools").as_array();
  bool has_echo = false;
  for (const auto& tool : tools) has_echo = has_echo || tool.at("name").as_string() == "echo";
  EXPECT_TRUE(has_echo) << json::serialize(tools);
}

TEST_F(McpHttpEverything, ProgressNotificationsOfAToolCallArriveBeforeItsResponse) {
  auto& channel = open_channel();
  ASSERT_TRUE(initialize(channel));
  const std::string progress_call = request_text(
      3, "tools/call", call_params("trigger-long-running-operation", {{"duration", 0.3}, {"steps", 3}}, "p-3"));
  auto seen = call(channel, progress_call, 3);
  ASSERT_TRUE(seen) << seen.err().message;
  EXPECT_EQ(progress_tokens(*seen), (std::vector<std::string>{R"("p-3")", R"("p-3")", R"("p-3")"}));
  const auto* response = response_in(*seen);
  ASSERT_TRUE(response->ok());
  EXPECT_TRUE(contains(json::serialize(std::get<json::value>(response->outcome)), "Long running operation completed"));
}

TEST_F(McpHttpEverything, TwoConcurrentCallsBothCompleteAndTheQuickOneDoesNotWaitForTheLongOne) {
  auto& channel = open_channel();
  ASSERT_TRUE(initialize(channel));
  const std::vector<std::string> calls{
      request_text(4, "tools/call",
                   call_params("trigger-long-running-operation", {{"duration", 2}, {"steps", 2}}, "slow")),
      request_text(5, "tools/call", call_params("echo", {{"message", "quick"}}))};
  auto order = run_task(
      io_,
      [](http_transport& c, std::vector<std::string> messages) -> asio::awaitable<result<std::vector<std::int64_t>>> {
        for (auto& message : messages) {
          if (auto sent = co_await c.send(std::move(message)); !sent) co_return std::move(sent).err();
        }
        std::vector<std::int64_t> answered;
        while (answered.size() < 2) {
          auto text = co_await c.receive();
          if (!text) co_return std::move(text).err();
          auto message = parse_message(*text);
          if (!message) co_return std::move(message).err();
          if (const auto* response = std::get_if<rpc_response>(&*message)) {
            if (!response->ok()) co_return make_error(errc::provider_error, "a call failed: " + *text);
            answered.push_back(std::get<std::int64_t>(response->id));
          }
        }
        co_return answered;
      }(channel, calls));
  ASSERT_TRUE(order) << order.err().message;
  EXPECT_EQ(*order, (std::vector<std::int64_t>{5, 4}));
}

TEST_F(McpHttpEverything, WhatTheServerSendsUnaskedArrivesOnTheGetStream) {
  auto& channel = open_channel();
  ASSERT_TRUE(initialize(channel));
  // The server then logs to the session every few seconds, tied to no request: only the GET
  // stream carries that once the tool call's own stream has ended with its response.
  auto toggled = call(channel, request_text(8, "tools/call", call_params("toggle-simulated-logging", {})), 8);
  ASSERT_TRUE(toggled) << toggled.err().message;
  ASSERT_TRUE(response_in(*toggled)->ok());
  auto unasked = run_task(io_, [](http_transport& c) -> asio::awaitable<result<rpc_notification>> {
    for (;;) {
      auto text = co_await c.receive();
      if (!text) co_return std::move(text).err();
      auto message = parse_message(*text);
      if (!message) co_return std::move(message).err();
      if (auto* note = std::get_if<rpc_notification>(&*message);
          note != nullptr && note->method == "notifications/message") {
        co_return std::move(*note);
      }
    }
  }(channel));
  ASSERT_TRUE(unasked) << unasked.err().message;
  EXPECT_TRUE(contains(json::serialize(unasked->params), "SessionId " + channel.session_id()))
      << json::serialize(unasked->params);
}

TEST_F(McpHttpEverything, CloseEndsTheSessionOnTheServer) {
  auto& channel = open_channel();
  ASSERT_TRUE(initialize(channel));
  const std::string session = channel.session_id();
  ASSERT_FALSE(session.empty());
  channel.close();
  // The GET stream and the DELETE finish: nothing of the transport is left running.
  io_.restart();
  io_.run();
  auto after = run_task(io_, channel.receive());
  ASSERT_FALSE(after);
  EXPECT_EQ(after.err().code, errc::cancelled);

  http::client_options plain;
  plain.proxy = http::proxy_settings{};
  http::client client(plain);
  http::request req;
  req.url = url();
  req.headers = {{"Content-Type", "application/json"},
                 {"Accept", "application/json, text/event-stream"},
                 {"Mcp-Session-Id", session},
                 {"MCP-Protocol-Version", "2025-11-25"}};
  req.body = request_text(6, "tools/list");
  auto refused = run_task(io_, client.send(req));
  ASSERT_TRUE(refused) << refused.err().message;
  EXPECT_TRUE(refused->status == 400 || refused->status == 404) << refused->status << " " << refused->body;
  EXPECT_TRUE(contains(refused->body, "ession")) << refused->body;
}

TEST_F(McpHttpEverything, AServerKilledMidStreamEndsReceiveWithAnErrorNamingIt) {
  auto& channel = open_channel();
  ASSERT_TRUE(initialize(channel));
  const std::string long_call = request_text(
      7, "tools/call", call_params("trigger-long-running-operation", {{"duration", 60}, {"steps", 600}}, "k"));
  auto first = run_task(io_, [](http_transport& c, std::string message) -> asio::awaitable<result<std::string>> {
    if (auto sent = co_await c.send(std::move(message)); !sent) co_return std::move(sent).err();
    co_return co_await c.receive();  // the first progress notification: the stream is flowing
  }(channel, long_call));
  ASSERT_TRUE(first) << first.err().message;
  EXPECT_TRUE(contains(*first, "notifications/progress")) << *first;

  ASSERT_EQ(::kill(pid_, SIGKILL), 0);
  parley::test::reaped_status(pid_);
  pid_ = -1;
  const error failure = run_task(io_, receive_until_error(channel));
  EXPECT_TRUE(contains(failure.message, "MCP server 'everything'")) << failure.message;
  EXPECT_NE(failure.code, errc::cancelled) << failure.message;
}

}  // namespace
}  // namespace parley::tools::mcp

// One configured server's lifecycle with scripted transports: one start for requests that come
// together, a restart after a crash only after the backoff, an expired HTTP session started afresh
// at once, and stop() letting the next use start it again.
#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <string>
#include <vector>

#include "mcp_fake_server.hpp"
#include "parley/tools/mcp/server_runtime.hpp"

namespace parley::tools::mcp {
namespace {

namespace asio = boost::asio;
namespace json = boost::json;
using testing::fake_server;
using testing::fake_transport;

class McpRuntime : public ::testing::Test {
 protected:
  std::shared_ptr<server_runtime> make(bool http = false) {
    config::mcp_server_config server;
    server.id = "fake";
    server.command = "unused";
    if (http) {
      server.transport = config::mcp_transport::streamable_http;
      server.url = "http://127.0.0.1:9/mcp";
      server.session_id = "abc";
    }
    runtime_settings settings;
    settings.workspace = ".";
    settings.log = [this](const std::string& line) { logged.push_back(line); };
    settings.make = [this](asio::any_io_executor executor, const std::string&,
                           const server_launch& plan) -> result<std::unique_ptr<transport>> {
      plans.push_back(plan);
      auto server = std::make_shared<fake_server>(executor);
      server->on_message = [raw = server.get()](const json::object& message) {
        const auto method = message.contains("method") ? message.at("method").as_string() : "";
        if (method == "initialize") raw->answer_initialize(message);
        if (method == "tools/call") raw->reply(message, json::object{{"content", json::array{}}});
      };
      servers.push_back(server);
      return std::unique_ptr<transport>(std::make_unique<fake_transport>(server));
    };
    return server_runtime::create(io.get_executor(), server, settings);
  }

  template <class Body>
  void run(const std::shared_ptr<server_runtime>& runtime, Body body) {
    asio::co_spawn(
        io,
        [&]() -> asio::awaitable<void> {
          co_await body();
          runtime->stop("the test is over");
        },
        asio::detached);
    io.run();
  }

  asio::io_context io;
  std::vector<std::shared_ptr<fake_server>> servers;
  std::vector<server_launch> plans;
  std::vector<std::string> logged;
};

asio::awaitable<void> call_into(std::shared_ptr<server_runtime> runtime, result<tool_call_result>& out) {
  out = co_await runtime->call_tool("t", {});
}

TEST_F(McpRuntime, RequestsThatComeTogetherShareOneStart) {
  auto runtime = make();
  result<tool_call_result> first = make_error(errc::internal, "not run");
  result<tool_call_result> second = make_error(errc::internal, "not run");
  run(runtime, [&]() -> asio::awaitable<void> {
    asio::co_spawn(io, call_into(runtime, first), asio::detached);
    co_await call_into(runtime, second);
  });
  EXPECT_TRUE(first) << first.err().message;
  EXPECT_TRUE(second) << second.err().message;
  EXPECT_EQ(servers.size(), 1u);
}

TEST_F(McpRuntime, ACrashedServerIsStartedAgainOnlyAfterTheBackoffAndStopAllowsAStartAtOnce) {
  auto runtime = make();
  result<tool_call_result> before = make_error(errc::internal, "not run");
  result<tool_call_result> during = make_error(errc::internal, "not run");
  result<tool_call_result> after_stop = make_error(errc::internal, "not run");
  run(runtime, [&]() -> asio::awaitable<void> {
    before = co_await runtime->call_tool("t", {});
    servers.back()->die("MCP server 'fake' exited with status 9");
    co_await asio::post(io, asio::use_awaitable);  // the reader sees the end
    co_await asio::post(io, asio::use_awaitable);
    during = co_await runtime->call_tool("t", {});
    runtime->stop("reconfigured");
    after_stop = co_await runtime->call_tool("t", {});
  });
  ASSERT_TRUE(before) << before.err().message;
  ASSERT_FALSE(during);
  EXPECT_NE(during.err().message.find("MCP server 'fake' is restarting after: MCP server 'fake' exited with status 9"),
            std::string::npos)
      << during.err().message;
  EXPECT_TRUE(after_stop) << after_stop.err().message;
  EXPECT_EQ(servers.size(), 2u);
}

TEST_F(McpRuntime, AnExpiredHttpSessionIsStartedAfreshAtOnceWithoutTheConfiguredSessionId) {
  auto runtime = make(true);
  result<tool_call_result> before = make_error(errc::internal, "not run");
  result<tool_call_result> after = make_error(errc::internal, "not run");
  run(runtime, [&]() -> asio::awaitable<void> {
    before = co_await runtime->call_tool("t", {});
    servers.back()->die("MCP server 'fake' does not know session abc (404)", errc::not_found);
    co_await asio::post(io, asio::use_awaitable);
    co_await asio::post(io, asio::use_awaitable);
    after = co_await runtime->call_tool("t", {});
  });
  ASSERT_TRUE(before) << before.err().message;
  EXPECT_TRUE(after) << after.err().message;
  ASSERT_EQ(plans.size(), 2u);
  EXPECT_EQ(plans[0].session_id, "abc");
  EXPECT_EQ(plans[1].session_id, "");
  EXPECT_TRUE(std::any_of(logged.begin(), logged.end(), [](const std::string& line) {
    return line.find("its session expired") != std::string::npos;
  }));
}

}  // namespace
}  // namespace parley::tools::mcp

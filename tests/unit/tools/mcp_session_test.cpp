// The MCP client session against a scripted in-memory server: the handshake and its revisions,
// and each kind of bad input a server may send (tests/mcp runs the real servers).
#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <string>
#include <vector>

#include "mcp_fake_server.hpp"
#include "parley/tools/mcp/session.hpp"

namespace parley::tools::mcp {
namespace {

namespace asio = boost::asio;
namespace json = boost::json;
using testing::fake_server;
using testing::fake_transport;
using namespace std::chrono_literals;

class McpSession : public ::testing::Test {
 protected:
  McpSession() : server(std::make_shared<fake_server>(io.get_executor())) {}

  std::shared_ptr<session> make(session_settings settings = {}) {
    settings.server_id = "fake";
    settings.log = [this](const std::string& line) { logged.push_back(line); };
    if (settings.workspace.empty()) settings.workspace = "/work/my space";
    return session::create(io.get_executor(), std::make_unique<fake_transport>(server), std::move(settings));
  }

  // Runs `body` on the loop to its end, lets what the client queued reach the server, then closes
  // the session so the loop runs out.
  template <class Body>
  void run(const std::shared_ptr<session>& client, Body body) {
    asio::co_spawn(
        io,
        [&]() -> asio::awaitable<void> {
          co_await body();
          for (int i = 0; i < 10; ++i) co_await asio::post(io, asio::use_awaitable);
          client->close();
        },
        asio::detached);
    io.run();
  }

  // A server that answers tools/call with `result` (by default one text block).
  void answer_calls(json::value result = json::object{
                        {"content", json::array{json::object{{"type", "text"}, {"text", "done"}}}}}) {
    server->on_message = [this, result](const json::object& message) {
      const auto method = message.contains("method") ? message.at("method").as_string() : "";
      if (method == "initialize") server->answer_initialize(message);
      if (method == "tools/call") server->reply(message, result);
    };
  }

  asio::io_context io;
  std::shared_ptr<fake_server> server;
  std::vector<std::string> logged;
};

TEST_F(McpSession, TheHandshakeOffersTheLatestRevisionNamesParleyAndOffersRoots) {
  auto client = make();
  result<server_identity> started = make_error(errc::internal, "not run");
  run(client, [&]() -> asio::awaitable<void> { started = co_await client->start(); });
  ASSERT_TRUE(started) << started.err().message;
  EXPECT_EQ(started->protocol_version, "2025-11-25");
  EXPECT_EQ(started->name, "fake");
  EXPECT_TRUE(started->has_tools);
  ASSERT_GE(server->sent.size(), 2u);
  const auto& init = server->sent[0];
  EXPECT_EQ(init.at("method"), "initialize");
  EXPECT_EQ(init.at("params").at("protocolVersion"), "2025-11-25");
  EXPECT_EQ(init.at("params").at("clientInfo").at("name"), "parley");
  EXPECT_TRUE(init.at("params").at("capabilities").as_object().contains("roots"));
  EXPECT_EQ(server->sent[1].at("method"), "notifications/initialized");
  EXPECT_FALSE(server->sent[1].contains("id"));
}

TEST_F(McpSession, AnOlderRevisionTheSdkStillSpeaksIsAccepted) {
  server->version = "2024-11-05";
  auto client = make();
  result<server_identity> started = make_error(errc::internal, "not run");
  run(client, [&]() -> asio::awaitable<void> { started = co_await client->start(); });
  ASSERT_TRUE(started) << started.err().message;
  EXPECT_EQ(started->protocol_version, "2024-11-05");
}

TEST_F(McpSession, AnUnsupportedRevisionIsRefusedNamingTheServerAndBothRevisions) {
  server->version = "2023-01-01";
  auto client = make();
  result<server_identity> started = make_error(errc::internal, "not run");
  run(client, [&]() -> asio::awaitable<void> { started = co_await client->start(); });
  ASSERT_FALSE(started);
  EXPECT_NE(started.err().message.find("'fake'"), std::string::npos) << started.err().message;
  EXPECT_NE(started.err().message.find("2023-01-01"), std::string::npos);
  EXPECT_NE(started.err().message.find("2025-11-25"), std::string::npos);
  EXPECT_FALSE(client->alive());
  EXPECT_TRUE(server->closed);
  EXPECT_TRUE(server->sent_with("notifications/initialized").empty());
}

TEST_F(McpSession, AServerThatNeverAnswersInitializeFailsTheStartAfterStartTimeout) {
  server->on_message = [](const json::object&) {};
  session_settings settings;
  settings.start_timeout = 100ms;
  auto client = make(settings);
  result<server_identity> started = make_error(errc::internal, "not run");
  run(client, [&]() -> asio::awaitable<void> { started = co_await client->start(); });
  ASSERT_FALSE(started);
  EXPECT_NE(started.err().message.find("MCP server 'fake' did not answer initialize within 100 ms (start_timeout)"),
            std::string::npos)
      << started.err().message;
  EXPECT_TRUE(server->closed);
}

TEST_F(McpSession, AConnectionThatNeverOpensFailsTheStartAfterStartTimeout) {
  server->open_hangs = true;
  session_settings settings;
  settings.start_timeout = 100ms;
  auto client = make(settings);
  result<server_identity> started = make_error(errc::internal, "not run");
  run(client, [&]() -> asio::awaitable<void> { started = co_await client->start(); });
  ASSERT_FALSE(started);
  EXPECT_NE(started.err().message.find("did not start within 100 ms"), std::string::npos) << started.err().message;
}

TEST_F(McpSession, InvalidJsonIsLoggedOnceNamingTheServerAndSkipped) {
  server->on_message = [this](const json::object& message) {
    const auto method = message.contains("method") ? message.at("method").as_string() : "";
    if (method == "initialize") server->answer_initialize(message);
    if (method == "tools/call") {
      server->push("this is not json {");
      server->push("[1, 2]");
      server->push(R"({"jsonrpc": "1.0", "method": "x"})");
      server->reply(message, json::object{{"content", json::array{}}});
    }
  };
  auto client = make();
  result<tool_call_result> called = make_error(errc::internal, "not run");
  run(client, [&]() -> asio::awaitable<void> {
    (void)co_await client->start();
    called = co_await client->call_tool("echo", {});
  });
  ASSERT_TRUE(called) << called.err().message;
  ASSERT_EQ(logged.size(), 1u);
  EXPECT_NE(logged[0].find("server 'fake'"), std::string::npos) << logged[0];
  EXPECT_NE(logged[0].find("not valid JSON-RPC"), std::string::npos) << logged[0];
}

TEST_F(McpSession, AResponseWithNeitherResultNorErrorFailsItsCallAtOnce) {
  server->on_message = [this](const json::object& message) {
    const auto method = message.contains("method") ? message.at("method").as_string() : "";
    if (method == "initialize") server->answer_initialize(message);
    if (method == "tools/call") {
      server->push(json::serialize(json::object{{"jsonrpc", "2.0"}, {"id", message.at("id")}}));
    }
  };
  session_settings settings;
  settings.call_timeout = 3600s;  // the failure must not wait for the deadline
  auto client = make(settings);
  result<tool_call_result> called = make_error(errc::internal, "not run");
  bool alive_after = false;
  run(client, [&]() -> asio::awaitable<void> {
    (void)co_await client->start();
    called = co_await client->call_tool("echo", {});
    alive_after = client->alive();
  });
  ASSERT_FALSE(called);
  EXPECT_NE(called.err().message.find("exactly one of 'result' and 'error'"), std::string::npos)
      << called.err().message;
  EXPECT_TRUE(alive_after);  // the bad message cost only its call
}

TEST_F(McpSession, AResponseToAnUnknownIdIsSkipped) {
  server->on_message = [this](const json::object& message) {
    const auto method = message.contains("method") ? message.at("method").as_string() : "";
    if (method == "initialize") server->answer_initialize(message);
    if (method == "tools/call") {
      server->push(R"({"jsonrpc": "2.0", "id": 999, "result": {}})");
      server->push(R"({"jsonrpc": "2.0", "id": "other", "result": {}})");
      server->reply(message, json::object{{"content", json::array{}}});
    }
  };
  auto client = make();
  result<tool_call_result> called = make_error(errc::internal, "not run");
  run(client, [&]() -> asio::awaitable<void> {
    (void)co_await client->start();
    called = co_await client->call_tool("echo", {});
  });
  EXPECT_TRUE(called) << called.err().message;
}

TEST_F(McpSession, AFloodOfNotificationsIsDroppedBeyondTheBudgetAndTheCallIsStillAnswered) {
  int progress_seen = 0;
  server->on_message = [this](const json::object& message) {
    const auto method = message.contains("method") ? message.at("method").as_string() : "";
    if (method == "initialize") server->answer_initialize(message);
    if (method == "tools/call") {
      const auto token = message.at("params").at("_meta").at("progressToken");
      for (int i = 0; i < 5000; ++i) {
        server->push(
            json::serialize(json::object{{"jsonrpc", "2.0"},
                                         {"method", "notifications/progress"},
                                         {"params", json::object{{"progressToken", token}, {"progress", i}}}}));
        server->push(json::serialize(
            json::object{{"jsonrpc", "2.0"},
                         {"method", "notifications/message"},
                         {"params", json::object{{"level", "info"}, {"data", "line " + std::to_string(i)}}}}));
      }
      server->reply(message, json::object{{"content", json::array{}}});
    }
  };
  session_settings settings;
  settings.notification_budget = 100;
  auto client = make(settings);
  result<tool_call_result> called = make_error(errc::internal, "not run");
  run(client, [&]() -> asio::awaitable<void> {
    (void)co_await client->start();
    call_options options;
    options.on_progress = [&](const progress_update&) { ++progress_seen; };
    called = co_await client->call_tool("slow", {}, options);
  });
  ASSERT_TRUE(called) << called.err().message;
  EXPECT_GE(client->dropped_messages(), 9000u);
  EXPECT_LE(progress_seen, 100 * 2);  // at most the budget of each one-second window it spanned
  EXPECT_LE(logged.size(), 25u);      // the message lines are bounded too, and the flood is said once
}

TEST_F(McpSession, AResultOverTheLimitIsAnErrorNotTheContent) {
  answer_calls(
      json::object{{"content", json::array{json::object{{"type", "text"}, {"text", std::string(5000, 'x')}}}}});
  session_settings settings;
  settings.max_result_bytes = 1000;
  auto client = make(settings);
  result<tool_call_result> called = make_error(errc::internal, "not run");
  run(client, [&]() -> asio::awaitable<void> {
    (void)co_await client->start();
    called = co_await client->call_tool("big", {});
  });
  ASSERT_FALSE(called);
  EXPECT_EQ(called.err().code, errc::limit_exceeded);
  EXPECT_NE(called.err().message.find("more than the limit of 1000 (max_result_bytes)"), std::string::npos)
      << called.err().message;
}

TEST_F(McpSession, AServerDyingMidCallFailsThePendingCallWithTheTransportsError) {
  server->on_message = [this](const json::object& message) {
    const auto method = message.contains("method") ? message.at("method").as_string() : "";
    if (method == "initialize") server->answer_initialize(message);
    if (method == "tools/call") server->die("MCP server 'fake' exited with status 3");
  };
  auto client = make();
  result<tool_call_result> called = make_error(errc::internal, "not run");
  run(client, [&]() -> asio::awaitable<void> {
    (void)co_await client->start();
    called = co_await client->call_tool("crash", {});
  });
  ASSERT_FALSE(called);
  EXPECT_EQ(called.err().message, "MCP server 'fake' exited with status 3");
  EXPECT_FALSE(client->alive());
}

TEST_F(McpSession, ACallWithoutAnAnswerTimesOutAndIsCancelledAtTheServer) {
  server->on_message = [this](const json::object& message) {
    if (message.contains("method") && message.at("method") == "initialize") server->answer_initialize(message);
  };
  session_settings settings;
  settings.call_timeout = 50ms;
  auto client = make(settings);
  result<tool_call_result> called = make_error(errc::internal, "not run");
  run(client, [&]() -> asio::awaitable<void> {
    (void)co_await client->start();
    called = co_await client->call_tool("silent", {});
  });
  ASSERT_FALSE(called);
  EXPECT_NE(called.err().message.find("did not answer tools/call within 50 ms (call_timeout)"), std::string::npos)
      << called.err().message;
  const auto cancels = server->sent_with("notifications/cancelled");
  ASSERT_EQ(cancels.size(), 1u);
  EXPECT_EQ(cancels[0].at("params").at("requestId"), server->sent_with("tools/call")[0].at("id"));
  EXPECT_EQ(server->sent_with("tools/call").size(), 1u);
}

TEST_F(McpSession, ACancellationSlotCancelsTheCall) {
  server->on_message = [this](const json::object& message) {
    if (message.contains("method") && message.at("method") == "initialize") server->answer_initialize(message);
  };
  asio::cancellation_signal stop;
  auto client = make();
  result<tool_call_result> called = make_error(errc::internal, "not run");
  asio::steady_timer soon(io, 20ms);
  soon.async_wait([&](boost::system::error_code) { stop.emit(asio::cancellation_type::terminal); });
  run(client, [&]() -> asio::awaitable<void> {
    (void)co_await client->start();
    call_options options;
    options.cancel = stop.slot();
    called = co_await client->call_tool("silent", {}, options);
  });
  ASSERT_FALSE(called);
  EXPECT_EQ(called.err().code, errc::cancelled);
  EXPECT_EQ(server->sent_with("notifications/cancelled").size(), 1u);
}

TEST_F(McpSession, TheServersRequestsAreAnsweredPingRootsAndMethodNotFound) {
  server->on_message = [this](const json::object& message) {
    const auto method = message.contains("method") ? message.at("method").as_string() : "";
    if (method == "initialize") server->answer_initialize(message);
    if (method == "notifications/initialized") {
      server->push(R"({"jsonrpc": "2.0", "id": "p", "method": "ping"})");
      server->push(R"({"jsonrpc": "2.0", "id": "r", "method": "roots/list"})");
      server->push(R"({"jsonrpc": "2.0", "id": "s", "method": "sampling/createMessage", "params": {}})");
    }
    if (method == "tools/call") server->reply(message, json::object{{"content", json::array{}}});
  };
  auto client = make();
  run(client, [&]() -> asio::awaitable<void> {
    (void)co_await client->start();
    (void)co_await client->call_tool("x", {});  // by then the three requests were answered
  });
  std::map<std::string, json::object> answers;
  for (const auto& message : server->sent) {
    if (message.contains("id") && message.at("id").is_string())
      answers[std::string(message.at("id").as_string())] = message;
  }
  ASSERT_EQ(answers.size(), 3u);
  EXPECT_EQ(answers["p"].at("result"), json::object{});
  const auto& roots = answers["r"].at("result").at("roots").as_array();
  ASSERT_EQ(roots.size(), 1u);
  EXPECT_EQ(roots[0].at("uri"), "file:///work/my%20space");
  EXPECT_EQ(answers["s"].at("error").at("code"), -32601);
}

TEST_F(McpSession, ListsFollowNextCursorToTheEndAndStopAtThePageBound) {
  server->on_message = [this](const json::object& message) {
    const auto method = message.contains("method") ? message.at("method").as_string() : "";
    if (method == "initialize") server->answer_initialize(message);
    if (method != "tools/list") return;
    const auto* cursor = message.contains("params") ? message.at("params").as_object().if_contains("cursor") : nullptr;
    const int page = cursor == nullptr ? 0 : std::stoi(std::string(cursor->as_string()));
    json::object result{{"tools", json::array{json::object{{"name", "t" + std::to_string(page)},
                                                           {"inputSchema", json::object{{"type", "object"}}}}}}};
    result["nextCursor"] = std::to_string(page + 1);  // never ends
    server->reply(message, result);
  };
  session_settings settings;
  settings.max_pages = 5;
  auto client = make(settings);
  result<std::vector<tool_info>> listed = make_error(errc::internal, "not run");
  run(client, [&]() -> asio::awaitable<void> {
    (void)co_await client->start();
    listed = co_await client->list_tools();
  });
  ASSERT_TRUE(listed) << listed.err().message;
  ASSERT_EQ(listed->size(), 5u);
  EXPECT_EQ((*listed)[4].name, "t4");
  ASSERT_EQ(logged.size(), 1u);
  EXPECT_NE(logged[0].find("stopped after 5 pages"), std::string::npos);
}

TEST_F(McpSession, ABadToolEntryIsLeftOutAndNamedTheOthersAreListed) {
  server->on_message = [this](const json::object& message) {
    const auto method = message.contains("method") ? message.at("method").as_string() : "";
    if (method == "initialize") server->answer_initialize(message);
    if (method == "tools/list") {
      server->reply(message, json::parse(R"({"tools": [
          {"name": "good", "inputSchema": {"type": "object"}},
          {"name": 7, "inputSchema": {}},
          {"name": "no_schema"}]})"));
    }
  };
  auto client = make();
  result<std::vector<tool_info>> listed = make_error(errc::internal, "not run");
  run(client, [&]() -> asio::awaitable<void> {
    (void)co_await client->start();
    listed = co_await client->list_tools();
  });
  ASSERT_TRUE(listed) << listed.err().message;
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_EQ((*listed)[0].name, "good");
  ASSERT_EQ(logged.size(), 2u);
  EXPECT_NE(logged[0].find("tools[1].name"), std::string::npos) << logged[0];
  EXPECT_NE(logged[1].find("tools[2].inputSchema"), std::string::npos) << logged[1];
}

TEST_F(McpSession, ProgressReachesTheCallsCallbackAndListChangedBumpsTheVersion) {
  std::vector<progress_update> seen;
  server->on_message = [this](const json::object& message) {
    const auto method = message.contains("method") ? message.at("method").as_string() : "";
    if (method == "initialize") server->answer_initialize(message);
    if (method == "tools/call") {
      const auto token = message.at("params").at("_meta").at("progressToken");
      server->push(json::serialize(json::object{
          {"jsonrpc", "2.0"},
          {"method", "notifications/progress"},
          {"params", json::object{{"progressToken", token}, {"progress", 1}, {"total", 2}, {"message", "half"}}}}));
      server->push(R"({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})");
      server->push(R"({"jsonrpc": "2.0", "method": "notifications/unknown/thing"})");
      server->reply(message, json::object{{"content", json::array{}}});
    }
  };
  auto client = make();
  std::uint64_t version_before = 0;
  run(client, [&]() -> asio::awaitable<void> {
    (void)co_await client->start();
    version_before = client->list_version(list_kind::tools);
    call_options options;
    options.on_progress = [&](const progress_update& update) { seen.push_back(update); };
    (void)co_await client->call_tool("slow", {}, options);
  });
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].progress, 1);
  EXPECT_EQ(seen[0].total, 2);
  EXPECT_EQ(seen[0].message, "half");
  EXPECT_EQ(client->list_version(list_kind::tools), version_before + 1);
  EXPECT_EQ(client->list_version(list_kind::prompts), 0u);
}

TEST_F(McpSession, ToolResultsAreReadStrictlyIntoTypedBlocks) {
  answer_calls(json::parse(R"({"content": [
      {"type": "text", "text": "hi", "annotations": {"audience": ["user"]}},
      {"type": "image", "data": "AAAA", "mimeType": "image/png"},
      {"type": "audio", "data": "BBBB", "mimeType": "audio/wav"},
      {"type": "resource_link", "uri": "file:///a.txt", "name": "a", "mimeType": "text/plain"},
      {"type": "resource", "resource": {"uri": "test://r", "text": "inside"}}],
      "isError": true, "structuredContent": {"sum": 3}})"));
  auto client = make();
  result<tool_call_result> called = make_error(errc::internal, "not run");
  run(client, [&]() -> asio::awaitable<void> {
    (void)co_await client->start();
    called = co_await client->call_tool("all", {});
  });
  ASSERT_TRUE(called) << called.err().message;
  ASSERT_EQ(called->content.size(), 5u);
  EXPECT_EQ(called->content[0].text, "hi");
  EXPECT_EQ(called->content[1].what, content_block::kind::image);
  EXPECT_EQ(called->content[2].mime_type, "audio/wav");
  EXPECT_EQ(called->content[3].uri, "file:///a.txt");
  EXPECT_EQ(called->content[4].text, "inside");
  EXPECT_TRUE(called->is_error);
  EXPECT_EQ(called->structured_content->at("sum"), 3);
}

TEST_F(McpSession, AContentBlockOfAnUnknownTypeOrMissingFieldIsAnErrorNamingIt) {
  answer_calls(json::parse(R"({"content": [{"type": "text", "text": "ok"}, {"type": "image", "data": "AA"}]})"));
  auto client = make();
  result<tool_call_result> called = make_error(errc::internal, "not run");
  run(client, [&]() -> asio::awaitable<void> {
    (void)co_await client->start();
    called = co_await client->call_tool("bad", {});
  });
  ASSERT_FALSE(called);
  EXPECT_NE(called.err().message.find("result.content[1].mimeType"), std::string::npos) << called.err().message;
}

}  // namespace
}  // namespace parley::tools::mcp

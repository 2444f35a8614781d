// The MCP client against the real reference servers over stdio (tests/mcp, installed by
// scripts/setup.sh): server-everything, server-filesystem, and a server made with the official SDK
// that kills itself mid-call (tests/mcp/crashing_server.mjs). Through the team's pool of servers,
// as the engine uses it: lazy start, tool catalogs with Dominds' names, calls, resources, crashes.
#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <thread>

#include <boost/asio/ip/tcp.hpp>

#include <fcntl.h>
#include <signal.h>

#include "parley/tools/mcp/mcp_servers.hpp"
#include "parley/tools/mcp/resource_tools.hpp"
#include "support/child_process.hpp"

namespace parley::tools::mcp {
namespace {

namespace asio = boost::asio;
namespace json = boost::json;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

const std::string kModules = std::string(PARLEY_SOURCE_DIR) + "/tests/mcp/node_modules/@modelcontextprotocol/";

config::mcp_server_config node_server(std::string id, std::vector<std::string> args) {
  config::mcp_server_config server;
  server.id = std::move(id);
  server.command = "node";  // found on PATH, which a server's environment inherits
  server.args = std::move(args);
  server.start_timeout = 60s;
  server.call_timeout = 60s;
  return server;
}

config::mcp_server_config everything(std::string id = "everything") {
  return node_server(std::move(id), {kModules + "server-everything/dist/index.js", "stdio"});
}

class McpRealServers : public ::testing::Test {
 protected:
  McpRealServers() {
    std::random_device device;
    workspace = fs::temp_directory_path() / ("parley-mcp-" + std::to_string(device()));
    fs::create_directories(workspace);
  }
  ~McpRealServers() override { fs::remove_all(workspace); }

  mcp_servers& pool(std::vector<config::mcp_server_config> servers) {
    config::mcp_config config;
    config.servers = std::move(servers);
    pool_settings settings;
    settings.workspace = workspace;
    settings.log = [this](const std::string& line) { logged.push_back(line); };
    settings.reserved = [](const std::string& name) {
      return name == "read_file" ? std::string("the built-in tool 'read_file'") : std::string();
    };
    settings.env = [this](const std::string& name) -> std::optional<std::string> {
      if (const auto found = extra_env.find(name); found != extra_env.end()) return found->second;
      return process_env(name);
    };
    servers_ = std::make_unique<mcp_servers>(io.get_executor(), config, std::move(settings));
    return *servers_;
  }

  // Runs `body` to its end, then stops the servers so that the loop runs out.
  template <class Body>
  void run(Body body) {
    asio::co_spawn(
        io,
        [&]() -> asio::awaitable<void> {
          co_await body();
          servers_->stop_all("the test is over");
        },
        asio::detached);
    io.run();
  }

  asio::awaitable<tool_outcome> call(std::string server, std::string name, std::string args,
                                     bool takes_images = false) {
    const std::vector<std::string> ids{server};
    auto tool = servers_->find_tool(ids, name);
    if (!tool) co_return tool_outcome{false, "no tool " + name};
    tool_context context;
    context.workspace = workspace;
    context.takes_images = takes_images;
    co_return co_await tool->invoke(json::parse(args).as_object(), context);
  }

  std::vector<std::string> names(const std::vector<std::string>& ids) const {
    std::vector<std::string> out;
    for (const auto& spec : servers_->tool_specs(ids)) out.push_back(spec.name);
    return out;
  }

  asio::io_context io;
  fs::path workspace;
  std::vector<std::string> logged;
  std::map<std::string, std::string> extra_env;
  std::unique_ptr<mcp_servers> servers_;
};

bool has(const std::vector<std::string>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

TEST_F(McpRealServers, EverythingStartsOnFirstUseAndItsToolsAreCalled) {
  auto& servers = pool({everything()});
  EXPECT_TRUE(servers.tool_specs({"everything"}).empty());  // nothing started yet
  tool_outcome echoed, summed, structured, imaged, unseen, slow, roots;
  run([&]() -> asio::awaitable<void> {
    const std::vector<std::string> ids{"everything"};
    co_await servers.prepare(ids);
    echoed = co_await call("everything", "echo", R"({"message": "hello"})");
    summed = co_await call("everything", "get-sum", R"({"a": 2, "b": 40})");
    structured = co_await call("everything", "get-structured-content", R"({"location": "Chicago"})");
    imaged = co_await call("everything", "get-tiny-image", "{}", true);
    unseen = co_await call("everything", "get-tiny-image", "{}", false);
    slow = co_await call("everything", "trigger-long-running-operation", R"({"duration": 1, "steps": 2})");
    roots = co_await call("everything", "get-roots-list", "{}");
  });
  const auto listed = names({"everything"});
  // 13, and get-roots-list, which it offers to clients that declare roots, as Parley does.
  EXPECT_EQ(listed.size(), 14u) << "every tool of server-everything passes the normaliser and the checks";
  EXPECT_TRUE(has(listed, "get-roots-list"));
  EXPECT_NE(roots.content.find("file://" + workspace.string()), std::string::npos) << roots.content;
  EXPECT_TRUE(has(listed, "echo"));
  EXPECT_TRUE(echoed.ok) << echoed.content;
  EXPECT_EQ(echoed.content, "Echo: hello");
  EXPECT_TRUE(summed.ok) << summed.content;
  EXPECT_NE(summed.content.find("42"), std::string::npos) << summed.content;
  EXPECT_TRUE(structured.ok) << structured.content;
  EXPECT_NE(structured.content.find("temperature"), std::string::npos) << structured.content;
  ASSERT_EQ(imaged.media.size(), 1u) << imaged.content;
  EXPECT_EQ(imaged.media[0].mime, "image/png");
  EXPECT_TRUE(unseen.media.empty());
  EXPECT_NE(unseen.content.find("[image image/png"), std::string::npos) << unseen.content;
  EXPECT_TRUE(slow.ok) << slow.content;
  EXPECT_NE(slow.content.find("completed"), std::string::npos) << slow.content;
}

TEST_F(McpRealServers, ProgressOfALongRunningToolReachesTheCallsCallback) {
  auto& servers = pool({everything()});
  std::vector<progress_update> seen;
  result<tool_call_result> called = make_error(errc::internal, "not run");
  run([&]() -> asio::awaitable<void> {
    auto server = servers.runtime("everything");
    call_options options;
    options.on_progress = [&](const progress_update& update) { seen.push_back(update); };
    json::object args{{"duration", 1}, {"steps", 3}};
    called = co_await server->call_tool("trigger-long-running-operation", std::move(args), options);
  });
  ASSERT_TRUE(called) << called.err().message;
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen.back().progress, 3);
  EXPECT_EQ(seen.back().total, 3);
}

TEST_F(McpRealServers, ResourcesAreListedWithDomindsIdsAndFetchedStaticAndFromATemplate) {
  auto& servers = pool({everything()});
  auto list =
      make_list_resources_tool(servers, [](std::string_view) { return std::vector<std::string>{"everything"}; });
  auto fetch =
      make_fetch_resource_tool(servers, [](std::string_view) { return std::vector<std::string>{"everything"}; });
  tool_outcome listed, fetched, templated, missing_argument, hidden;
  run([&]() -> asio::awaitable<void> {
    tool_context context;
    const auto query = json::parse(R"({"query": "architecture"})").as_object();
    listed = co_await list->invoke(query, context);
    const auto document = json::parse(R"({"resourceId": "demo_resource_static_document_architecture_md"})").as_object();
    fetched = co_await fetch->invoke(document, context);
    const auto seven =
        json::parse(R"({"resourceId": "demo_resource_dynamic_text_resourceId", "arguments": {"resourceId": "7"}})")
            .as_object();
    templated = co_await fetch->invoke(seven, context);
    const auto without = json::parse(R"({"resourceId": "demo_resource_dynamic_text_resourceId"})").as_object();
    missing_argument = co_await fetch->invoke(without, context);
    const auto other = json::parse(R"({"serverId": "other"})").as_object();
    hidden = co_await list->invoke(other, context);
  });
  EXPECT_TRUE(listed.ok) << listed.content;
  EXPECT_NE(listed.content.find("- demo_resource_static_document_architecture_md\n  kind: resource\n  serverId: "
                                "everything\n  uri: demo://resource/static/document/architecture.md"),
            std::string::npos)
      << listed.content;
  EXPECT_TRUE(fetched.ok) << fetched.content;
  EXPECT_GT(fetched.content.size(), 100u);
  EXPECT_TRUE(templated.ok) << templated.content;
  EXPECT_NE(templated.content.find("7"), std::string::npos) << templated.content;
  EXPECT_FALSE(missing_argument.ok);
  EXPECT_NE(missing_argument.content.find("missing resource template argument 'resourceId'"), std::string::npos);
  EXPECT_FALSE(hidden.ok);
  EXPECT_NE(hidden.content.find("you were not given MCP server 'other'"), std::string::npos);
}

TEST_F(McpRealServers, FilesystemReadsAndListsATempFolder) {
  fs::create_directories(workspace / "notes");
  std::ofstream(workspace / "notes" / "a.txt") << "first line\nsecond line\n";
  auto& servers = pool({node_server("files", {kModules + "server-filesystem/dist/index.js", workspace.string()})});
  tool_outcome read, listed;
  run([&]() -> asio::awaitable<void> {
    const std::vector<std::string> ids{"files"};
    co_await servers.prepare(ids);
    const std::string file = json::serialize(json::object{{"path", (workspace / "notes" / "a.txt").string()}});
    read = co_await call("files", "read_text_file", file);
    const std::string folder = json::serialize(json::object{{"path", (workspace / "notes").string()}});
    listed = co_await call("files", "list_directory", folder);
  });
  EXPECT_TRUE(read.ok) << read.content;
  EXPECT_EQ(read.content, "first line\nsecond line\n");
  EXPECT_TRUE(listed.ok) << listed.content;
  EXPECT_NE(listed.content.find("[FILE] a.txt"), std::string::npos) << listed.content;
  // Its read_file collides with the built-in tool of that name: left out, both named.
  EXPECT_FALSE(has(names({"files"}), "read_file"));
  EXPECT_TRUE(std::any_of(logged.begin(), logged.end(), [](const std::string& line) {
    return line.find(
               "MCP server 'files': tool 'read_file' is left out: the name 'read_file' is taken by the "
               "built-in tool 'read_file'") != std::string::npos;
  }));
}

TEST_F(McpRealServers, ATakenNameIsRefusedToTheLaterServerAndTransformsAndFiltersApply) {
  auto first = everything("first");
  first.tools.whitelist = {"echo", "get-s*"};
  auto second = everything("second");
  second.tools.blacklist = {"*"};
  second.tools.whitelist = {"echo", "get-env"};
  auto third = everything("third");
  third.transform = {config::mcp_name_transform{config::mcp_name_transform::kind::prefix_add, "", "ev_"}};
  third.tools.whitelist = {"echo"};
  auto& servers = pool({first, second, third});
  run([&]() -> asio::awaitable<void> {
    const std::vector<std::string> ids{"first", "second", "third"};
    co_await servers.prepare(ids);
  });
  const auto firsts = names({"first"});
  EXPECT_EQ(firsts, (std::vector<std::string>{"echo", "get-structured-content", "get-sum"}));
  EXPECT_EQ(names({"second"}), std::vector<std::string>{"get-env"});
  EXPECT_EQ(names({"third"}), std::vector<std::string>{"ev_echo"});
  EXPECT_TRUE(std::any_of(logged.begin(), logged.end(), [](const std::string& line) {
    return line.find(
               "MCP server 'second': tool 'echo' is left out: the name 'echo' is taken by a tool of MCP "
               "server 'first'") != std::string::npos;
  }));
}

TEST_F(McpRealServers, AServerGetsItsConfiguredEnvironmentAndNotParleysSecrets) {
  extra_env["PARLEY_TEST_MCP_TOKEN"] = "token-value";
  extra_env["OPENAI_API_KEY"] = "must-not-leak";
  auto server = everything();
  server.env = {config::mcp_named_value{"GIVEN_TOKEN", config::mcp_value_source{"", "PARLEY_TEST_MCP_TOKEN", ""}},
                config::mcp_named_value{"PLAIN", config::mcp_value_source{"literal", "", ""}}};
  auto& servers = pool({server});
  tool_outcome env;
  run([&]() -> asio::awaitable<void> {
    const std::vector<std::string> ids{"everything"};
    co_await servers.prepare(ids);
    env = co_await call("everything", "get-env", "{}");
  });
  ASSERT_TRUE(env.ok) << env.content;
  EXPECT_NE(env.content.find("\"GIVEN_TOKEN\": \"token-value\""), std::string::npos) << env.content;
  EXPECT_NE(env.content.find("\"PLAIN\": \"literal\""), std::string::npos);
  EXPECT_NE(env.content.find("\"PATH\""), std::string::npos);
  EXPECT_EQ(env.content.find("must-not-leak"), std::string::npos);
}

TEST_F(McpRealServers, AnEnvironmentVariableThatIsNotSetStopsTheStartNamingItNotItsValue) {
  auto server = everything();
  server.env = {config::mcp_named_value{"TOKEN", config::mcp_value_source{"", "PARLEY_TEST_SURELY_UNSET", ""}}};
  auto& servers = pool({server});
  run([&]() -> asio::awaitable<void> {
    const std::vector<std::string> ids{"everything"};
    co_await servers.prepare(ids);
  });
  EXPECT_TRUE(servers.tool_specs({"everything"}).empty());
  ASSERT_FALSE(logged.empty());
  EXPECT_NE(logged.back().find("server 'everything' offers no tools now: MCP server 'everything': env.TOKEN takes "
                               "the environment variable PARLEY_TEST_SURELY_UNSET, which is not set"),
            std::string::npos)
      << logged.back();
}

TEST_F(McpRealServers, AServerThatDiesMidCallFailsTheCallWaitsAndIsStartedAgain) {
  auto& servers = pool({node_server("crashing", {std::string(PARLEY_SOURCE_DIR) + "/tests/mcp/crashing_server.mjs"})});
  tool_outcome before, crashed, during_backoff, after;
  run([&]() -> asio::awaitable<void> {
    const std::vector<std::string> ids{"crashing"};
    co_await servers.prepare(ids);
    before = co_await call("crashing", "pid", "{}");
    crashed = co_await call("crashing", "crash", "{}");
    during_backoff = co_await call("crashing", "pid", "{}");
    asio::steady_timer backoff(io, 1100ms);  // the first restart waits 1 s
    co_await backoff.async_wait(asio::use_awaitable);
    after = co_await call("crashing", "pid", "{}");
  });
  ASSERT_TRUE(before.ok) << before.content;
  EXPECT_FALSE(crashed.ok);
  EXPECT_NE(crashed.content.find("tool 'crash' failed: "), std::string::npos) << crashed.content;
  EXPECT_NE(crashed.content.find("'crashing' exited with status 3"), std::string::npos) << crashed.content;
  EXPECT_FALSE(during_backoff.ok);
  EXPECT_NE(during_backoff.content.find("MCP server 'crashing' is restarting after: "), std::string::npos)
      << during_backoff.content;
  ASSERT_TRUE(after.ok) << after.content;
  EXPECT_NE(after.content, before.content) << "a new process";
}

// server-everything in its streamableHttp mode, as a user runs it: the same pool, over HTTP.
class McpRealHttpServer : public McpRealServers {
 protected:
  void SetUp() override {
    ASSERT_TRUE(std::string_view(PARLEY_NODE).size() > 0) << "node was not found when the build was configured";
    {
      asio::io_context probe_io;
      asio::ip::tcp::acceptor probe(probe_io, asio::ip::tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
      port = probe.local_endpoint().port();
    }
    const int quiet = ::open("/dev/null", O_WRONLY);
    pid = parley::test::spawn_program({PARLEY_NODE, kModules + "server-everything/dist/index.js", "streamableHttp"},
                                      {quiet, {{"PORT", std::to_string(port)}}, {}});
    ::close(quiet);
    ASSERT_GT(pid, 0);
    for (int tries = 0; tries < 600 && !listening(); ++tries) std::this_thread::sleep_for(50ms);
    ASSERT_TRUE(listening()) << "server-everything does not listen on " << port;
  }
  void TearDown() override {
    if (pid > 0) ::kill(pid, SIGKILL);
    if (pid > 0) parley::test::reaped_status(pid);
  }
  bool listening() const {
    asio::io_context probe_io;
    asio::ip::tcp::socket socket(probe_io);
    boost::system::error_code ec;
    socket.connect(asio::ip::tcp::endpoint(asio::ip::make_address("127.0.0.1"), port), ec);
    return !ec;
  }
  config::mcp_server_config http_server() const {
    config::mcp_server_config server;
    server.id = "web";
    server.transport = config::mcp_transport::streamable_http;
    server.url = "http://127.0.0.1:" + std::to_string(port) + "/mcp";
    server.headers = {config::mcp_named_value{"X-Parley-Test", config::mcp_value_source{"", "PARLEY_TEST_HEADER", ""}}};
    return server;
  }

  std::uint16_t port = 0;
  pid_t pid = -1;
};

TEST_F(McpRealHttpServer, ToolsAreListedAndCalledWithProgressOverStreamableHttp) {
  extra_env["PARLEY_TEST_HEADER"] = "from-the-environment";
  auto& servers = pool({http_server()});
  tool_outcome echoed;
  std::vector<progress_update> seen;
  result<tool_call_result> slow = make_error(errc::internal, "not run");
  run([&]() -> asio::awaitable<void> {
    const std::vector<std::string> ids{"web"};
    co_await servers.prepare(ids);
    echoed = co_await call("web", "echo", R"({"message": "over http"})");
    call_options options;
    options.on_progress = [&](const progress_update& update) { seen.push_back(update); };
    json::object args{{"duration", 1}, {"steps", 2}};
    slow = co_await servers.runtime("web")->call_tool("trigger-long-running-operation", std::move(args), options);
  });
  EXPECT_TRUE(has(names({"web"}), "get-sum"));
  EXPECT_TRUE(echoed.ok) << echoed.content;
  EXPECT_EQ(echoed.content, "Echo: over http");
  ASSERT_TRUE(slow) << slow.err().message;
  EXPECT_EQ(seen.size(), 2u);
}

}  // namespace
}  // namespace parley::tools::mcp

// `.minds/mcp.yaml` read again while Parley runs: a change that reads is applied, one that does not
// keeps the last good configuration and is logged once with its file and line; the pool keeps the
// servers whose entries did not change.
#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <filesystem>
#include <fstream>
#include <random>
#include <thread>

#include "parley/engine/mcp_reload.hpp"
#include "parley/tools/mcp/mcp_servers.hpp"

namespace parley::engine {
namespace {

namespace asio = boost::asio;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

class McpReload : public ::testing::Test {
 protected:
  McpReload() {
    std::random_device device;
    dir = fs::temp_directory_path() / ("parley-mcp-reload-" + std::to_string(device()));
    fs::create_directories(dir);
    file = dir / "mcp.yaml";
  }
  ~McpReload() override { fs::remove_all(dir); }

  void write(const std::string& text) {
    // A new modification time even on a coarse clock: the size changes too in every step below.
    std::ofstream(file, std::ios::trunc) << text;
  }

  // Runs the loop for a while: the watcher looks every 20 ms.
  void run_for(std::chrono::milliseconds how_long) {
    io.restart();
    io.run_for(how_long);
  }

  asio::io_context io;
  fs::path dir;
  fs::path file;
  std::vector<config::mcp_config> applied;
  std::vector<std::string> logged;
};

constexpr const char* kOneServer = "version: 1\nservers:\n  a:\n    transport: stdio\n    command: one\n";
constexpr const char* kTwoServers =
    "version: 1\nservers:\n  a:\n    transport: stdio\n    command: one\n  b:\n    transport: stdio\n    command: "
    "two\n";

TEST_F(McpReload, AChangedFileIsReadAgainAndAppliedAndABrokenOneKeepsTheLastGoodConfiguration) {
  write(kOneServer);
  mcp_config_watcher watcher(
      io.get_executor(), file, [this](const config::mcp_config& config) { applied.push_back(config); },
      [this](const std::string& line) { logged.push_back(line); }, 20ms);
  run_for(100ms);
  EXPECT_TRUE(applied.empty()) << "the file as loaded is not applied again";

  write(kTwoServers);
  run_for(200ms);
  ASSERT_EQ(applied.size(), 1u);
  EXPECT_EQ(applied[0].servers.size(), 2u);

  write("version: 1\nservers:\n  a: [not, a, mapping]\n  a: {}\n");
  run_for(200ms);
  EXPECT_EQ(applied.size(), 1u) << "a file refused whole changes nothing";
  ASSERT_FALSE(logged.empty());
  const std::string& problem = logged.back();
  EXPECT_NE(problem.find(file.string() + ":"), std::string::npos) << problem;
  EXPECT_NE(problem.find("the last good MCP configuration stays in use"), std::string::npos) << problem;
  const auto lines = logged.size();
  run_for(100ms);
  EXPECT_EQ(logged.size(), lines) << "said once";

  watcher.stop();
  write(kOneServer);
  run_for(100ms);
  EXPECT_EQ(applied.size(), 1u) << "nothing is applied after stop";
}

TEST_F(McpReload, ThePoolKeepsUnchangedServersAndReplacesChangedOnes) {
  config::mcp_config config;
  config::mcp_server_config a;
  a.id = "a";
  a.command = "one";
  config::mcp_server_config b = a;
  b.id = "b";
  config.servers = {a, b};
  tools::mcp::pool_settings settings;
  settings.log = [this](const std::string& line) { logged.push_back(line); };
  tools::mcp::mcp_servers pool(io.get_executor(), config, settings);
  const auto kept = pool.runtime("a");
  const auto changed = pool.runtime("b");
  const auto version = pool.version();

  config.servers[1].args = {"--other"};
  config::mcp_server_config c = a;
  c.id = "c";
  config.servers.push_back(c);
  pool.replace(config);
  EXPECT_EQ(pool.runtime("a"), kept);
  EXPECT_NE(pool.runtime("b"), changed);
  EXPECT_NE(pool.runtime("c"), nullptr);
  EXPECT_NE(pool.version(), version);

  config.servers.erase(config.servers.begin());
  pool.replace(config);
  EXPECT_EQ(pool.runtime("a"), nullptr);
  EXPECT_EQ(pool.ids(), (std::vector<std::string>{"b", "c"}));
}

}  // namespace
}  // namespace parley::engine

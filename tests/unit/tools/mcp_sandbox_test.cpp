// A stdio MCP server under a member's sandbox (issue 39): the server (tests/mcp/file_probe_server.mjs)
// reads and writes where it is told, and for a member whose access rules hide `secrets/` and let it
// write only `out/` it can do neither outside them, while for a member without rules or sandbox it
// reads the file. Members of the same sandbox profile share one process, other profiles get their
// own, and stopping the pool leaves none. Where bwrap cannot run here, the sandboxed server does
// not start at all (it never runs outside the rules), and the tests check that instead.
#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/json/parse.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <thread>

#include <unistd.h>

#include "parley/access/dir_glob.hpp"
#include "parley/tools/mcp/mcp_servers.hpp"
#include "parley/tools/mcp_sandbox.hpp"
#include "parley/tools/shell_command.hpp"
#include "shell_fixture.hpp"

namespace parley::tools::mcp {
namespace {

namespace asio = boost::asio;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

const std::string kProbeServer = std::string(PARLEY_SOURCE_DIR) + "/tests/mcp/file_probe_server.mjs";

access::access_rules rules_hiding(const std::string& no_read, const std::string& write_only) {
  access::access_rules rules;
  rules.read.deny_dirs.push_back(*access::dir_glob::parse(no_read));
  if (!write_only.empty()) rules.write.allow_dirs.push_back(*access::dir_glob::parse(write_only));
  return rules;
}

// The pids of processes whose command line carries `marker` (bwrap's and the server's).
std::vector<int> processes_marked(const std::string& marker) {
  std::vector<int> out;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos || std::stoi(name) == ::getpid()) continue;
    std::ifstream in(entry.path() / "cmdline");
    std::string line((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::ifstream stat(entry.path() / "stat");
    std::string status((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    const auto paren = status.rfind(')');
    const bool zombie = paren != std::string::npos && status.substr(paren + 2, 1) == "Z";
    if (!zombie && line.find(marker) != std::string::npos) out.push_back(std::stoi(name));
  }
  return out;
}

class McpSandbox : public ::testing::Test {
 protected:
  McpSandbox() {
    std::random_device device;
    marker = "parley-mcp-sandbox-" + std::to_string(device());
    // Not under /tmp alone: inside the sandbox /tmp is a private tmpfs, and the workspace is
    // mounted over it where it is.
    workspace = fs::temp_directory_path() / marker;
    fs::create_directories(workspace / "secrets");
    fs::create_directories(workspace / "out");
    fs::create_directories(workspace / "other");
    std::ofstream(workspace / "secrets" / "key.txt") << "the secret";
    // The server from inside the workspace: the source tree may be under /tmp, which the sandbox
    // replaces with a private tmpfs (file_probe_server.mjs says more).
    fs::create_directories(workspace / "probe_server");
    fs::copy_file(kProbeServer, workspace / "probe_server" / "file_probe_server.mjs");
    policy.sandbox = access::shell_sandbox::bubblewrap;
    config::mcp_server_config server;
    server.id = "probe";
    server.command = "node";
    server.args = {(workspace / "probe_server" / "file_probe_server.mjs").string(), marker};
    server.start_timeout = 60s;
    server.call_timeout = 60s;
    config::mcp_config config;
    config.servers = {server};
    pool_settings settings;
    settings.workspace = workspace;
    settings.log = [this](const std::string& line) { logged.push_back(line); };
    servers = std::make_unique<mcp_servers>(io.get_executor(), config, std::move(settings));
  }
  ~McpSandbox() override {
    servers.reset();
    fs::remove_all(workspace);
  }

  template <class Body>
  void run(Body body) {
    asio::co_spawn(
        io,
        [&]() -> asio::awaitable<void> {
          co_await body();
          servers->stop_all("the test is over");
        },
        asio::detached);
    io.run();
  }

  // Prepares the probe for members of `profile`, then calls its tool `name`.
  // g++ 12 destroys a temporary in a co_await expression twice: callers pass named values.
  asio::awaitable<tool_outcome> call(const sandbox_profile& profile, const std::string& name, const std::string& args) {
    const std::vector<std::string> ids{"probe"};
    co_await servers->prepare(ids, profile);
    auto tool = servers->find_tool(ids, name, profile.key);
    if (!tool) co_return tool_outcome{false, "no tool " + name + ": " + servers->problems(ids, profile.key)};
    tool_context context;
    context.workspace = workspace;
    co_return co_await tool->invoke(boost::json::parse(args).as_object(), context);
  }

  std::string path_arg(const fs::path& path) const { return R"({"path": ")" + path.string() + R"("})"; }
  std::string write_arg(const fs::path& path) const { return R"({"path": ")" + path.string() + R"(", "text": "x"})"; }

  sandbox_profile profile_of(const access::access_rules& rules) const {
    auto choice = tools::mcp_sandbox_for(workspace, rules, policy, nullptr);
    EXPECT_EQ(choice.refused, "");
    return choice.profile;
  }

  asio::io_context io;
  std::string marker;
  fs::path workspace;
  access::shell_policy policy;
  std::vector<std::string> logged;
  std::unique_ptr<mcp_servers> servers;
};

TEST_F(McpSandbox, UnderTheRulesTheServerNeitherReadsAHiddenFolderNorWritesOutsideWriteDirs) {
  const auto guarded = profile_of(rules_hiding("secrets", "out"));
  ASSERT_FALSE(guarded.key.empty());
  const std::string why_not = tools::testing::why_bwrap_cannot_run();
  tool_outcome hidden, outside, inside, unruled;
  const sandbox_profile none;
  const std::string read = "read_text";
  const std::string write = "write_text";
  const std::string secret = path_arg(workspace / "secrets" / "key.txt");
  const std::string elsewhere = write_arg(workspace / "elsewhere.txt");
  const std::string fine = write_arg(workspace / "out" / "fine.txt");
  run([&]() -> asio::awaitable<void> {
    hidden = co_await call(guarded, read, secret);
    outside = co_await call(guarded, write, elsewhere);
    inside = co_await call(guarded, write, fine);
    unruled = co_await call(none, read, secret);
  });
  EXPECT_FALSE(hidden.ok) << hidden.content;
  EXPECT_EQ(hidden.content.find("the secret"), std::string::npos) << hidden.content;
  EXPECT_FALSE(outside.ok) << outside.content;
  EXPECT_FALSE(fs::exists(workspace / "elsewhere.txt"));
  EXPECT_TRUE(unruled.ok) << unruled.content;
  EXPECT_EQ(unruled.content, "the secret");
  if (!why_not.empty()) {
    std::cout << "[sandbox] " << why_not << "\n";
    EXPECT_NE(hidden.content.find("no tool read_text"), std::string::npos) << hidden.content;
    return;
  }
  // The sandbox refused what the rules forbid, not everything.
  EXPECT_NE(hidden.content.find("ENOENT"), std::string::npos) << hidden.content;
  EXPECT_TRUE(inside.ok) << inside.content;
  EXPECT_TRUE(fs::exists(workspace / "out" / "fine.txt"));
}

TEST_F(McpSandbox, MembersOfOneProfileShareAProcessOtherProfilesHaveTheirOwnAndNoneIsLeftAfterStop) {
  const auto first = profile_of(rules_hiding("secrets", "out"));
  const auto second = profile_of(rules_hiding("secrets", "out"));  // another member, the same rules
  const auto other = profile_of(rules_hiding("other", ""));
  EXPECT_EQ(first.key, second.key);
  EXPECT_NE(first.key, other.key);
  const std::string why_not = tools::testing::why_bwrap_cannot_run();
  tool_outcome a, b, c, plain;
  std::vector<int> running;
  const sandbox_profile none;
  const std::string instance = "instance";
  const std::string no_arguments = "{}";
  run([&]() -> asio::awaitable<void> {
    a = co_await call(first, instance, no_arguments);
    b = co_await call(second, instance, no_arguments);
    c = co_await call(other, instance, no_arguments);
    plain = co_await call(none, instance, no_arguments);
    running = processes_marked(marker);
  });
  EXPECT_EQ(servers->runtime_for("probe", first), servers->runtime_for("probe", second));
  EXPECT_NE(servers->runtime_for("probe", first), servers->runtime_for("probe", other));
  EXPECT_NE(servers->runtime_for("probe", first), servers->runtime("probe"));
  ASSERT_TRUE(plain.ok) << plain.content;
  if (why_not.empty()) {
    ASSERT_TRUE(a.ok) << a.content;
    ASSERT_TRUE(c.ok) << c.content;
    EXPECT_EQ(a.content, b.content);
    EXPECT_NE(a.content, c.content);
    EXPECT_NE(a.content, plain.content);
    EXPECT_GE(running.size(), 4U);  // three servers, two of them with their bwrap
  } else {
    std::cout << "[sandbox] " << why_not << "\n";
    EXPECT_FALSE(a.ok);
  }
  // The supervisors kill each server's process group, bwrap and all, once the pool stops them.
  bool gone = false;
  for (int i = 0; i < 1000 && !gone; ++i) {
    gone = processes_marked(marker).empty();
    if (!gone) std::this_thread::sleep_for(10ms);
  }
  EXPECT_TRUE(gone) << processes_marked(marker).size() << " processes left";
}

TEST_F(McpSandbox, TheWrapperEndsInBwrapsSeparatorAndRefusesACwdTheRulesHide) {
  const auto rules = rules_hiding("secrets", "out");
  if (tools::bubblewrap_program().empty()) {
    // No sandbox here: a member with rules gets no stdio server, and says why.
    EXPECT_NE(tools::mcp_sandbox_for(workspace, rules, policy, nullptr).refused, "");
    return;
  }
  const auto profile = profile_of(rules);
  ASSERT_TRUE(profile.wrap);
  const auto argv = profile.wrap(workspace);
  ASSERT_TRUE(argv) << argv.err().message;
  EXPECT_NE(std::find(argv->begin(), argv->end(), "--die-with-parent"), argv->end());
  EXPECT_EQ(argv->back(), "--");
  const auto hidden = profile.wrap(workspace / "secrets");
  ASSERT_FALSE(hidden);
  EXPECT_NE(hidden.err().message.find("secrets"), std::string::npos) << hidden.err().message;
  const auto reserved = profile.wrap(workspace / ".minds");
  EXPECT_FALSE(reserved);
  // Without the sandbox set, a member without rules runs its servers as configured.
  const auto plain = tools::mcp_sandbox_for(workspace, access::access_rules{}, access::shell_policy{}, nullptr);
  EXPECT_EQ(plain.refused, "");
  EXPECT_EQ(plain.profile.key, "");
  EXPECT_FALSE(plain.profile.wrap);
}

}  // namespace
}  // namespace parley::tools::mcp

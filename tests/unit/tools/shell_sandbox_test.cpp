// shell_cmd inside the bubblewrap sandbox: a write outside the workspace and a connection to a
// port listening on this machine both fail inside it, while the same commands work without it.
// Where bwrap cannot run here (no user namespaces in the container), the tests say why and check
// that a sandboxed command is refused with that reason instead of running unconfined.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>

#include "parley/tools/shell_command.hpp"
#include "shell_fixture.hpp"
#include "support/text_contains.hpp"

namespace parley::tools {
namespace {

using ShellSandbox = testing::shell_fixture;

using parley::testing::contains;
using testing::why_bwrap_cannot_run;

// A TCP listener on 127.0.0.1 of this machine's network; its port.
struct listener {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  int port = 0;
  listener() {
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    ::listen(fd, 4);
    socklen_t len = sizeof addr;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
    port = ntohs(addr.sin_port);
  }
  ~listener() { ::close(fd); }
  listener(const listener&) = delete;
  listener& operator=(const listener&) = delete;
};

TEST_F(ShellSandbox, WritingOutsideTheWorkspaceFailsInsideTheSandbox) {
  policy_.sandbox = access::shell_sandbox::bubblewrap;
  // Not under /tmp, which is a private tmpfs inside the sandbox.
  const std::filesystem::path outside_file =
      std::filesystem::path("/var/tmp") / ("parley-sandbox-" + std::to_string(::getpid()) + ".txt");
  std::filesystem::remove(outside_file);
  const std::string outside = outside_file.string();
  const std::string command = R"({"command": "echo in > inside.txt; echo out > )" + outside + R"("})";
  const std::string why = why_bwrap_cannot_run();
  if (!why.empty()) {
    std::cout << "[sandbox] " << why << "\n";
    const auto out = call("shell_cmd", command);
    EXPECT_FALSE(out.ok);
    EXPECT_FALSE(std::filesystem::exists(outside_file));
    return;
  }
  const auto out = call("shell_cmd", command);
  EXPECT_FALSE(out.ok) << out.content;
  EXPECT_TRUE(contains(out.content, "Read-only file system")) << out.content;
  EXPECT_TRUE(std::filesystem::exists(workspace_ / "inside.txt"));
  EXPECT_FALSE(std::filesystem::exists(outside_file));
  policy_.sandbox = access::shell_sandbox::none;  // the control: unconfined, the same write works
  EXPECT_TRUE(call("shell_cmd", command).ok);
  EXPECT_TRUE(std::filesystem::exists(outside_file));
  std::filesystem::remove(outside_file);
}

TEST_F(ShellSandbox, ReachingTheNetworkFailsInsideTheSandboxUnlessAllowed) {
  listener server;
  ASSERT_GT(server.port, 0);
  const std::string command = R"({"command": "bash -c 'echo hello > /dev/tcp/127.0.0.1/)" +
                              std::to_string(server.port) + R"(' && echo connected"})";
  EXPECT_TRUE(contains(call("shell_cmd", command).content, "\nconnected\n"));  // the control: no sandbox
  policy_.sandbox = access::shell_sandbox::bubblewrap;
  const std::string why = why_bwrap_cannot_run();
  if (!why.empty()) {
    std::cout << "[sandbox] " << why << "\n";
    EXPECT_FALSE(contains(call("shell_cmd", command).content, "\nconnected\n"));
    return;
  }
  const auto out = call("shell_cmd", command);
  EXPECT_FALSE(out.ok);
  EXPECT_FALSE(contains(out.content, "\nconnected\n")) << out.content;
  EXPECT_TRUE(contains(out.content, "Connection refused")) << out.content;
  policy_.network = true;
  EXPECT_TRUE(contains(call("shell_cmd", command).content, "\nconnected\n"));
}

TEST_F(ShellSandbox, TheSandboxHidesMindsDialogsAndParleysData) {
  if (const std::string why = why_bwrap_cannot_run(); !why.empty()) {
    std::cout << "[sandbox] " << why << "\n";
    policy_.sandbox = access::shell_sandbox::bubblewrap;
    EXPECT_FALSE(call("shell_cmd", R"({"command": "true"})").ok);
    return;
  }
  put(".minds/team.yaml", "members-of-the-team");
  put(".dialogs/run/d1.yaml", "a-dialog");
  put("data/parley.db", "db");
  std::vector<protected_dir> protected_dirs{
      {std::filesystem::canonical(workspace_ / "data"), "Parley's data directory"}};
  ctx_.protected_dirs = &protected_dirs;
  policy_.sandbox = access::shell_sandbox::bubblewrap;
  const auto out =
      call("shell_cmd", R"({"command": "ls data .minds .dialogs; cat .minds/team.yaml; echo x > .minds/team.yaml"})");
  EXPECT_FALSE(out.ok);
  const std::string said = out.content.substr(out.content.find("\n[exit"));
  EXPECT_EQ(said.substr(0, said.find('\n', 1)), "\n[exit 2]") << out.content;
  EXPECT_FALSE(contains(said, "members-of-the-team")) << out.content;
  EXPECT_FALSE(contains(said, "d1.yaml")) << out.content;
  EXPECT_FALSE(contains(said, "parley.db")) << out.content;
  EXPECT_TRUE(contains(said, "No such file")) << out.content;
  EXPECT_TRUE(contains(said, "Read-only file system")) << out.content;
  std::ifstream in(workspace_ / ".minds/team.yaml");
  std::string text;
  in >> text;
  EXPECT_EQ(text, "members-of-the-team");
}

// bwrap passes the environment on: a sandboxed command sees its call's idempotency key too.
TEST_F(ShellSandbox, ASandboxedCommandSeesItsCallsIdempotencyKey) {
  policy_.sandbox = access::shell_sandbox::bubblewrap;
  ctx_.idempotency_key = "r1/d1/1.2/call_1";
  const auto out = call("shell_cmd", R"x({"command": "printf '%s' \"$PARLEY_IDEMPOTENCY_KEY\""})x");
  if (const std::string why = why_bwrap_cannot_run(); !why.empty()) {
    std::cout << "[sandbox] " << why << "\n";
    EXPECT_FALSE(out.ok) << out.content;  // refused, never run unconfined
    return;
  }
  EXPECT_EQ(out.content, "$ printf '%s' \"$PARLEY_IDEMPOTENCY_KEY\"\n[exit 0]\nr1/d1/1.2/call_1\n");
}

}  // namespace
}  // namespace parley::tools

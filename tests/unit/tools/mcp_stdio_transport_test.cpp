// The stdio transport against real processes: the reference server-everything, shells that exit,
// flood stderr or send too much, and a helper process killed with SIGKILL
// (tests/crash/mcp_stdio_child.cpp). Processes are looked for in /proc; a zombie counts as gone.
#include "parley/tools/mcp/stdio_transport.hpp"

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include <gtest/gtest.h>

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "parley/tools/mcp/json_rpc.hpp"

extern char** environ;

namespace {

namespace asio = boost::asio;
namespace fs = std::filesystem;
using parley::tools::mcp::stdio_command;
using parley::tools::mcp::stdio_transport;

std::vector<std::string> our_environment() {
  std::vector<std::string> env;
  for (char** entry = environ; *entry != nullptr; ++entry) env.emplace_back(*entry);
  return env;
}

// Gone, or a zombie nobody reaped yet (what PID 1 of a container may leave).
bool process_gone(int pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  const auto paren = text.rfind(')');
  return text.empty() || (paren != std::string::npos && text.substr(paren + 2, 1) == "Z");
}

// result<T> has no empty state, which co_spawn's completion handler needs: the task's value is
// stored by a coroutine instead.
template <class T>
asio::awaitable<void> into(asio::awaitable<T> task, std::optional<T>& out) {
  out.emplace(co_await std::move(task));
}

// Polls for about ten seconds.
bool eventually(const std::function<bool()>& ready) {
  for (int i = 0; i < 1000; ++i) {
    if (ready()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return ready();
}

// The pid a shell wrote to `file`, once the whole line is there; -1 when it never comes.
int pid_from(const fs::path& file) {
  int pid = -1;
  eventually([&] {
    std::ifstream in(file);
    std::string line;
    if (!std::getline(in, line) || in.eof()) return false;  // no newline yet: still being written
    pid = std::stoi(line);
    return true;
  });
  return pid;
}

class StdioTransport : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("parley-mcp-stdio-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::unique_ptr<stdio_transport> server(std::vector<std::string> argv, std::size_t max_message_bytes = 0) {
    stdio_command command{std::move(argv), {}, our_environment()};
    if (max_message_bytes > 0) command.max_message_bytes = max_message_bytes;
    return std::make_unique<stdio_transport>(io_.get_executor(), "fs", std::move(command));
  }
  std::unique_ptr<stdio_transport> shell(const std::string& script, std::size_t max_message_bytes = 0) {
    return server({"sh", "-c", script, "sh", (dir_ / "pid").string()}, max_message_bytes);
  }

  // Runs `task` on the io_context to its end (or about a minute, so a broken test cannot hang).
  template <class T>
  T run(asio::awaitable<T> task) {
    std::optional<T> out;
    asio::co_spawn(io_, into(std::move(task), out), asio::detached);
    for (int i = 0; i < 600 && !out; ++i) {
      io_.restart();
      io_.run_one_for(std::chrono::milliseconds(100));
    }
    if (!out) ADD_FAILURE() << "the operation did not complete";
    return out ? std::move(*out) : T(parley::make_error(parley::errc::internal, "did not complete"));
  }
  // Runs the io_context until `ready` holds, for about ten seconds at most.
  bool run_until(const std::function<bool()>& ready) {
    for (int i = 0; i < 1000 && !ready(); ++i) {
      io_.restart();
      if (io_.run_for(std::chrono::milliseconds(10)) == 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return ready();
  }

  asio::io_context io_;
  fs::path dir_;
};

TEST_F(StdioTransport, InitializeRoundTripsWithTheReferenceServer) {
  const std::string everything =
      std::string(PARLEY_SOURCE_DIR) + "/tests/mcp/node_modules/@modelcontextprotocol/server-everything/dist/index.js";
  auto t = server({"node", everything, "stdio"});  // node found on PATH
  ASSERT_TRUE(run(t->open()));
  ASSERT_TRUE(run(t->send(R"({"jsonrpc":"2.0","id":7,"method":"initialize","params":{"protocolVersion":)"
                          R"("2025-11-25","capabilities":{},"clientInfo":{"name":"parley-test","version":"1"}}})")));
  for (int i = 0; i < 20; ++i) {  // the server may send notifications first
    auto text = run(t->receive());
    ASSERT_TRUE(text) << text.err().message;
    auto message = parley::tools::mcp::parse_message(*text);
    ASSERT_TRUE(message) << message.err().message;
    const auto* response = std::get_if<parley::tools::mcp::rpc_response>(&*message);
    if (response == nullptr) continue;
    EXPECT_EQ(response->id, parley::tools::mcp::request_id{std::int64_t{7}});
    ASSERT_TRUE(response->ok());
    const auto& result = std::get<boost::json::value>(response->outcome).as_object();
    EXPECT_EQ(result.at("protocolVersion"), "2025-11-25");
    return;
  }
  FAIL() << "no response to initialize";
}

TEST_F(StdioTransport, AProgramThatDoesNotExistIsNamedInTheOpenError) {
  auto on_path = server({"parley-no-such-program", "x"});
  auto opened = run(on_path->open());
  ASSERT_FALSE(opened);
  EXPECT_NE(opened.err().message.find("mcp server 'fs'"), std::string::npos) << opened.err().message;
  EXPECT_NE(opened.err().message.find("program 'parley-no-such-program' not found"), std::string::npos)
      << opened.err().message;

  auto with_path = server({"/nonexistent/parley-no-such-program"});  // execve in the child fails
  opened = run(with_path->open());
  ASSERT_FALSE(opened);
  EXPECT_NE(opened.err().message.find("program '/nonexistent/parley-no-such-program' not found"), std::string::npos)
      << opened.err().message;
}

TEST_F(StdioTransport, AMissingWorkingFolderIsNamedInTheOpenError) {
  stdio_command command{{"sh", "-c", "exit 0"}, dir_ / "missing", our_environment()};
  stdio_transport t(io_.get_executor(), "fs", std::move(command));
  auto opened = run(t.open());
  ASSERT_FALSE(opened);
  EXPECT_NE(opened.err().message.find((dir_ / "missing").string()), std::string::npos) << opened.err().message;
}

TEST_F(StdioTransport, AServerThatExitsAtOnceIsAnErrorWithItsStatusAndStderr) {
  auto t = shell("echo boom >&2; exit 3");
  ASSERT_TRUE(run(t->open()));
  auto message = run(t->receive());
  ASSERT_FALSE(message);
  EXPECT_EQ(message.err().message, "mcp server 'fs' exited with status 3: boom");
  EXPECT_FALSE(run(t->receive()));  // dead for good
}

TEST_F(StdioTransport, AFloodOnStderrNeverBlocksTheProtocolAndOnlyItsEndIsKept) {
  // Each answer comes after 1.7 MB on stderr, far beyond a pipe's 64 KiB.
  auto t = shell(
      "for i in 1 2 3; do read -r line; yes 'noise on stderr' | head -n 100000 >&2; echo \"$line\"; done;"
      " printf 'the last \\033[31mwords\\n' >&2; exit 5");
  ASSERT_TRUE(run(t->open()));
  for (int i = 1; i <= 3; ++i) {
    const std::string line = "{\"n\":" + std::to_string(i) + "}";
    ASSERT_TRUE(run(t->send(line)));
    auto echoed = run(t->receive());
    ASSERT_TRUE(echoed) << echoed.err().message;
    EXPECT_EQ(*echoed, line);
  }
  auto ended = run(t->receive());
  ASSERT_FALSE(ended);
  const std::string& text = ended.err().message;
  EXPECT_NE(text.find("exited with status 5"), std::string::npos);
  EXPECT_NE(text.find("the last \\x1b[31mwords"), std::string::npos) << text.substr(text.size() - 200);
  EXPECT_EQ(text.find('\033'), std::string::npos);
  EXPECT_LT(text.size(), 9000u);  // 40 lines / 8 KiB of stderr
}

TEST_F(StdioTransport, ALineOverTheLimitEndsTheConnection) {
  auto t = shell("echo '{\"small\":1}'; head -c 5000 /dev/zero | tr '\\0' a; echo; sleep 1000", 1000);
  ASSERT_TRUE(run(t->open()));
  auto small = run(t->receive());
  ASSERT_TRUE(small) << small.err().message;
  EXPECT_EQ(*small, R"({"small":1})");
  auto big = run(t->receive());
  ASSERT_FALSE(big);
  EXPECT_EQ(big.err().code, parley::errc::limit_exceeded);
  EXPECT_EQ(big.err().message, "mcp server 'fs' sent a message longer than the limit of 1000 bytes");
}

TEST_F(StdioTransport, BlankLinesAreSkippedAndAPartialLastLineIsNeverDelivered) {
  auto t = shell("printf '\\n\\r\\n  \\n{\"a\":1}\\r\\n{\"partial\"'");
  ASSERT_TRUE(run(t->open()));
  auto first = run(t->receive());
  ASSERT_TRUE(first) << first.err().message;
  EXPECT_EQ(*first, R"({"a":1})");
  auto second = run(t->receive());
  ASSERT_FALSE(second);
  EXPECT_EQ(second.err().message, "mcp server 'fs' exited with status 0");
}

TEST_F(StdioTransport, WritingToAServerThatClosedItsStdinIsAnErrorNamingItNotASignal) {
  auto t = shell("exec 0<&-; echo ready; sleep 1000");
  ASSERT_TRUE(run(t->open()));
  auto ready = run(t->receive());
  ASSERT_TRUE(ready) << ready.err().message;
  auto sent = run(t->send(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"));
  ASSERT_FALSE(sent);
  EXPECT_NE(sent.err().message.find("mcp server 'fs'"), std::string::npos) << sent.err().message;
  EXPECT_NE(sent.err().message.find("stdin"), std::string::npos) << sent.err().message;
}

TEST_F(StdioTransport, CloseLeavesNoProcess) {
  // The server's own child, in the server's process group: close must reach it too.
  auto t = shell("sleep 1000 & echo $! > \"$1\"; wait");
  ASSERT_TRUE(run(t->open()));
  const int sleeper = pid_from(dir_ / "pid");
  ASSERT_GT(sleeper, 0);
  ASSERT_FALSE(process_gone(sleeper));
  const int supervisor = t->process_group();
  t->close();
  // The grandchild is gone and the supervisor reaped (no zombie of ours).
  EXPECT_TRUE(run_until([&] { return process_gone(sleeper) && !fs::exists("/proc/" + std::to_string(supervisor)); }));
  auto after = run(t->receive());
  ASSERT_FALSE(after);
  EXPECT_EQ(after.err().message, "mcp server 'fs' was closed");
}

TEST_F(StdioTransport, CloseEndsAPendingReceive) {
  auto t = server({"cat"});
  ASSERT_TRUE(run(t->open()));
  std::optional<parley::result<std::string>> pending;
  asio::co_spawn(io_, into(t->receive(), pending), asio::detached);
  io_.restart();
  io_.poll();
  EXPECT_FALSE(pending);
  t->close();
  ASSERT_TRUE(run_until([&] { return pending.has_value(); }));
  ASSERT_FALSE(*pending);
  EXPECT_EQ(pending->err().code, parley::errc::cancelled);
  EXPECT_EQ(pending->err().message, "mcp server 'fs' was closed");
}

TEST_F(StdioTransport, ACancelledReceiveLeavesTheConnectionWorking) {
  auto t = server({"cat"});
  ASSERT_TRUE(run(t->open()));
  asio::cancellation_signal cancel;
  std::optional<parley::result<std::string>> pending;
  asio::co_spawn(io_, into(t->receive(), pending), asio::bind_cancellation_slot(cancel.slot(), asio::detached));
  io_.restart();
  io_.poll();
  cancel.emit(asio::cancellation_type::terminal);
  ASSERT_TRUE(run_until([&] { return pending.has_value(); }));
  ASSERT_FALSE(*pending);
  EXPECT_EQ(pending->err().code, parley::errc::cancelled);
  ASSERT_TRUE(run(t->send(R"({"still":"here"})")));
  auto echoed = run(t->receive());
  ASSERT_TRUE(echoed) << echoed.err().message;
  EXPECT_EQ(*echoed, R"({"still":"here"})");
}

TEST_F(StdioTransport, KillingParleyWithSigkillLeavesNoServerProcess) {
  const fs::path pid_file = dir_ / "pid";
  std::vector<std::string> args{PARLEY_MCP_STDIO_CHILD, pid_file.string()};
  std::vector<char*> argv{args[0].data(), args[1].data(), nullptr};
  pid_t helper = -1;
  ASSERT_EQ(::posix_spawn(&helper, argv[0], nullptr, nullptr, argv.data(), environ), 0);
  const int sleeper = pid_from(pid_file);
  ASSERT_GT(sleeper, 0);
  ASSERT_FALSE(process_gone(sleeper));

  ASSERT_EQ(::kill(helper, SIGKILL), 0);
  int status = 0;
  ASSERT_EQ(::waitpid(helper, &status, 0), helper);
  EXPECT_TRUE(WIFSIGNALED(status));
  EXPECT_TRUE(eventually([&] { return process_gone(sleeper); })) << "sleep " << sleeper << " outlived Parley";
  if (!process_gone(sleeper)) ::kill(sleeper, SIGKILL);
}

}  // namespace

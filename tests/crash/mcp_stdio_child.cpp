// The process the MCP stdio test kills with SIGKILL (tests/unit/tools/mcp_stdio_transport_test.cpp):
// it opens a stdio transport to a shell that starts `sleep 1000` and writes that sleep's pid to
// PID_FILE, then waits for the server's messages until it is killed.
// usage: parley_mcp_stdio_child PID_FILE
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include <cstdio>
#include <string>
#include <vector>

#include "parley/tools/mcp/stdio_transport.hpp"

extern char** environ;

namespace {

boost::asio::awaitable<void> serve(parley::tools::mcp::stdio_transport& server, int& status) {
  auto opened = co_await server.open();
  if (!opened) {
    std::fprintf(stderr, "%s\n", opened.err().message.c_str());
    status = 1;
    co_return;
  }
  auto message = co_await server.receive();  // the server says nothing: this waits for the kill
  std::fprintf(stderr, "unexpected: %s\n", message ? message->c_str() : message.err().message.c_str());
  status = 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: parley_mcp_stdio_child PID_FILE\n");
    return 2;
  }
  std::vector<std::string> env;
  for (char** entry = environ; *entry != nullptr; ++entry) env.emplace_back(*entry);
  parley::tools::mcp::stdio_command command{
      {"sh", "-c", "sleep 1000 & echo $! > \"$1\"; wait", "sh", argv[1]}, {}, std::move(env)};
  boost::asio::io_context io;
  parley::tools::mcp::stdio_transport server(io.get_executor(), "sleeper", std::move(command));
  int status = 0;
  boost::asio::co_spawn(io, serve(server, status), boost::asio::detached);
  io.run();
  return status;
}

// MCP over stdio: the server is a child process that reads one JSON-RPC message a line on its
// stdin and writes one a line on its stdout; what it writes on stderr is read all the time (so a
// chatty server never blocks) and its last lines kept for the error when it dies.
//
// No orphans, even after kill -9 of Parley: the server runs under a supervisor that kills the
// server's whole process group when Parley dies (stdio_supervisor.hpp). open() must therefore run
// on a thread that lives as long as the process (the engine's io thread does).
#pragma once

#include <boost/asio/any_io_executor.hpp>

#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "parley/tools/mcp/transport.hpp"

namespace parley::tools::mcp {

struct stdio_command {
  std::vector<std::string> argv;  // argv[0] is looked up on env's PATH when it has no '/'
  std::filesystem::path cwd;      // empty: Parley's own
  std::vector<std::string> env;   // the server's whole environment, "NAME=value", resolved by the caller
  std::size_t max_message_bytes = kMaxMessageBytes;  // a longer line ends the connection
};

class stdio_transport final : public transport {
 public:
  stdio_transport(boost::asio::any_io_executor executor, std::string server_id, stdio_command command);
  ~stdio_transport() override;
  stdio_transport(const stdio_transport&) = delete;
  stdio_transport& operator=(const stdio_transport&) = delete;

  // A send or receive cancelled through the caller's cancellation slot returns errc::cancelled and
  // leaves the connection as it was (a send only when none of its bytes went out yet). When the
  // server closes its stdout, receive waits for its exit to report it (or for close()).
  boost::asio::awaitable<result<void>> open() override;
  boost::asio::awaitable<result<void>> send(std::string message) override;
  boost::asio::awaitable<result<std::string>> receive() override;
  void close() override;

  // The supervisor's pid, which is also the process group of the server and all it started;
  // -1 before open.
  int process_group() const;

  struct state;  // shared with the coroutines that read the pipes, so they outlive nothing they use

 private:
  std::shared_ptr<state> state_;
};

}  // namespace parley::tools::mcp

// `parley mcp`: MCP's stdio transport (docs/mcp.md, "Parley as an MCP server"). One JSON-RPC
// message a line on the input, one a line on the output, nothing else on either (logs go to
// stderr). Requests run concurrently, their lines written whole and in the order they are ready.
// A line that is not a message is answered with the error JSON-RPC prescribes; a line over
// kMaxMcpLineBytes is answered with a parse error and skipped to its end.
//
// When the input ends, every request still waiting stops (answering nothing: the client is gone)
// and run() returns once they have; the dialogs they started stay in the log, for `parley serve`
// or the next `parley mcp` to take up.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include <cstddef>
#include <memory>

#include "parley/server/mcp_request.hpp"

namespace parley::server {

inline constexpr std::size_t kMaxMcpLineBytes = std::size_t{4} << 20;

class mcp_stdio {
 public:
  // Reads `in_fd` and writes `out_fd` (duplicated: the caller keeps its own). `who` and `context`
  // outlive it.
  mcp_stdio(boost::asio::any_io_executor executor, server_context& context, const user& who, mcp_settings settings,
            int in_fd, int out_fd);
  ~mcp_stdio();
  mcp_stdio(const mcp_stdio&) = delete;
  mcp_stdio& operator=(const mcp_stdio&) = delete;

  // Serves until the input ends or fails, and every request has ended.
  boost::asio::awaitable<void> run();
  // Takes the input as ended (SIGTERM): run() then stops as at the end of the input.
  void stop_reading();

  struct state;  // the session, both ends and the requests running; shared with their coroutines

 private:
  std::shared_ptr<state> state_;
};

}  // namespace parley::server

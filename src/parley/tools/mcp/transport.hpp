// How an MCP client reaches one server: a channel that carries whole JSON-RPC messages both ways.
// Two kinds: stdio (a child process, one message a line on its stdin and stdout; stdio_transport.hpp)
// and streamable HTTP (a POST per message whose answer is JSON or an SSE stream, plus an optional
// GET stream for what the server sends unasked; http_transport.hpp). The session (session.hpp)
// speaks the protocol over either and never knows which.
//
// A transport lives on one executor (the session's strand): send and receive are called from
// coroutines on it, at most one send and one receive at a time.
#pragma once

#include <boost/asio/awaitable.hpp>

#include <cstddef>
#include <string>

#include "parley/core/result.hpp"

namespace parley::tools::mcp {

// Larger messages break the connection (the server is then restarted): a bound on what one server
// can make Parley hold, far above a tool result's own limit (mcp_server_config::max_result_bytes),
// which the session applies to the parsed result so an oversized result is a tool error.
constexpr std::size_t kMaxMessageBytes = std::size_t{64} << 20;

class transport {
 public:
  virtual ~transport() = default;
  // Starts the process, or checks that the URL answers; after success, send and receive work.
  // The error names the server and says what failed (the program not found, the connection refused).
  virtual boost::asio::awaitable<result<void>> open() = 0;
  // Sends one message (its JSON text, without a newline).
  virtual boost::asio::awaitable<result<void>> send(std::string message) = 0;
  // The next message the server sent. An error when the connection is over: the process exited
  // (with its exit status and the last lines of its stderr in the message), the stream ended, or a
  // message was larger than kMaxMessageBytes. After an error, the transport is dead.
  virtual boost::asio::awaitable<result<std::string>> receive() = 0;
  // MCP's streamable HTTP sends the negotiated revision on every later request
  // (`MCP-Protocol-Version`); stdio needs nothing.
  // By value: the HTTP transport keeps it (a sink), though this default drops it.
  virtual void set_protocol_version(std::string /*version*/) {}  // NOLINT(performance-unnecessary-value-param)
  // Ends the connection now: kills the process group (stdio), or sends DELETE for the session
  // (HTTP, best effort). A pending receive completes with an error. Safe to call more than once.
  virtual void close() = 0;
};

}  // namespace parley::tools::mcp

// What the MCP session (mcp_session.hpp) hands each request's handler: where the request's own
// messages go (mcp_reply, written by the transport), how it learns it was cancelled, and the
// settings of the server. Transport-independent: stdio (mcp_stdio.hpp) and streamable HTTP
// (mcp_http.hpp) each implement mcp_reply.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/json/value.hpp>

#include <chrono>
#include <functional>
#include <optional>
#include <string>

#include "parley/server/server_context.hpp"
#include "parley/server/users.hpp"

namespace parley::server {

struct mcp_settings {
  // How long a tools/call waits for a member's tree before it returns status "working" (the
  // dialog goes on; wait_for_answer picks it up). Below the official SDK's default request
  // timeout of 60 s, so a client that keeps that default still gets the dialog id.
  std::chrono::milliseconds call_timeout{std::chrono::seconds(50)};
  std::string server_version;  // serverInfo.version
};

// Where the messages about one request go, in order: notifications (progress), then at most one
// response. A transport may hold the notifications back (an HTTP client that takes only JSON).
class mcp_reply {
 public:
  virtual ~mcp_reply() = default;
  // One notification's JSON text; false once the client is gone (the request then stops).
  virtual boost::asio::awaitable<bool> notify(std::string message) = 0;
  // The response's JSON text.
  virtual boost::asio::awaitable<void> respond(std::string message) = 0;
};

// A request in flight. notifications/cancelled or the client's going away cancels it: its wait
// ends and it sends no response (the dialog it started goes on).
class request_cancel {
 public:
  bool cancelled() const noexcept { return cancelled_; }
  void cancel() {
    cancelled_ = true;
    if (wake_) wake_();
  }
  // What wakes the request's wait; empty when it waits for nothing.
  void set_wake(std::function<void()> wake) { wake_ = std::move(wake); }

 private:
  bool cancelled_ = false;
  std::function<void()> wake_;
};

// Everything a tools/call handler works with.
struct mcp_call_env {
  server_context& context;
  const user& who;
  const mcp_settings& settings;
  std::string version;  // the negotiated protocol revision
  request_cancel& cancel;
  mcp_reply& reply;
  std::optional<boost::json::value> progress_token;  // params._meta.progressToken
};

}  // namespace parley::server

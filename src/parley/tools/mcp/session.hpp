// The client side of one MCP connection: the handshake, requests matched to their responses, and
// what the server sends unasked — over any transport (transport.hpp), on one executor.
//
// start() opens the transport and runs `initialize` (Parley offers kLatestProtocolVersion and
// accepts any of kSupportedProtocolVersions in the answer), then sends `notifications/initialized`.
// From then on a reader coroutine takes every message the server sends:
//   - a response completes the request with its id (one for an id nobody waits for is skipped);
//   - a request is answered: `ping` with {}, `roots/list` with the workspace as a file:// root,
//     anything else with JSON-RPC's method-not-found;
//   - `notifications/progress` goes to the progress callback of the call it names,
//     `notifications/{tools,resources,prompts}/list_changed` marks that list stale (list_version),
//     `notifications/message` is logged (bounded), any other notification is ignored.
// Whatever arrives unasked counts against a budget (settings.notification_budget a second): beyond
// it, messages are dropped and counted, so a flood costs neither memory nor the calls' answers.
// A message that is not valid JSON-RPC is logged once, naming the server, and skipped; a response
// that is invalid but names a pending request fails that request at once.
//
// Every request has a deadline (call_timeout; start_timeout for the handshake): when it passes,
// or the caller's cancellation slot is emitted, `notifications/cancelled` is sent and the request
// fails with a sentence. When the transport fails (the process exited, the stream ended), every
// pending request fails with that error and the session is dead: no call ever hangs.
//
// A session is owned through a shared_ptr (its reader and writer hold one). close() must be
// called to end it (server_runtime does); it kills the process and fails what is pending.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/tools/mcp/json_rpc.hpp"
#include "parley/tools/mcp/protocol_types.hpp"
#include "parley/tools/mcp/transport.hpp"

namespace parley::tools::mcp {

// Where a session's (and a runtime's) log lines go: one line each, without the newline. The text
// may come from a server; the sink makes it safe for a terminal (terminal_safe) if it prints it.
using log_sink = std::function<void(const std::string& line)>;
// The default sink: "parley: mcp: <line>" on stderr, control characters escaped.
void log_to_stderr(const std::string& line);

struct session_settings {
  std::string server_id;  // named in every error and log line
  std::chrono::milliseconds start_timeout{30'000};
  std::chrono::milliseconds call_timeout{120'000};
  std::size_t max_result_bytes = std::size_t{1} << 20;  // tools/call, resources/read, prompts/get
  std::filesystem::path workspace;                      // answered to roots/list
  std::size_t notification_budget = 1000;               // unasked messages a second
  std::size_t max_pages = 100;                          // of one list (nextCursor followed)
  log_sink log;                                         // empty: log_to_stderr
};

struct progress_update {
  double progress = 0;
  std::optional<double> total;
  std::string message;
};

struct call_options {
  std::function<void(const progress_update&)> on_progress;  // empty: no progress token is sent
  boost::asio::cancellation_slot cancel;                    // emitted: the call is cancelled
};

enum class list_kind { tools, resources, prompts };

class session : public std::enable_shared_from_this<session> {
 public:
  static std::shared_ptr<session> create(boost::asio::any_io_executor executor, std::unique_ptr<transport> channel,
                                         session_settings settings);
  ~session();
  session(const session&) = delete;
  session& operator=(const session&) = delete;

  // Opens the transport and runs the handshake, all within start_timeout. The error names the
  // server (and, for a revision Parley does not speak, both revisions).
  boost::asio::awaitable<result<server_identity>> start();

  boost::asio::awaitable<result<std::vector<tool_info>>> list_tools();
  boost::asio::awaitable<result<tool_call_result>> call_tool(std::string name, boost::json::object arguments,
                                                             call_options options = {});
  boost::asio::awaitable<result<std::vector<resource_info>>> list_resources();
  boost::asio::awaitable<result<std::vector<resource_template_info>>> list_resource_templates();
  boost::asio::awaitable<result<std::vector<resource_contents>>> read_resource(std::string uri);
  boost::asio::awaitable<result<std::vector<prompt_info>>> list_prompts();
  boost::asio::awaitable<result<prompt_result>> get_prompt(std::string name,
                                                           std::map<std::string, std::string> arguments);

  // Ends the connection: the transport is closed (its process killed) and every pending request
  // fails with `why`. Safe to call more than once.
  void close(std::string why = "the connection was closed");
  // Not closed, and the transport has not failed.
  bool alive() const noexcept { return !failure_.has_value(); }
  // Why the session is dead ("" while alive), and the kind of error: errc::not_found when a
  // streamable HTTP server no longer knows the session (it expired: a new one is to be started).
  std::string failure() const { return failure_.value_or(""); }
  errc failure_code() const noexcept { return failure_code_; }
  const server_identity& identity() const noexcept { return identity_; }
  // Bumped by each list_changed notification of that kind: a list read at another version is stale.
  std::uint64_t list_version(list_kind kind) const noexcept { return list_versions_[static_cast<int>(kind)]; }
  // Unasked messages dropped because they came faster than the budget.
  std::uint64_t dropped_messages() const noexcept { return dropped_; }

 private:
  struct pending_request {
    boost::asio::steady_timer* wake = nullptr;  // cancelled when `outcome` is set
    std::optional<result<boost::json::value>> outcome;
    std::function<void(const progress_update&)> on_progress;
    std::size_t max_bytes = kMaxMessageBytes;
  };
  struct limits {
    std::chrono::milliseconds timeout;
    std::size_t max_bytes;
  };

  session(boost::asio::any_io_executor executor, std::unique_ptr<transport> channel, session_settings settings);

  boost::asio::awaitable<result<boost::json::value>> request(std::string method, boost::json::object params,
                                                             limits bounds, call_options* options = nullptr);
  template <class T>
  boost::asio::awaitable<result<std::vector<T>>> list_all(std::string method,
                                                          result<listed_page<T>> (*read)(const boost::json::value&));
  boost::asio::awaitable<result<void>> open_within(std::chrono::milliseconds timeout);
  static boost::asio::awaitable<void> read_loop(std::shared_ptr<session> self);
  static boost::asio::awaitable<void> write_loop(std::shared_ptr<session> self);
  void send(std::string message, bool droppable = false);
  void fail(const std::string& why, errc code = errc::unavailable);

  void dispatch(const std::string& text);
  void on_invalid(const std::string& text, const std::string& problem);
  void on_response(rpc_response response, std::size_t size);
  void on_request(const rpc_request& request);
  void on_notification(const rpc_notification& notification);
  // Counts an unasked message against the budget; false when it is to be dropped.
  bool within_budget();
  void log(const std::string& line) const;
  std::string named(const std::string& text) const;  // "MCP server 'id' " + text

  boost::asio::any_io_executor executor_;
  std::unique_ptr<transport> transport_;
  session_settings settings_;
  server_identity identity_;
  std::optional<std::string> failure_;
  errc failure_code_ = errc::unavailable;
  std::int64_t next_id_ = 1;
  std::unordered_map<std::int64_t, pending_request*> pending_;
  std::deque<std::string> outbox_;
  bool writing_ = false;
  std::uint64_t list_versions_[3] = {0, 0, 0};
  // The budget for unasked messages: a count per one-second window.
  std::chrono::steady_clock::time_point window_start_{};
  std::size_t window_count_ = 0;
  std::size_t window_logged_ = 0;  // notifications/message lines logged in this window
  std::uint64_t dropped_ = 0;
  std::chrono::steady_clock::time_point flood_logged_{};
  bool invalid_logged_ = false;
  bool unknown_id_logged_ = false;
};

}  // namespace parley::tools::mcp

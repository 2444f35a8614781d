// Internal to the streamable HTTP transport: what the transport and the coroutines of its requests
// in flight share. The coroutines hold it by shared_ptr, so a request still finishing after the
// transport is gone touches nothing freed; close() cancels them all.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/cancellation_signal.hpp>

#include <list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "parley/http/client.hpp"
#include "parley/tools/mcp/http_inbox.hpp"
#include "parley/tools/mcp/http_transport.hpp"
#include "parley/tools/mcp/json_rpc.hpp"

namespace parley::tools::mcp {

struct http_transport::state {
  state(boost::asio::any_io_executor executor, http_transport_options options, http::client_options client_options,
        std::string host);

  // A request with the configured headers, and the session's once it has one.
  http::request request(std::string method, bool with_session) const;
  // The error for a status other than 2xx: the session gone (404 to a request that carried its
  // id) or what the server said.
  error status_error(const http::response& answer, bool sent_session, std::string_view what) const;
  // An error of the HTTP client (connection, timeout), named.
  error wire_error(const error& failure) const;

  boost::asio::any_io_executor executor;
  http_transport_options options;
  http::client client;
  http_inbox inbox;
  std::string host;  // the URL's authority, for errors
  std::string session_id;
  std::string protocol_version;
  bool closed = false;
  bool listening = false;
  // One per coroutine on the wire; close() emits them all.
  std::list<boost::asio::cancellation_signal> in_flight;
};

// One registered coroutine on the wire, for as long as it lives.
class in_flight_entry {
 public:
  explicit in_flight_entry(http_transport::state& shared)
      : shared_(shared), entry_(shared.in_flight.emplace(shared.in_flight.end())) {}
  ~in_flight_entry() { shared_.in_flight.erase(entry_); }
  in_flight_entry(const in_flight_entry&) = delete;
  in_flight_entry& operator=(const in_flight_entry&) = delete;
  boost::asio::cancellation_slot slot() { return entry_->slot(); }

 private:
  http_transport::state& shared_;
  std::list<boost::asio::cancellation_signal>::iterator entry_;
};

// What the transport needs to know of a message it sends.
struct outgoing_message {
  std::optional<request_id> id;  // a request's: its answer should carry the response
  std::string method;            // a request's or a notification's
  std::string text;
};

// One POST and what its answer carries (http_streams.cpp).
boost::asio::awaitable<void> post_message(std::shared_ptr<http_transport::state> shared, outgoing_message message);
// The GET stream of what the server sends unasked, opened again whenever it ends.
boost::asio::awaitable<void> listen_to_server(std::shared_ptr<http_transport::state> shared);

}  // namespace parley::tools::mcp

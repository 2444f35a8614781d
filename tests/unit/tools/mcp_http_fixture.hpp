// What the tests of MCP's streamable HTTP transport share: running a coroutine on the test's
// io_context while the transport's own streams keep running (the GET stream never ends, so the
// io_context is stopped when the awaited coroutine is done, not when it runs out of work),
// JSON-RPC messages to send, and reading what comes back up to a response.
#pragma once

#include <gtest/gtest.h>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/json.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "parley/tools/mcp/http_transport.hpp"
#include "parley/tools/mcp/json_rpc.hpp"

namespace parley::tools::mcp::testing {

namespace asio = boost::asio;
namespace json = boost::json;

// Runs `task` until it completes and returns its value. A guard against a hang: a test that has
// not finished after `guard` aborts the binary, naming itself (a transport must never hang).
template <class T>
T run_task(asio::io_context& io, asio::awaitable<T> task, std::chrono::seconds guard = std::chrono::seconds(90)) {
  std::optional<T> value;
  std::exception_ptr failure;
  auto store = [](asio::awaitable<T> inner, std::optional<T>& out) -> asio::awaitable<void> {
    out.emplace(co_await std::move(inner));
  };
  asio::steady_timer watchdog(io, guard);
  watchdog.async_wait([](const boost::system::error_code& ec) {
    if (ec) return;
    std::fprintf(stderr, "%s hung: the awaited coroutine did not finish\n",
                 ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::abort();
  });
  asio::co_spawn(io, store(std::move(task), value), [&](std::exception_ptr e) {
    failure = e;
    io.stop();
  });
  io.restart();
  io.run();
  watchdog.cancel();
  if (failure) std::rethrow_exception(failure);
  return std::move(*value);
}

inline std::string initialize_request(std::int64_t id) {
  json::object params{{"protocolVersion", "2025-11-25"},
                      {"capabilities", json::object{}},
                      {"clientInfo", json::object{{"name", "parley-test"}, {"version", "0"}}}};
  return serialize(rpc_request{id, "initialize", std::move(params)});
}

inline std::string request_text(std::int64_t id, std::string method, json::object params = {}) {
  return serialize(rpc_request{id, std::move(method), std::move(params)});
}

inline std::string notification_text(std::string method) { return serialize(rpc_notification{std::move(method), {}}); }

// Every message up to and including the response to `id`; the error that ended the transport
// instead, if one did.
inline asio::awaitable<result<std::vector<rpc_message>>> receive_until_response(transport& channel, std::int64_t id) {
  std::vector<rpc_message> seen;
  for (;;) {
    auto text = co_await channel.receive();
    if (!text) co_return std::move(text).err();
    auto message = parse_message(*text);
    if (!message) co_return make_error(errc::invalid_argument, "not JSON-RPC: " + *text);
    seen.push_back(std::move(*message));
    if (const auto* response = std::get_if<rpc_response>(&seen.back()); response != nullptr) {
      if (response->id == request_id{id}) co_return seen;
    }
  }
}

// The error that ends the transport: every message before it is skipped.
inline asio::awaitable<error> receive_until_error(transport& channel) {
  for (;;) {
    auto text = co_await channel.receive();
    if (!text) co_return std::move(text).err();
  }
}

inline const rpc_response* response_in(const std::vector<rpc_message>& seen) {
  return seen.empty() ? nullptr : std::get_if<rpc_response>(&seen.back());
}

}  // namespace parley::tools::mcp::testing

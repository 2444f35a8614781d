// An MCP server scripted by a test, at the other end of an in-memory transport: for the protocol's
// bad input that a real server never sends (invalid JSON, a response without result or error, a
// flood, silence). The real servers (tests/mcp) cover everything else.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "parley/tools/mcp/transport.hpp"

namespace parley::tools::mcp::testing {

namespace json = boost::json;

// The server's side: what the client sent, what the server sends back.
class fake_server {
 public:
  explicit fake_server(boost::asio::any_io_executor executor) : wake_(executor) {
    wake_.expires_at(boost::asio::steady_timer::time_point::max());
  }

  // Called with each message the client sends; may call reply/push. The default answers
  // `initialize` with `version` and nothing else.
  std::function<void(const json::object& message)> on_message = [this](const json::object& message) {
    if (message.contains("method") && message.at("method") == "initialize") answer_initialize(message);
  };
  std::string version = "2025-11-25";
  bool open_hangs = false;
  std::optional<std::string> open_fails;

  void answer_initialize(const json::object& message) {
    reply(message, json::object{{"protocolVersion", version},
                                {"capabilities", json::object{{"tools", json::object{}}}},
                                {"serverInfo", json::object{{"name", "fake"}, {"version", "1"}}}});
  }
  // A result for the request `message`.
  void reply(const json::object& message, json::value result) {
    push(json::serialize(json::object{{"jsonrpc", "2.0"}, {"id", message.at("id")}, {"result", std::move(result)}}));
  }
  void push(std::string text) {
    inbound_.push_back(std::move(text));
    wake_.cancel();
  }
  // The connection fails with `why` (the process exited).
  void die(std::string why, errc code = errc::io_error) {
    death_ = std::move(why);
    death_code_ = code;
    wake_.cancel();
  }

  std::vector<json::object> sent;  // by the client, in order
  std::vector<json::object> sent_with(std::string_view method) const {
    std::vector<json::object> out;
    for (const auto& message : sent) {
      if (message.contains("method") && message.at("method").as_string() == method) out.push_back(message);
    }
    return out;
  }
  bool closed = false;

 private:
  friend class fake_transport;
  boost::asio::steady_timer wake_;
  std::deque<std::string> inbound_;
  std::optional<std::string> death_;
  errc death_code_ = errc::io_error;
};

class fake_transport : public transport {
 public:
  explicit fake_transport(std::shared_ptr<fake_server> server) : server_(std::move(server)) {}

  boost::asio::awaitable<result<void>> open() override {
    if (server_->open_fails) co_return make_error(errc::io_error, *server_->open_fails);
    while (server_->open_hangs && !server_->closed) {
      boost::system::error_code ec;
      co_await server_->wake_.async_wait(boost::asio::redirect_error(boost::asio::use_awaitable, ec));
    }
    co_return ok();
  }
  boost::asio::awaitable<result<void>> send(std::string message) override {
    co_await boost::asio::post(server_->wake_.get_executor(), boost::asio::use_awaitable);
    if (server_->closed || server_->death_) co_return make_error(errc::io_error, "the connection is closed");
    auto parsed = json::parse(message).as_object();
    server_->sent.push_back(parsed);
    server_->on_message(parsed);
    co_return ok();
  }
  boost::asio::awaitable<result<std::string>> receive() override {
    co_await boost::asio::post(server_->wake_.get_executor(), boost::asio::use_awaitable);
    while (server_->inbound_.empty() && !server_->death_ && !server_->closed) {
      boost::system::error_code ec;
      co_await server_->wake_.async_wait(boost::asio::redirect_error(boost::asio::use_awaitable, ec));
    }
    if (!server_->inbound_.empty()) {
      std::string text = std::move(server_->inbound_.front());
      server_->inbound_.pop_front();
      co_return text;
    }
    if (server_->death_) co_return make_error(server_->death_code_, *server_->death_);
    co_return make_error(errc::io_error, "the connection was closed");
  }
  void close() override {
    server_->closed = true;
    server_->wake_.cancel();
  }

 private:
  std::shared_ptr<fake_server> server_;
};

}  // namespace parley::tools::mcp::testing

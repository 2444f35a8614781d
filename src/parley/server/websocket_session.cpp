// One PubChan connection: the handshake with its token check, a reader coroutine that parses and
// answers client packets, and writes that drain the bounded outbound queue one at a time, started
// where a packet is queued (write_next). All run on the engine's executor; the session lives as
// long as the reader or a write in flight holds it.
#include "parley/server/websocket_session.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/websocket.hpp>

#include <chrono>
#include <exception>
#include <memory>
#include <optional>
#include <string>

#include "parley/core/json.hpp"
#include "parley/server/auth.hpp"
#include "parley/server/pubchan.hpp"
#include "parley/server/rest_support.hpp"
#include "parley/server/wire_schema.hpp"
#include "parley/server/ws_decode.hpp"
#include "parley/server/ws_inputs.hpp"
#include "parley/server/ws_outbound_queue.hpp"

namespace parley::server {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;

constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);
constexpr std::uint16_t close_unauthorized = 4401;

// True when the comma-separated Sec-WebSocket-Protocol list offers `name`.
bool offers_subprotocol(std::string_view list, std::string_view name) {
  while (!list.empty()) {
    const auto comma = list.find(',');
    auto item = list.substr(0, comma);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (item == name) return true;
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return false;
}

class ws_session final : public pubchan_subscriber, public std::enable_shared_from_this<ws_session> {
 public:
  ws_session(server_context& context, beast::tcp_stream stream, http::request<http::string_body> request)
      : context_(context),
        ws_(std::move(stream)),
        request_(std::move(request)),
        queue_(context.options.outbound_queue_packets, context.options.outbound_queue_bytes) {}

  ~ws_session() override {
    if (attached_) context_.channels.detach(*this);
  }

  void start() {
    auto self = shared_from_this();
    asio::co_spawn(ws_.get_executor(), run(std::move(self)), asio::detached);
  }

  void deliver(const packet_ptr& packet) override {
    if (closing_ || reader_done_) return;
    if (queue_.push(packet) == outbound_queue::push_result::overflow) {
      close(static_cast<std::uint16_t>(websocket::close_code::policy_error), "client too slow");
      return;
    }
    write_next();
  }

  bool sees_root(const dialog_row& root) const override {
    return !context_.users.multi_user() || (who_ != nullptr && context_.users.may_see(*who_, root));
  }

  void close(std::uint16_t code, std::string_view reason) override {
    if (closing_) return;
    closing_ = true;
    close_code_ = code;
    close_text_ = reason;
    write_next();
  }

 private:
  asio::awaitable<void> run(std::shared_ptr<ws_session> self) {
    try {
      co_await serve(self);
    } catch (const std::exception&) {
      // A bug or an allocation failure ends this connection only.
    }
    reader_done_ = true;  // the write in flight, if any, is the last
    if (attached_) {
      attached_ = false;
      context_.channels.detach(*this);
    }
  }

  asio::awaitable<void> serve(std::shared_ptr<ws_session> self) {
    const auto protocols = request_[http::field::sec_websocket_protocol];
    const bool offered_v1 = offers_subprotocol(protocols, protocol_subprotocol);
    std::string_view token = subprotocol_token(protocols);
    if (token.empty()) token = bearer_token(request_[http::field::authorization]);
    if (context_.users.multi_user()) {
      who_ = context_.users.authenticate(token);
    } else if (context_.options.token.empty() || token_equals(context_.options.token, token)) {
      who_ = &context_.users.only_user();
    }
    const bool authorized = who_ != nullptr;

    beast::get_lowest_layer(ws_).expires_never();
    websocket::stream_base::timeout timeouts{};
    timeouts.handshake_timeout = std::chrono::seconds(30);
    timeouts.idle_timeout = std::chrono::seconds(300);
    timeouts.keep_alive_pings = true;  // a listen-only client stays alive through its pongs
    ws_.set_option(timeouts);
    const auto decorate = [offered_v1](websocket::response_type& response) {
      if (offered_v1) response.set(http::field::sec_websocket_protocol, protocol_subprotocol);
    };
    ws_.set_option(websocket::stream_base::decorator(decorate));
    // No limit in Beast: read_loop enforces max_frame_bytes itself (see there).
    ws_.read_message_max(0);
    ws_.text(true);

    auto [accept_error] = co_await ws_.async_accept(request_, use_tuple);
    if (accept_error) co_return;
    if (!authorized) {
      websocket::close_reason reason(close_unauthorized);
      reason.reason = "unauthorized";
      auto [close_error] = co_await ws_.async_close(reason, use_tuple);
      (void)close_error;
      co_return;
    }
    context_.channels.attach(*this);
    attached_ = true;
    send_welcome();
    writer_started_ = true;
    write_next();
    co_await read_loop(self);
  }

  asio::awaitable<void> read_loop(std::shared_ptr<ws_session> self) {
    constexpr std::size_t kReadChunk = 64 * 1024;
    beast::flat_buffer buffer;
    while (true) {
      auto [error, bytes] = co_await ws_.async_read_some(buffer, kReadChunk, use_tuple);
      if (error) break;  // the close handshake ended, or the connection did
      if (closing_) {
        buffer.consume(buffer.size());  // drained until the client answers the close
        continue;
      }
      if (buffer.size() > context_.options.max_frame_bytes) {
        // Refused here, not through Beast's read_message_max: Beast then closes the socket with
        // the rest of the message unread, the kernel answers the client's next bytes with a
        // reset, and the client loses the 1009 close it was sent. Draining keeps the close.
        close(static_cast<std::uint16_t>(websocket::close_code::too_big), "message too big");
        buffer.consume(buffer.size());
        continue;
      }
      if (!ws_.is_message_done()) continue;
      if (!ws_.got_text()) {
        send_error("bad_json", "expected a text frame holding a JSON object", "");
      } else {
        const auto text = beast::buffers_to_string(buffer.data());
        // Awaited: the next packet is read once this one is handled, so a client's packets take
        // effect in the order it sent them even when one waits for a read of the store.
        co_await handle_text(self, text);
      }
      buffer.consume(buffer.size());
    }
  }

  // Starts the next write unless one is in flight, from wherever a packet is queued: a stream
  // chunk goes to the socket inside the handler that published it, not after everything else the
  // loop has queued by then (a records reply, a commit's completion) — under load that wait was
  // most of a chunk's p99 (bench/README.md "The read thread's priority"). One write at a time, as
  // Beast requires; its completion starts the next. A close waits for the write in flight.
  void write_next() {
    if (!writer_started_ || writing_ || write_failed_ || close_sent_ || reader_done_) return;
    auto self = shared_from_this();
    if (closing_) {
      close_sent_ = true;
      writing_ = true;
      websocket::close_reason reason(close_code_);
      reason.reason = close_text_;
      ws_.async_close(reason, [self](beast::error_code) { self->writing_ = false; });
      return;
    }
    auto packet = queue_.pop();
    if (!packet) return;
    writing_ = true;
    const auto bytes = asio::buffer(packet->json);
    ws_.async_write(bytes, [self, packet = std::move(packet)](beast::error_code error, std::size_t) {
      self->writing_ = false;
      if (error) {
        self->write_failed_ = true;  // the connection is gone; the reader sees it too
        return;
      }
      self->write_next();
    });
  }

  asio::awaitable<void> handle_text(std::shared_ptr<ws_session> self, std::string text) {
    auto decoded = decode_client_packet(text, context_.options.max_packet_bytes);
    if (auto* refused = std::get_if<packet_refusal>(&decoded)) {
      send_error(refused->code, std::move(refused->message), refused->ref);
      co_return;
    }
    auto& [type, ref, dialog_id, packet] = std::get<client_packet>(decoded);
    if (type == client_packet_type::hello) {
      send_welcome();
      co_return;
    }
    if (type == client_packet_type::unsubscribe) {
      context_.channels.unsubscribe(*this, dialog_id);
      co_return;
    }
    auto visible = co_await check_dialog(context_, *who_, dialog_id);
    if (!visible) {
      send_error(wire_error_code(visible.err().code), visible.err().message, ref);
      co_return;
    }
    if (type == client_packet_type::subscribe) {
      auto asked = read_subscribe_request(packet);
      if (!asked) {
        send_error("bad_field", asked.err().message, ref);
        co_return;
      }
      // The state packets the subscriber gets next say whether each dialog has children.
      co_await context_.channels.learn_hierarchy(visible->root_id);
      context_.channels.subscribe(*this, dialog_id, visible->root_id, asked->after_seq, asked->epoch,
                                  visible->last_seq);
      co_return;
    }
    // Input runs beside the reader: posting may wait for the dialog's running drive to end.
    asio::co_spawn(ws_.get_executor(), handle_input(self, type, std::move(packet), ref), asio::detached);
  }

  asio::awaitable<void> handle_input(std::shared_ptr<ws_session> self, client_packet_type type,
                                     boost::json::object packet, std::string ref) {
    try {
      auto done = co_await run_input(context_, *who_, type, std::move(packet));
      if (!done) {
        send_error(wire_error_code(done.err().code), done.err().message, ref);
        co_return;
      }
      auto fields = boost::json::object{{"ref", ref}, {"ok", true}};
      deliver(encode_packet("ack", std::move(fields)));
    } catch (const std::exception& failure) {
      send_error("internal", failure.what(), ref);
    }
    (void)self;
  }

  void send_welcome() {
    deliver(encode_packet("welcome", boost::json::object{{"protocol", protocol_version},
                                                         {"epoch", context_.channels.epoch()},
                                                         {"scriptedOffline", context_.scripted_offline}}));
  }

  void send_error(std::string_view code, std::string message, std::string_view ref) {
    boost::json::object fields{{"code", code}, {"message", std::move(message)}};
    if (!ref.empty()) fields["ref"] = ref;
    deliver(encode_packet("error", std::move(fields)));
  }

  server_context& context_;
  websocket::stream<beast::tcp_stream> ws_;
  http::request<http::string_body> request_;
  outbound_queue queue_;
  const user* who_ = nullptr;  // set by the handshake's token
  bool attached_ = false;
  bool closing_ = false;
  bool reader_done_ = false;
  bool writer_started_ = false;  // after the handshake and the welcome queued
  bool writing_ = false;         // a write or the close is in flight
  bool write_failed_ = false;
  bool close_sent_ = false;
  std::uint16_t close_code_ = 1000;
  std::string close_text_;
};

}  // namespace

void start_websocket_session(server_context& context, boost::beast::tcp_stream stream,
                             boost::beast::http::request<boost::beast::http::string_body> request) {
  std::make_shared<ws_session>(context, std::move(stream), std::move(request))->start();
}

}  // namespace parley::server

#include "failover_ws.hpp"

#include <boost/asio/buffer.hpp>
#include <boost/asio/post.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/json/parse.hpp>

#include <chrono>

namespace parley::bench {

namespace beast = boost::beast;
namespace websocket = boost::beast::websocket;
namespace json = boost::json;

cross_node_watch::cross_node_watch(unsigned short port, const std::string& token) : ws_(io_) {
  try {
    ws_.next_layer().connect({boost::asio::ip::make_address("127.0.0.1"), port});
    // The token rides as a subprotocol beside parley.v1, as a browser's would.
    const std::string protocols = "parley.v1, parley-token." + token;
    const auto decorate = [protocols](websocket::request_type& request) {
      request.set(beast::http::field::sec_websocket_protocol, protocols);
    };
    ws_.set_option(websocket::stream_base::decorator(decorate));
    ws_.handshake("127.0.0.1:" + std::to_string(port), "/ws");
    connected_ = true;
  } catch (const std::exception&) {
    return;
  }
  read_next();
  thread_ = std::thread([this] { io_.run(); });
}

cross_node_watch::~cross_node_watch() { (void)finish(); }

void cross_node_watch::subscribe(const std::string& dialog_id) {
  if (!connected_) return;
  std::string packet = R"({"type":"subscribe","dialog":{"selfId":")" + dialog_id + "\"}}";
  boost::asio::post(io_, [this, packet = std::move(packet)]() mutable {
    outbox_.push_back(std::move(packet));
    if (!writing_) write_next();
  });
}

void cross_node_watch::write_next() {
  if (outbox_.empty()) {
    writing_ = false;
    return;
  }
  writing_ = true;
  ws_.async_write(boost::asio::buffer(outbox_.front()), [this](beast::error_code error, std::size_t) {
    outbox_.pop_front();
    if (error) {
      writing_ = false;
      return;
    }
    write_next();
  });
}

void cross_node_watch::read_next() {
  ws_.async_read(buffer_, [this](beast::error_code error, std::size_t) {
    if (error) return;  // closed: finish() or the node went away
    const double now_ms =
        std::chrono::duration<double, std::milli>(std::chrono::system_clock::now().time_since_epoch()).count();
    const std::string text = beast::buffers_to_string(buffer_.data());
    buffer_.consume(buffer_.size());
    json::error_code parse_error;
    const auto packet = json::parse(text, parse_error);
    if (!parse_error && packet.is_object()) {
      const auto& object = packet.as_object();
      const auto* type = object.if_contains("type");
      const auto* log_seq = object.if_contains("logSeq");
      const auto* dialog = object.if_contains("dialog");
      const std::lock_guard lock(mutex_);
      if (type != nullptr && type->is_string() && type->as_string() == "resync") {
        ++resyncs_;
      } else if (type != nullptr && type->is_string() && type->as_string() == "error") {
        ++errors_;
      } else if (log_seq != nullptr && log_seq->is_int64() && dialog != nullptr && dialog->is_object() &&
                 dialog->as_object().contains("selfId")) {
        arrivals_.push_back({std::string(dialog->as_object().at("selfId").as_string()), log_seq->as_int64(), now_ms});
      } else {
        ++others_;
      }
    }
    read_next();
  });
}

std::vector<ws_arrival> cross_node_watch::finish() {
  if (thread_.joinable()) {
    boost::asio::post(io_, [this] {
      beast::error_code ignored;
      ws_.next_layer().shutdown(boost::asio::ip::tcp::socket::shutdown_both, ignored);
      ws_.next_layer().close(ignored);
    });
    thread_.join();
  }
  const std::lock_guard lock(mutex_);
  return std::move(arrivals_);
}

}  // namespace parley::bench

// parley-bench failover's cross-node watcher: one WebSocket (/ws, protocol parley.v1,
// docs/server.md) on one node, subscribed to dialogs that another node drives, noting when each
// log event's packet arrives (the system clock, which the database's shares on this machine). The
// bench compares that with the event's commit time read from the database afterwards.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/websocket.hpp>

#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace parley::bench {

struct ws_arrival {
  std::string dialog;
  long long log_seq = 0;
  double at_ms = 0;  // system clock, ms since the epoch
};

class cross_node_watch {
 public:
  // Connects and starts reading on a thread of its own; `connected()` says whether it could.
  cross_node_watch(unsigned short port, const std::string& token);
  ~cross_node_watch();
  cross_node_watch(const cross_node_watch&) = delete;
  cross_node_watch& operator=(const cross_node_watch&) = delete;

  bool connected() const noexcept { return connected_; }
  // Any thread.
  void subscribe(const std::string& dialog_id);
  // Closes the socket, joins the thread; what arrived, and how many packets of each kind.
  std::vector<ws_arrival> finish();
  long long resyncs() const noexcept { return resyncs_; }
  long long errors() const noexcept { return errors_; }
  long long other_packets() const noexcept { return others_; }

 private:
  void read_next();
  void write_next();

  boost::asio::io_context io_;
  boost::beast::websocket::stream<boost::asio::ip::tcp::socket> ws_;
  boost::beast::flat_buffer buffer_;
  std::deque<std::string> outbox_;  // on the io thread only
  bool writing_ = false;
  bool connected_ = false;
  std::thread thread_;
  std::mutex mutex_;
  std::vector<ws_arrival> arrivals_;
  long long resyncs_ = 0, errors_ = 0, others_ = 0;
};

}  // namespace parley::bench

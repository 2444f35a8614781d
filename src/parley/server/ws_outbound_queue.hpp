// The outbound queue of one WebSocket connection, bounded by packets and bytes (docs/server.md
// "Bounded and fair"). When a push goes over a bound, adjacent queued chunk packets of the same
// dialog and segment are merged into one (nothing is lost: the text is concatenated); if the queue
// is still over, the push reports overflow and the connection is closed with 1008.
#pragma once

#include <cstddef>
#include <deque>

#include "parley/server/wire_packet.hpp"

namespace parley::server {

class outbound_queue {
 public:
  outbound_queue(std::size_t max_packets, std::size_t max_bytes) : max_packets_(max_packets), max_bytes_(max_bytes) {}

  enum class push_result { queued, coalesced, overflow };
  push_result push(packet_ptr packet);
  // The oldest packet, or null when empty.
  packet_ptr pop();

  bool empty() const noexcept { return items_.empty(); }
  std::size_t size() const noexcept { return items_.size(); }
  std::size_t bytes() const noexcept { return bytes_; }
  const std::deque<packet_ptr>& items() const noexcept { return items_; }

 private:
  bool over() const noexcept { return items_.size() > max_packets_ || bytes_ > max_bytes_; }
  void coalesce();

  std::size_t max_packets_;
  std::size_t max_bytes_;
  std::deque<packet_ptr> items_;
  std::size_t bytes_ = 0;
};

}  // namespace parley::server

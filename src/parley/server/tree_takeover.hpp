// Takes over the trees of a node that died or stalled, on a store several `parley serve` share
// (PostgreSQL, docs/scale-out.md): every half lease, the trees that owe work and whose lease is
// missing or expired are claimed and driven here (drive_control::adopt_orphaned_trees). With one
// lease length L, a tree whose node was killed goes on within about 1.5 L.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>

#include "parley/engine/engine.hpp"

namespace parley::server {

class tree_takeover {
 public:
  tree_takeover(boost::asio::any_io_executor executor, engine::engine& eng, std::chrono::milliseconds every);
  tree_takeover(const tree_takeover&) = delete;
  tree_takeover& operator=(const tree_takeover&) = delete;

  void start();
  void stop();

 private:
  boost::asio::awaitable<void> run();

  boost::asio::any_io_executor executor_;
  engine::engine& engine_;
  std::chrono::milliseconds every_;
  boost::asio::steady_timer timer_;
  bool stopped_ = false;
};

}  // namespace parley::server

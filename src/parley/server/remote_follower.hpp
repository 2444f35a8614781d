// What other `parley serve` nodes on the same store do, made live here (docs/scale-out.md): a
// browser on this node watches a tree another node drives and sees its events in order, and input
// forwarded to this node for a tree it drives is delivered.
//
// The store's change feed (store::watch_changes) brings hints — a dialog's new last seq, a root
// whose list entry changed, a tree with forwarded input — which are posted to the engine's
// executor. For the dialogs somebody here subscribes to, the events after what was published are
// read from the log — those of every hinted dialog in one read, on a read thread of the follower's
// own so that a busy API does not delay them — and published by the PubChan as if the engine had
// appended them; the log's seqs make a hint that arrives twice, late or never harmless. A timer catches up
// on every watched dialog and on forwarded input, and so does a `missed` (the feed reconnected).
// Streaming chunks stay on the node that drives the tree: another node shows whole events.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>

#include <atomic>
#include <chrono>
#include <memory>
#include <set>
#include <string>

#include "parley/engine/store_reads.hpp"
#include "parley/server/pubchan.hpp"
#include "parley/server/tree_inputs.hpp"
#include "parley/store/store.hpp"

namespace parley::server {

class remote_follower {
 public:
  remote_follower(boost::asio::any_io_executor executor, store& log, engine::store_reads* reads, pubchan& channels,
                  tree_inputs& inputs, std::chrono::milliseconds catch_up_every);
  ~remote_follower();
  remote_follower(const remote_follower&) = delete;
  remote_follower& operator=(const remote_follower&) = delete;

  void start();
  // On the executor: hints that arrive later are dropped.
  void stop();

 private:
  boost::asio::awaitable<void> take(change_hints hints);
  // Reads what the dialogs in want_ have past what the PubChan published, in one read, and
  // publishes it; one read at a time (dialogs hinted meanwhile are read by the next).
  boost::asio::awaitable<void> catch_up();
  // A subdialog another node created under a watched dialog: its creation is announced.
  boost::asio::awaitable<void> announce_created(std::string dialog_id);
  boost::asio::awaitable<void> announce_list_entry(std::string root_id);
  boost::asio::awaitable<void> run_timer();

  boost::asio::any_io_executor executor_;
  store& log_;
  engine::store_reads* reads_;
  pubchan& channels_;
  tree_inputs& inputs_;
  std::chrono::milliseconds catch_up_every_;
  boost::asio::steady_timer timer_;
  // Shared with the feed's handler, which may still run once after stop (it then posts nothing).
  std::shared_ptr<std::atomic<bool>> alive_ = std::make_shared<std::atomic<bool>>(true);
  std::set<std::string, std::less<>> want_;  // watched dialogs hinted past what was published
  bool reading_ = false;
};

}  // namespace parley::server

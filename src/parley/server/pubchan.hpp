// PubChan: turns what the engine reports into wire events (docs/server.md), numbers them per
// dialog, keeps a replay window per dialog and fans them out to subscribed WebSocket sessions.
// Lives on the engine's executor: nothing here locks.
//
// Each wire event is serialized once (wire_packet) and the same buffer goes to the replay ring and
// to every subscriber's queue.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include "parley/core/result.hpp"
#include "parley/engine/engine.hpp"
#include "parley/engine/observer.hpp"
#include "parley/engine/store_reads.hpp"
#include "parley/server/server_options.hpp"
#include "parley/server/wire_packet.hpp"
#include "parley/store/store.hpp"

namespace parley::server {

// One WebSocket connection as PubChan sees it. Neither call may detach the subscriber on the spot
// (PubChan may be iterating over its subscribers): a session that must close does so later.
class pubchan_subscriber {
 public:
  virtual ~pubchan_subscriber() = default;
  virtual void deliver(const packet_ptr& packet) = 0;
  // Whether this connection's user may see dialogs under `root` (global packets are filtered by it).
  virtual bool sees_root(const dialog_row& root) const = 0;
  // Closes the connection with `code` (1001 on shutdown).
  virtual void close(std::uint16_t code, std::string_view reason) = 0;
};

class pubchan : public engine::engine_observer {
 public:
  // Registers itself as an observer of `eng`; must outlive the engine's drives.
  pubchan(engine::engine& eng, store& log, const server_options& options);
  pubchan(const pubchan&) = delete;
  pubchan& operator=(const pubchan&) = delete;

  // This process's epoch: wire seqs are only comparable within one epoch.
  const std::string& epoch() const noexcept { return epoch_; }

  // A connection receives global packets from attach until detach; detach also unsubscribes it.
  void attach(pubchan_subscriber& subscriber);
  void detach(pubchan_subscriber& subscriber);

  // Where the PubChan reads the store: on this read thread, never on the loop (null: right there,
  // for tests and benchmarks that build a PubChan without one).
  // What it awaits resumes on `executor`, the engine's.
  void set_store_reads(engine::store_reads* reads, boost::asio::any_io_executor executor) {
    reads_ = reads;
    executor_ = std::move(executor);
  }

  // Delivers the replay (afterSeq + epoch inside the window) or a `resync`, then live events. The
  // caller has read the dialog's row (it checked that the dialog exists and who may see it), so
  // subscribing reads nothing. `log_head`: the dialog's last seq in the row the caller read — what
  // the transcript a resynced client fetches holds at least, and where the events another process
  // appends to the dialog are followed from (remote_follower.hpp).
  void subscribe(pubchan_subscriber& subscriber, std::string_view dialog_id, std::string_view root_id,
                 std::optional<std::int64_t> after_seq, std::string_view epoch, std::int64_t log_head = 0);
  // The same for a caller that has no row: the engine's, else the store's, read right here — for
  // tests and tools with no loop to keep free. Fails with not_found for an unknown dialog.
  result<void> subscribe(pubchan_subscriber& subscriber, std::string_view dialog_id,
                         std::optional<std::int64_t> after_seq, std::string_view epoch);
  // Reads which dialogs of the hierarchy `root_id` have children, unless known already: awaited
  // by an input or a subscription before it reaches a hierarchy the store holds from before this
  // process, so that the state packets that follow say `hasChildren` without a read on the loop.
  boost::asio::awaitable<void> learn_hierarchy(std::string root_id);
  void unsubscribe(pubchan_subscriber& subscriber, std::string_view dialog_id);

  // Closes every WebSocket with code 1001 (going away): graceful shutdown.
  void close_all();
  std::size_t connection_count() const noexcept { return connections_.size(); }
  // The last wire seq of a dialog (0 when it has none yet); benchmarks match deliveries to it.
  std::int64_t last_seq(std::string_view dialog_id) const;
  // Dialogs with a replay window in memory: those watched or generating, and at most
  // `idle_channels_kept` others.
  std::size_t channel_count() const noexcept { return channels_.size(); }
  // Dialogs known to have children, cached: at most server_options::hierarchies_cached.
  std::size_t cached_parents() const noexcept { return parents_.size(); }

  // A packet about the root `root_id` as a whole (a ToT run's progress), numbered on the root's
  // channel: only the root's subscribers get it, in order, and a reconnect replays it.
  void publish_to_root(std::string_view root_id, std::string_view type, boost::json::object extra);

  // Dialogs another process drives (a store several nodes share, remote_follower.hpp): what they
  // appended reaches this PubChan as log events read from the store.
  //
  // The dialogs somebody here subscribes to, and the log seq each was last published at: what
  // the follower reads after.
  std::vector<std::pair<std::string, std::int64_t>> watched_log_seqs() const;
  // The log seq a watched dialog was last published at; nullopt when nobody here subscribes to it.
  std::optional<std::int64_t> watched_log_seq(std::string_view dialog_id) const;
  // Whether somebody here subscribes to the root `root_id` (its subdialogs are then announced).
  bool watches(std::string_view dialog_id) const { return watched_log_seq(dialog_id).has_value(); }
  // Publishes `events` (one dialog's, in seq order, read from the store) as the engine's own would
  // be, those at or below what was published already skipped; `row` is the dialog's row as read
  // with them, which its state packets show.
  void publish_remote(const dialog_row& row, const std::vector<event>& events);
  // A root another process created or whose status changed: its entry in every list that shows it.
  void publish_remote_list_entry(const dialog_row& root);
  // Called with a dialog the engine does not hold when it gets its first subscriber here: another
  // process may be appending to it, and a hint it sent before the subscription was not followed.
  void on_new_watch(std::function<void(const std::string&)> watched) { on_new_watch_ = std::move(watched); }

  void on_stream(const engine::stream_event& ev) override;
  void on_event(const event& ev) override;
  void on_durable(const event& ev) override;
  void on_questions_count(const engine::questions_count_update& update) override;
  void on_drive_finished(std::string_view dialog_id) override;
  // The tree's watched dialogs are fetched again (resync): the events the node that drove it
  // wrote reached no subscriber here.
  void on_tree_adopted(std::string_view root_id) override;

 private:
  struct channel {
    std::string self_id;
    std::string root_id;
    std::int64_t last_seq = 0;
    std::deque<packet_ptr> ring;  // the last replay_window_events packets, seqs contiguous
    std::vector<pubchan_subscriber*> subscribers;
    std::int64_t generation_start_seq = 0;  // seq of the open generation's generating_start_evt, 0: none
    std::int64_t log_seq = 0;               // the last log event published here (its seq in the log)
    std::uint64_t last_used = 0;            // of use_clock_, for dropping the least recently used
    bool idle() const noexcept { return subscribers.empty() && generation_start_seq == 0; }
  };

  channel& channel_of(std::string_view dialog_id, std::string_view root_id);
  // Tells a subscriber to fetch the dialog's transcript and play what follows `seq` on top of it.
  static packet_ptr resync_packet(const channel& ch, std::int64_t seq);
  // Drops the least recently used idle channels once there are too many (amortized: a sweep runs
  // only when the map has doubled since the last one).
  void drop_idle_channels();
  // Numbers, encodes, records and fans out one dialog event.
  void publish(channel& ch, std::string_view type, std::int64_t course, std::int64_t genseq, std::int64_t log_seq,
               boost::json::object extra, chunk_segment chunk = chunk_segment::none);
  // To every connection whose user sees dialogs under `root`.
  void broadcast(const packet_ptr& packet, const dialog_row& root);
  void publish_state(std::string_view dialog_id, std::int64_t log_seq);
  void publish_log_event(channel& ch, const event& ev);
  void publish_subdialog_created(const event& ev);
  // The row of a dialog the engine holds; else nullopt, or without a read thread the store's.
  std::optional<dialog_row> row_of(std::string_view dialog_id);
  bool has_children(const dialog_row& row);
  // The parents of a hierarchy, merged into parents_.
  void take_hierarchy(const std::string& root_id, const std::vector<dialog_row>& rows);
  // has_children asked of a hierarchy nobody learnt: read in the background; the dialogs whose
  // state went out meanwhile are published again if they turn out to have children.
  boost::asio::awaitable<void> learn_in_background(std::string root_id);
  // A global packet about a root the engine does not hold: to whom it goes is the root's row's to
  // say, read on the read thread first.
  boost::asio::awaitable<void> broadcast_after_reading(packet_ptr packet, std::string root_id);
  // Drops both caches of the store's hierarchy; has_children then asks the store again.
  void forget_parents();

  engine::engine& engine_;
  store& log_;
  const server_options& options_;
  std::string epoch_;
  std::unordered_map<std::string, channel> channels_;
  std::uint64_t use_clock_ = 0;
  std::size_t next_sweep_at_ = 0;
  // A dialog's channel made again after it was dropped numbers on from here, above every seq any
  // dropped channel gave out: an `afterSeq` from before the drop can then never be mistaken for a
  // position in the new numbering (it gets `resync`, or exactly what followed it).
  std::int64_t dropped_seq_ceiling_ = 0;
  std::map<pubchan_subscriber*, std::set<std::string, std::less<>>> connections_;
  // Caches of the store, cleared together when they grow past a bound (has_children then asks the
  // store again).
  std::unordered_set<std::string> parents_;        // dialogs known to have children
  std::unordered_set<std::string> scanned_roots_;  // hierarchies whose parents_ came from the store
  // Hierarchies read in the background, with the dialogs whose state was published before.
  std::unordered_map<std::string, std::set<std::string>> learning_;
  engine::store_reads* reads_ = nullptr;
  boost::asio::any_io_executor executor_;
  // Rows of watched dialogs another process drives, as last read with their events (row_of
  // answers from them); dropped with their channel.
  std::unordered_map<std::string, dialog_row> remote_rows_;
  std::function<void(const std::string&)> on_new_watch_;
};

}  // namespace parley::server

// Live events between the nodes that share one PostgreSQL, off the write path.
//
// PostgreSQL serialises every committing transaction that called NOTIFY on one cluster-wide lock,
// so an append never notifies. Instead the writer hands each committed group's (dialog, seq) to
// this feed, which merges them and sends them a few milliseconds later as one `pg_notify` of its
// own — at most one notifying commit per window per node, whatever the append rate. The same
// connection LISTENs: what other nodes send becomes change_hints for the store's watcher, which
// reads the events themselves from the log. A hint is only a hint: the watcher also catches up on
// a timer, and on `missed`, which every (re)connect delivers.
//
// The channel is named after the schema, so that stores in other schemas of the same database
// (tests, tenants) do not hear each other. A payload is text: a first line "parley 1 <node>",
// then one line per hint, tab-separated — "a <dialog> <root> <seq> <flags>" or "i <root>" — and is
// read strictly: a line that does not parse is ignored, whoever sent it.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "parley/core/guarded.hpp"
#include "parley/store/change_hints.hpp"
#include "parley/store/postgres/pg_connection.hpp"

namespace parley::pg {

// The notification payloads for `hints` from `node_id`, each under PostgreSQL's 8000-byte limit.
std::vector<std::string> encode_hints(std::string_view node_id, const change_hints& hints);
// What a payload says, unless `own_node_id` sent it (a node's own appends are live already).
change_hints decode_hints(std::string_view payload, std::string_view own_node_id);

class change_feed {
 public:
  // Starts the thread and waits for its first attempt to connect and LISTEN, so that what other
  // nodes send from then on is heard; it reconnects on its own, so a database that is down only
  // delays the hints.
  change_feed(std::string url, std::string application_name, std::string node_id);
  ~change_feed();
  change_feed(const change_feed&) = delete;
  change_feed& operator=(const change_feed&) = delete;

  // Where what other nodes send goes from now on; `missed` first, since nothing before was heard.
  void watch(change_handler handler);
  // Queued and sent within the batching window (any thread; the writer's after each commit).
  void note_appended(const std::vector<appended_hint>& hints);
  void note_input(std::string root_id);

  // How long a hint waits for others to share its notification.
  static constexpr std::chrono::milliseconds kBatchWindow{4};

 private:
  void run();
  // Opens the connection and LISTENs; false when that failed.
  bool connect();
  void drain_notifications();
  // Sends what is queued (when `due`); what could not be sent stays queued.
  void send_pending();
  void deliver(change_hints hints);
  void wake() const;

  const std::string url_;
  const std::string application_name_;
  const std::string node_id_;
  std::string channel_;  // feed thread only, set by connect
  connection conn_;      // feed thread only
  int wake_fd_ = -1;     // an eventfd: new hints, or stop

  mutable parley::mutex mutex_;
  std::map<std::string, appended_hint, std::less<>> pending_ PARLEY_GUARDED_BY(mutex_);
  std::set<std::string, std::less<>> pending_inputs_ PARLEY_GUARDED_BY(mutex_);
  std::chrono::steady_clock::time_point oldest_pending_ PARLEY_GUARDED_BY(mutex_);
  change_handler handler_ PARLEY_GUARDED_BY(mutex_);
  bool stopping_ PARLEY_GUARDED_BY(mutex_) = false;
  bool first_attempt_done_ PARLEY_GUARDED_BY(mutex_) = false;
  std::condition_variable first_attempt_;
  std::thread thread_;
};

}  // namespace parley::pg

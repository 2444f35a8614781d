// ThreadRepository (seed 004 §5) on Parley's event log. Every persistence point of the seed is one
// event (flow_events.hpp), durable before the call returns — the seed's "persist immediately" —
// and applied to the caller's in-memory thread only once the log took it, so memory and disk
// agree (§5.1.4). Writes always name the outermost (main) thread (§5.5); a sub-thread is reached
// by its path. A write that does not fit (unknown message, bad path) is refused before it reaches
// the log and changes nothing.
//
// One repository serves one executor; the flow layer is single-threaded on it, like the engine.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "parley/core/guarded.hpp"
#include "parley/core/result.hpp"
#include "parley/flow/flow_events.hpp"
#include "parley/flow/flow_thread.hpp"
#include "parley/flow/sub_thread_path.hpp"
#include "parley/store/store.hpp"

namespace parley::flow {

struct message_patch {
  std::optional<std::string> text;
  std::optional<boost::json::object> meta;  // the whole new meta, `_thread` included when it has one
};

// Summary of a flow thread for listings.
struct flow_thread_info {
  std::string thread_id;
  std::string member_id;
  std::string title;
};

// Refused deferred sends by thread id, shared with the store's callbacks (which may outlive a call).
struct refusals {
  parley::mutex mutex;
  std::unordered_map<std::string, error> by_thread PARLEY_GUARDED_BY(mutex);
};

class thread_repository {
 public:
  thread_repository(store& log, boost::asio::any_io_executor executor) : log_(log), executor_(std::move(executor)) {}
  ~thread_repository() { send_held(); }
  thread_repository(const thread_repository&) = delete;
  thread_repository& operator=(const thread_repository&) = delete;

  // Sends every write held back to be merged with the next (see `held_`): called before each
  // model call (flow_runner), and on its own as soon as the flow yields to the event loop.
  void send_held();

  // Told the thread's id after each write the log was sent (the thread in memory is then what the
  // log holds, or will hold in order): the server tells the thread's watchers (flow_host).
  void set_change_observer(std::function<void(std::string_view thread_id)> observer) { changed_ = std::move(observer); }

  // Awaits the durability of every write sent for `thread_id` so far; fails if the log refused one.
  boost::asio::awaitable<result<void>> commit(std::string_view thread_id);

  // A new main thread: the dialog it lives in and its first content, in one commit. `humans` are
  // the root's people (the server's users who may see it), its creator first; none in the CLI.
  // `input`: the client's request that brought its first message, recorded with it for retries.
  boost::asio::awaitable<result<void>> create_thread(const flow_thread& main, std::string_view member_id,
                                                     std::string_view title, std::vector<std::string> humans = {},
                                                     std::optional<events::flow_input> input = {});
  // saveThread: the whole main thread, after any change of structure at any depth. With `input`
  // (the client's request whose message this save takes in) it is recorded on the event and the
  // save is durable before the call returns, so a retry finds it however the step then ends.
  boost::asio::awaitable<result<void>> save_thread(const flow_thread& main,
                                                   std::optional<events::flow_input> input = {});
  // updateMessage: one message (found by id at any depth) gets new text and/or meta; `main` is
  // updated too.
  boost::asio::awaitable<result<void>> update_message(flow_thread& main, std::string_view message_id,
                                                      message_patch patch);
  // updateThreadSettings: the settings of the thread at `path`; `main` is updated too.
  boost::asio::awaitable<result<void>> update_thread_settings(flow_thread& main, const sub_thread_path& path,
                                                              thread_settings settings);
  // getThreadSettings: as they are in memory, which is what the log holds (see above).
  static result<const thread_settings*> get_thread_settings(flow_thread& main, const sub_thread_path& path);

  // Reads a thread's events for load_thread_async and the first append to a thread it does not
  // know: the server's read thread, so that a read of the SQLite store, which first waits for the
  // writer's commit, does not stall the event loop. Without one the repository reads right here.
  using events_reader =
      std::function<boost::asio::awaitable<result<std::vector<event>>>(store& log, std::string thread_id)>;
  void set_events_reader(events_reader reader) { reader_ = std::move(reader); }

  // The main thread as its events leave it (after a restart: the last durable state); a thread this
  // repository wrote last is answered from memory. load_thread reads on the calling thread (the
  // CLI's verbs); a coroutine awaits load_thread_async, which reads with the events reader.
  result<flow_thread> load_thread(std::string_view thread_id);
  boost::asio::awaitable<result<flow_thread>> load_thread_async(std::string thread_id);
  result<flow_thread_info> thread_info(std::string_view thread_id);

  // The status of the thread's dialog (running, completed, archived) as its events leave it: a
  // flow's dialog is completed, archived and reopened like any root (flow_runner::set_status).
  boost::asio::awaitable<result<events::dialog_status>> status_of(std::string thread_id);
  // Records the dialog's new status (a status_changed event), durable before it returns.
  boost::asio::awaitable<result<void>> set_status(std::string_view thread_id, events::dialog_status to);
  // The same, sent deferred after the thread's writes: durable with the next commit(), as the
  // runner completes a finished flow's dialog in the commit that ends its last step.
  boost::asio::awaitable<result<void>> send_status(std::string_view thread_id, events::dialog_status to);

 private:
  // `wait`: await durability (create_thread); otherwise sent deferred.
  boost::asio::awaitable<result<void>> append(std::string_view thread_id, std::vector<event> batch, bool wait);
  result<void> refused_send_of(std::string_view thread_id);
  void send_deferred(const std::string& thread_id, std::vector<event> batch);
  boost::asio::awaitable<std::int64_t> next_seq(std::string thread_id);
  boost::asio::awaitable<result<std::vector<event>>> read_thread_events(std::string thread_id);
  // The thread its events leave, remembered with its last seq.
  result<flow_thread> thread_from(std::string_view thread_id, const std::vector<event>& events);
  event make_event(std::string_view thread_id, const flow_event& ev);
  // A deferred write of one flow event: merged into the thread's held write when one event can say
  // both (merge_flow_events), otherwise the held write is sent and this one held in its place.
  boost::asio::awaitable<result<void>> write(std::string_view thread_id, flow_event ev);
  void send_held_of(const std::string& thread_id);

  store& log_;
  boost::asio::any_io_executor executor_;
  std::function<void(std::string_view)> changed_;
  events_reader reader_;
  std::unordered_map<std::string, std::int64_t> last_seq_;  // per thread (dialog) id
  // Each thread as its last sent event left it, so save_thread can send only what was added.
  std::unordered_map<std::string, flow_thread> sent_;
  // The status of each remembered thread's dialog; a thread has one exactly when sent_ holds it.
  std::unordered_map<std::string, events::dialog_status> status_;
  static constexpr std::size_t kMaxRemembered = 4096;  // threads kept; others are read from the log
  // `status`: the dialog's, when the caller knows it (read from the log); otherwise the one known,
  // or running for a thread just created.
  void remember(const flow_thread& main, std::optional<events::dialog_status> status = std::nullopt);
  void forget(const std::string& thread_id) {
    sent_.erase(thread_id);
    status_.erase(thread_id);
  }
  // The last deferred write of each thread, not sent yet: a flow step's writes follow one another
  // without a yield (the suggestion, its application, the next message...), and many only restate
  // what the next one says, so they are merged into one event (16 per article flow instead of
  // 30, each a row, projections and an encoding for the store's writer). It changes no guarantee:
  // deferred writes were never awaited, commit() sends them first, and the log stays a prefix of
  // the thread's states. Sent before a model call, at any yield (a posted send), and before any
  // awaited write; its seq is taken when it is held.
  struct held_write {
    std::int64_t seq = 0;
    std::int64_t ts_ms = 0;
    flow_event ev;
  };
  std::unordered_map<std::string, held_write> held_;
  bool send_posted_ = false;
  std::shared_ptr<int> alive_ = std::make_shared<int>(0);  // the posted send's guard
  // Why the log refused a deferred send, by thread; written on the store's writer thread.
  std::shared_ptr<refusals> refused_ = std::make_shared<refusals>();
};

}  // namespace parley::flow

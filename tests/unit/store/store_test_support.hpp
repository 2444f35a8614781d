// Shared helpers for the store tests: temporary directories, event builders, synchronous appends.
#pragma once

#include <boost/json.hpp>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <future>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "parley/model/event.hpp"
#include "parley/store/store.hpp"
#include "support/typed_events.hpp"

namespace parley::test {

namespace fs = std::filesystem;
namespace json = boost::json;

// A fresh directory under the system temp dir, removed with everything in it on destruction.
class temp_dir {
 public:
  temp_dir() {
    std::random_device seed;
    std::mt19937_64 gen(seed());
    path_ = fs::temp_directory_path() / ("parley-store-test-" + std::to_string(gen()));
    fs::create_directories(path_);
  }
  ~temp_dir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;

  const fs::path& path() const { return path_; }
  std::string str() const { return path_.string(); }
  std::string db_file() const { return (path_ / "parley.db").string(); }

 private:
  fs::path path_;
};

inline event make_event(std::string dialog_id, std::string root_id, std::int64_t seq, std::string_view type,
                        json::object payload, std::int64_t ts_ms) {
  event ev;
  ev.dialog_id = std::move(dialog_id);
  ev.root_id = std::move(root_id);
  ev.seq = seq;
  ev.payload = payload_of(type, std::move(payload));
  ev.ts_ms = ts_ms;
  return ev;
}

// Hands out consecutive seqs and timestamps for one dialog.
class dialog_script {
 public:
  dialog_script(std::string id, std::string root_id, std::int64_t start_ms = 1'700'000'000'000)
      : id_(std::move(id)), root_id_(std::move(root_id)), ts_ms_(start_ms) {}

  event next(std::string_view type, json::object payload) {
    return make_event(id_, root_id_, ++seq_, type, std::move(payload), ts_ms_++);
  }
  event created(std::string_view member, std::string_view parent = {}, std::string_view title = {}) {
    json::object payload{
        {"memberId", member}, {"kind", parent.empty() ? "root" : "sub"}, {"depth", parent.empty() ? 0 : 1}};
    if (!parent.empty()) payload["parentId"] = parent;
    if (!title.empty()) payload["title"] = title;
    return next(event_type::dialog_created, std::move(payload));
  }
  event user(std::string_view content, std::int64_t course = 1, std::string_view origin = "user") {
    return next(
        event_type::user_message,
        {{"course", course}, {"content", content}, {"msgId", "m" + std::to_string(seq_ + 1)}, {"origin", origin}});
  }
  event status(std::string_view status) { return next(event_type::status_changed, {{"status", status}}); }

  const std::string& id() const { return id_; }
  std::int64_t seq() const { return seq_; }
  std::int64_t now_ms() const { return ts_ms_; }
  void skip_seq() { ++seq_; }

 private:
  std::string id_;
  std::string root_id_;
  std::int64_t seq_ = 0;
  std::int64_t ts_ms_;
};

// The store of `dir`, opened for writing; a test failure (and nullptr) when it cannot be.
inline std::unique_ptr<store> open_or_fail(const temp_dir& dir, const sqlite_options& options = {}) {
  auto opened = open_sqlite_store(dir.str(), options);
  EXPECT_TRUE(opened) << opened.err().message;
  return opened ? std::move(*opened) : nullptr;
}

// Appends and waits for the callback, whichever thread runs it.
inline result<void> append_sync(store& s, std::vector<event> batch) {
  auto done = std::make_shared<std::promise<result<void>>>();
  auto outcome = done->get_future();
  s.append(std::move(batch), [done](result<void> r) { done->set_value(std::move(r)); });
  return outcome.get();
}

// Appends deferred and waits for the callback: nothing else is appended meanwhile, so the batch
// must commit on its own. A batch left waiting fails after 30 s instead of hanging the test.
inline result<void> append_deferred_and_wait(store& s, std::vector<event> batch) {
  auto done = std::make_shared<std::promise<result<void>>>();
  auto outcome = done->get_future();
  s.append_deferred(std::move(batch), [done](result<void> r) { done->set_value(std::move(r)); });
  if (outcome.wait_for(std::chrono::seconds(30)) != std::future_status::ready) {
    return make_error(errc::internal, "the deferred batch did not commit within 30 s");
  }
  return outcome.get();
}

// Holds a SQLite store's writer thread inside an append callback, so that everything appended
// meanwhile is queued and then taken as one group: deterministic group commits without timing.
class writer_gate {
 public:
  // Appends a batch creating `dialog_id` whose callback blocks until `release()`.
  void close(store& s, const std::string& dialog_id) {
    dialog_script gate_dialog(dialog_id, dialog_id);
    s.append({gate_dialog.created("gatekeeper")}, [this](result<void>) {
      std::unique_lock lock(mutex_);
      entered_ = true;
      changed_.notify_all();
      changed_.wait(lock, [&] { return released_; });
    });
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return entered_; });
  }
  void release() {
    std::lock_guard lock(mutex_);
    released_ = true;
    changed_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  bool entered_ = false;
  bool released_ = false;
};

}  // namespace parley::test

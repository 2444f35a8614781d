// What Dominds' `os` tools keep between calls, per dialog (dominds_os_tools.cpp uses it): the
// daemons — commands shell_cmd started that were still running at its timeoutSeconds — and the
// environment overlay env_set/env_unset make for the dialog's shell commands. Private to tools/.
//
// A daemon belongs to the dialog that started it: the tools of another dialog (or another member)
// are told its pid is unknown. Bounded: kMaxDaemonsPerDialog running per dialog, kMaxDaemons kept
// in all; each stream keeps its last scrollbackLines lines and at most kDaemonStreamBytes. The
// table is owned by the tools that share it, so when the registry goes (the server stops) every
// process group still running is killed.
//
// An entry is read and changed on the executor its shell_cmd call ran on, where its watcher is
// spawned too: the engine's one event loop thread, which runs every tool call. The table's mutex
// guards its map only, so a destructor or an end_all on another thread finds the entries whole.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/tools/process_runner.hpp"

namespace parley::tools::dominds_detail {

inline constexpr std::size_t kMaxDaemonsPerDialog = 4;
inline constexpr std::size_t kMaxDaemons = 32;
inline constexpr std::size_t kDaemonStreamBytes = std::size_t{256} * 1024;
inline constexpr std::int64_t kDefaultScrollbackLines = 500;
inline constexpr std::int64_t kMaxScrollbackLines = 10000;

// One stream's last lines, as Dominds' scrollback keeps them: complete lines plus the one being
// written; lines pushed out (by the line count or the byte cap) are counted.
class scrollback {
 public:
  explicit scrollback(std::size_t max_lines) : max_lines_(max_lines) {}
  void append(std::string_view bytes);
  std::string content() const;  // the kept lines joined by '\n', without a final newline
  std::uint64_t lines_scrolled_out() const { return scrolled_out_; }
  std::uint64_t bytes_written() const { return written_; }

 private:
  void trim();
  std::size_t max_lines_;
  std::deque<std::string> lines_;
  std::string partial_;
  std::size_t kept_bytes_ = 0;
  std::uint64_t scrolled_out_ = 0;
  std::uint64_t written_ = 0;
};

struct daemon_entry {
  daemon_entry(std::string dialog, std::string command_line, int process_id, std::size_t scrollback_lines)
      : dialog_id(std::move(dialog)),
        command(std::move(command_line)),
        pid(process_id),
        out(scrollback_lines),
        err(scrollback_lines) {}
  std::string dialog_id;
  std::string command;
  int pid = -1;            // also its process group
  bool is_daemon = false;  // false while shell_cmd still waits for it
  scrollback out;
  scrollback err;
  bool running = true;
  int exit_code = -1;
  int signal = 0;
  // Timers of calls waiting for the exit or new output: woken (cancelled) when either comes.
  std::vector<boost::asio::steady_timer*> waiters;

  void wake();
  void kill(bool entire_group) const;
  // "exit code: 0", "signal: 9", or "running".
  std::string state() const;
};

// Reads both streams into the entry until they close, then reaps the process; wakes the waiters
// on each change. Spawned on the executor of the call that started the process.
boost::asio::awaitable<void> watch_daemon(std::shared_ptr<daemon_entry> entry, spawned_process spawned);

class daemon_table {
 public:
  daemon_table() = default;
  ~daemon_table();  // kills every process group still running (end_all)
  daemon_table(const daemon_table&) = delete;
  daemon_table& operator=(const daemon_table&) = delete;

  // Every process shell_cmd starts is added at once, so the destructor reaches it even while the
  // call still waits for it.
  void add(std::shared_ptr<daemon_entry> entry);
  // Makes the entry a daemon when its dialog is under its bound and, after forgetting the oldest
  // finished daemon if need be, the table under the total; false (nothing changed) otherwise.
  bool promote(daemon_entry& entry);
  // The dialog's daemon of that pid; nullptr for an unknown pid or another dialog's.
  std::shared_ptr<daemon_entry> find(const std::string& dialog_id, std::int64_t pid) const;
  void forget(const std::string& dialog_id, std::int64_t pid);
  // Kills every process group still running; the table stays usable.
  void end_all();

 private:
  mutable std::mutex mutex_;
  std::map<int, std::shared_ptr<daemon_entry>> entries_;
};

// env_set/env_unset per dialog: a value, or nullopt for a variable unset on purpose. Server-life.
class env_overlays {
 public:
  static constexpr std::size_t kMaxVariables = 64;
  static constexpr std::size_t kMaxNameBytes = 256;
  static constexpr std::size_t kMaxValueBytes = std::size_t{32} * 1024;
  using overlay = std::map<std::string, std::optional<std::string>, std::less<>>;

  overlay of(const std::string& dialog_id) const;
  // Refused (the message names the bound) when the dialog's overlay is full.
  result<void> put(const std::string& dialog_id, const std::string& name, std::optional<std::string> value);

 private:
  mutable std::mutex mutex_;
  std::map<std::string, overlay, std::less<>> overlays_;
};

// `env` ("NAME=value" entries) with the overlay applied: set names replaced or added, unset ones
// removed.
void apply_overlay(std::vector<std::string>& env, const env_overlays::overlay& overlay);

}  // namespace parley::tools::dominds_detail

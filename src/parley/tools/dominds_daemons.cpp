// Dominds' daemons and environment overlays (dominds_daemons.hpp).
#include "parley/tools/dominds_daemons.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>

#include "parley/core/utf8.hpp"

namespace parley::tools::dominds_detail {
namespace {

namespace asio = boost::asio;

// Reads one stream of a daemon into `which` until it closes.
asio::awaitable<void> read_daemon_stream(std::shared_ptr<daemon_entry> entry, int fd, bool is_stderr) {
  auto executor = co_await asio::this_coro::executor;
  asio::posix::stream_descriptor stream(executor, fd);
  std::array<char, 8192> buffer{};
  for (;;) {
    auto [ec, n] = co_await stream.async_read_some(asio::buffer(buffer), asio::as_tuple(asio::use_awaitable));
    if (n > 0) {
      (is_stderr ? entry->err : entry->out).append(std::string_view(buffer.data(), n));
      entry->wake();
    }
    if (ec) break;
  }
}

}  // namespace

void scrollback::append(std::string_view bytes) {
  written_ += bytes.size();
  while (!bytes.empty()) {
    const auto newline = bytes.find('\n');
    if (newline == std::string_view::npos) {
      partial_.append(bytes);
      kept_bytes_ += bytes.size();
      break;
    }
    partial_.append(bytes.substr(0, newline));
    kept_bytes_ += newline;
    lines_.push_back(std::exchange(partial_, {}));
    bytes.remove_prefix(newline + 1);
  }
  trim();
}

void scrollback::trim() {
  while (!lines_.empty() && (lines_.size() > max_lines_ || kept_bytes_ > kDaemonStreamBytes)) {
    kept_bytes_ -= lines_.front().size();
    lines_.pop_front();
    ++scrolled_out_;
  }
  // One line longer than the byte cap keeps its end.
  if (partial_.size() > kDaemonStreamBytes) {
    kept_bytes_ -= partial_.size() - kDaemonStreamBytes;
    partial_.erase(0, partial_.size() - kDaemonStreamBytes);
  }
}

std::string scrollback::content() const {
  std::string text;
  bool first = true;
  for (const auto& line : lines_) {
    if (!std::exchange(first, false)) text += '\n';
    text += line;
  }
  if (!partial_.empty()) text += (lines_.empty() ? "" : "\n") + partial_;
  return repair_utf8(text).text;
}

void daemon_entry::wake() {
  for (auto* timer : std::exchange(waiters, {})) timer->cancel();
}

void daemon_entry::kill(bool entire_group) const {
  if (running && pid > 0) ::kill(entire_group ? -pid : pid, SIGKILL);
}

std::string daemon_entry::state() const {
  if (running) return "running";
  if (signal != 0) return "signal: " + std::to_string(signal);
  return "exit code: " + std::to_string(exit_code);
}

asio::awaitable<void> watch_daemon(std::shared_ptr<daemon_entry> entry, spawned_process spawned) {
  using namespace asio::experimental::awaitable_operators;
  auto reading_out = read_daemon_stream(entry, spawned.output_fd, false);
  auto reading_err = read_daemon_stream(entry, spawned.error_fd, true);
  co_await (std::move(reading_out) && std::move(reading_err));
  // Both pipes closed: the exit is awaited without blocking the io_context.
  const int status = co_await reap_process_group(entry->pid);
  entry->running = false;
  if (WIFEXITED(status)) entry->exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) entry->signal = WTERMSIG(status);
  entry->wake();
}

daemon_table::~daemon_table() { end_all(); }

void daemon_table::end_all() {
  const std::lock_guard lock(mutex_);
  for (const auto& [pid, entry] : entries_) entry->kill(true);
}

bool daemon_table::promote(daemon_entry& entry) {
  const std::lock_guard lock(mutex_);
  std::size_t of_dialog = 0;
  std::size_t daemons = 0;
  for (const auto& [pid, kept] : entries_) {
    if (!kept->is_daemon) continue;
    ++daemons;
    of_dialog += kept->dialog_id == entry.dialog_id && kept->running ? 1 : 0;
  }
  if (of_dialog >= kMaxDaemonsPerDialog) return false;
  if (daemons >= kMaxDaemons) {
    const auto finished = std::find_if(entries_.begin(), entries_.end(), [](const auto& item) {
      return item.second->is_daemon && !item.second->running;
    });
    if (finished == entries_.end()) return false;
    entries_.erase(finished);
  }
  entry.is_daemon = true;
  return true;
}

void daemon_table::add(std::shared_ptr<daemon_entry> entry) {
  const std::lock_guard lock(mutex_);
  const int pid = entry->pid;
  entries_[pid] = std::move(entry);
}

std::shared_ptr<daemon_entry> daemon_table::find(const std::string& dialog_id, std::int64_t pid) const {
  const std::lock_guard lock(mutex_);
  for (const auto& [key, entry] : entries_) {
    if (key == pid && entry->is_daemon && entry->dialog_id == dialog_id) return entry;
  }
  return nullptr;
}

void daemon_table::forget(const std::string& dialog_id, std::int64_t pid) {
  const std::lock_guard lock(mutex_);
  std::erase_if(entries_, [&](const auto& item) { return item.first == pid && item.second->dialog_id == dialog_id; });
}

env_overlays::overlay env_overlays::of(const std::string& dialog_id) const {
  const std::lock_guard lock(mutex_);
  const auto it = overlays_.find(dialog_id);
  return it == overlays_.end() ? overlay{} : it->second;
}

result<void> env_overlays::put(const std::string& dialog_id, const std::string& name,
                               std::optional<std::string> value) {
  const std::lock_guard lock(mutex_);
  auto& mine = overlays_[dialog_id];
  if (!mine.contains(name) && mine.size() >= kMaxVariables) {
    return make_error(errc::invalid_argument, "key: this dialog already sets " + std::to_string(kMaxVariables) +
                                                  " variables; env_unset or reuse one of them");
  }
  mine[name] = std::move(value);
  return ok();
}

void apply_overlay(std::vector<std::string>& env, const env_overlays::overlay& overlay) {
  std::erase_if(env, [&](const std::string& entry) {
    const auto eq = entry.find('=');
    return overlay.contains(std::string_view(entry).substr(0, eq));
  });
  for (const auto& [name, value] : overlay) {
    if (value) env.push_back(name + "=" + *value);
  }
}

}  // namespace parley::tools::dominds_detail

#include "parley/store/postgres/pg_change_feed.hpp"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <charconv>

#include "parley/core/fnv1a.hpp"
#include "parley/core/thread_name.hpp"

namespace parley::pg {

namespace {

// PostgreSQL refuses payloads of 8000 bytes or more.
constexpr std::size_t kMaxPayload = 7900;
constexpr std::size_t kMaxIdBytes = 256;
constexpr std::string_view kPayloadHead = "parley 1 ";

bool storable_field(std::string_view text) {
  return !text.empty() && text.size() <= kMaxIdBytes && text.find_first_of("\t\n") == std::string_view::npos;
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  for (std::size_t start = 0;;) {
    const std::size_t end = text.find(separator, start);
    parts.push_back(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) return parts;
    start = end + 1;
  }
}

std::optional<std::int64_t> positive_integer(std::string_view text) {
  std::int64_t value = 0;
  const auto [end, problem] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (problem != std::errc{} || end != text.data() + text.size() || value <= 0) return std::nullopt;
  return value;
}

// The channel for the schema the connection writes: a name of at most 63 bytes (PostgreSQL's
// identifier limit), the schema's own when it fits.
std::string channel_for(std::string_view schema) {
  std::string channel = "parley_changes." + std::string(schema);
  if (channel.size() <= 63) return channel;
  constexpr char kHex[] = "0123456789abcdef";
  std::string hashed = "parley_changes.#";
  for (std::uint64_t h = fnv1a(schema), i = 0; i < 16; ++i, h >>= 4) hashed += kHex[h & 0xf];
  return hashed;
}

}  // namespace

std::vector<std::string> encode_hints(std::string_view node_id, const change_hints& hints) {
  std::string head(kPayloadHead);
  for (const char c : node_id) head += (static_cast<unsigned char>(c) < 0x20 ? '?' : c);
  head += '\n';
  std::vector<std::string> payloads;
  std::string payload = head;
  const auto add = [&](const std::string& line) {
    if (payload.size() + line.size() > kMaxPayload && payload.size() > head.size()) {
      payloads.push_back(std::move(payload));
      payload = head;
    }
    payload += line;
  };
  for (const auto& hint : hints.appended) {
    // Ids are the engine's own; one that could not be read back is left to the catch-up read.
    if (!storable_field(hint.dialog_id) || !storable_field(hint.root_id) || hint.seq <= 0) continue;
    std::string flags;
    if (hint.created) flags += 'c';
    if (hint.list_changed) flags += 'l';
    if (flags.empty()) flags = "-";
    add("a\t" + hint.dialog_id + "\t" + hint.root_id + "\t" + std::to_string(hint.seq) + "\t" + flags + "\n");
  }
  for (const auto& root : hints.inputs_for) {
    if (storable_field(root)) add("i\t" + root + "\n");
  }
  if (payload.size() > head.size()) payloads.push_back(std::move(payload));
  return payloads;
}

change_hints decode_hints(std::string_view payload, std::string_view own_node_id) {
  change_hints hints;
  const auto lines = split(payload, '\n');
  if (lines.empty() || !lines[0].starts_with(kPayloadHead) || lines[0].substr(kPayloadHead.size()) == own_node_id) {
    return hints;
  }
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const auto fields = split(lines[i], '\t');
    if (fields.size() == 5 && fields[0] == "a" && storable_field(fields[1]) && storable_field(fields[2]) &&
        fields[4].find_first_not_of("cl-") == std::string_view::npos && !fields[4].empty()) {
      const auto seq = positive_integer(fields[3]);
      if (!seq) continue;
      hints.appended.push_back(appended_hint{std::string(fields[1]), std::string(fields[2]), *seq,
                                             fields[4].find('c') != std::string_view::npos,
                                             fields[4].find('l') != std::string_view::npos});
    } else if (fields.size() == 2 && fields[0] == "i" && storable_field(fields[1])) {
      hints.inputs_for.emplace_back(fields[1]);
    }
  }
  return hints;
}

change_feed::change_feed(std::string url, std::string application_name, std::string node_id)
    : url_(std::move(url)),
      application_name_(std::move(application_name)),
      node_id_(std::move(node_id)),
      wake_fd_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)),
      thread_([this] { run(); }) {
  parley::unique_lock lock(mutex_);
  // Bounded: a database that does not answer is the writer's to report.
  (void)lock.wait_for(first_attempt_, std::chrono::seconds(10),
                      [&]() PARLEY_REQUIRES(mutex_) { return first_attempt_done_; });
}

change_feed::~change_feed() {
  {
    parley::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake();
  thread_.join();
  if (wake_fd_ >= 0) ::close(wake_fd_);
}

void change_feed::watch(change_handler handler) {
  {
    parley::lock_guard lock(mutex_);
    handler_ = std::move(handler);
  }
  deliver(change_hints{.missed = true});
}

void change_feed::note_appended(const std::vector<appended_hint>& hints) {
  if (hints.empty()) return;
  bool was_empty = false;
  {
    parley::lock_guard lock(mutex_);
    was_empty = pending_.empty() && pending_inputs_.empty();
    if (was_empty) oldest_pending_ = std::chrono::steady_clock::now();
    for (const auto& hint : hints) {
      auto [it, fresh] = pending_.try_emplace(hint.dialog_id, hint);
      if (fresh) continue;
      it->second.seq = std::max(it->second.seq, hint.seq);
      it->second.created = it->second.created || hint.created;
      it->second.list_changed = it->second.list_changed || hint.list_changed;
    }
  }
  if (was_empty) wake();
}

void change_feed::note_input(std::string root_id) {
  bool was_empty = false;
  {
    parley::lock_guard lock(mutex_);
    was_empty = pending_.empty() && pending_inputs_.empty();
    if (was_empty) oldest_pending_ = std::chrono::steady_clock::now();
    pending_inputs_.insert(std::move(root_id));
  }
  if (was_empty) wake();
}

void change_feed::wake() const {
  if (wake_fd_ < 0) return;
  const std::uint64_t one = 1;
  (void)!::write(wake_fd_, &one, sizeof one);
}

void change_feed::deliver(change_hints hints) {
  change_handler handler;
  {
    parley::lock_guard lock(mutex_);
    handler = handler_;
  }
  if (handler && (hints.missed || !hints.appended.empty() || !hints.inputs_for.empty())) handler(std::move(hints));
}

bool change_feed::connect() {
  auto opened = connection::open(url_, application_name_);
  if (!opened) return false;
  auto schema = opened->query("SELECT current_schema()", "reading the schema for the change feed");
  if (!schema || schema->empty() || schema->is_null(0, 0)) return false;
  channel_ = channel_for(schema->text(0, 0));
  char* quoted = PQescapeIdentifier(opened->raw(), channel_.data(), channel_.size());
  if (quoted == nullptr) return false;
  const std::string listen = "LISTEN " + std::string(quoted);
  PQfreemem(quoted);
  if (!opened->run(listen, "listening for other nodes' changes")) return false;
  conn_ = std::move(*opened);
  return true;
}

void change_feed::run() {
  name_this_thread("parley-pg-feed");
  auto backoff = std::chrono::milliseconds(100);
  for (;;) {
    bool stopping = false;
    bool has_pending = false;
    auto due = std::chrono::steady_clock::time_point::max();
    {
      parley::lock_guard lock(mutex_);
      stopping = stopping_;
      has_pending = !pending_.empty() || !pending_inputs_.empty();
      if (has_pending) due = oldest_pending_ + kBatchWindow;
    }
    if (stopping) {
      // What this node appended last still reaches the others: one attempt, no waiting.
      if (conn_.healthy() && has_pending) send_pending();
      return;
    }
    if (!conn_.healthy()) {
      const bool connected = connect();
      {
        parley::lock_guard lock(mutex_);
        first_attempt_done_ = true;
      }
      first_attempt_.notify_all();
      if (connected) {
        backoff = std::chrono::milliseconds(100);
        // Whatever was sent while this node was not listening is caught up by reading.
        deliver(change_hints{.missed = true});
      } else {
        pollfd wait{wake_fd_, POLLIN, 0};
        (void)::poll(&wait, 1, static_cast<int>(backoff.count()));
        std::uint64_t drained = 0;
        (void)!::read(wake_fd_, &drained, sizeof drained);
        backoff = std::min<std::chrono::milliseconds>(backoff * 2, std::chrono::seconds(2));
        continue;
      }
    }
    int timeout_ms = -1;
    if (has_pending) {
      const auto left = std::chrono::ceil<std::chrono::milliseconds>(due - std::chrono::steady_clock::now());
      timeout_ms = static_cast<int>(std::max<std::int64_t>(left.count(), 0));
    }
    std::array<pollfd, 2> fds{pollfd{PQsocket(conn_.raw()), POLLIN, 0}, pollfd{wake_fd_, POLLIN, 0}};
    (void)::poll(fds.data(), fds.size(), timeout_ms);
    if ((fds[1].revents & POLLIN) != 0) {
      std::uint64_t drained = 0;
      (void)!::read(wake_fd_, &drained, sizeof drained);
    }
    if ((fds[0].revents & (POLLIN | POLLERR | POLLHUP)) != 0 && PQconsumeInput(conn_.raw()) == 0) {
      conn_ = connection{};
      continue;
    }
    drain_notifications();
    if (has_pending && std::chrono::steady_clock::now() >= due) send_pending();
  }
}

void change_feed::drain_notifications() {
  change_hints merged;
  while (PGnotify* note = PQnotifies(conn_.raw())) {
    const std::string_view payload = note->extra != nullptr ? note->extra : "";
    auto hints = decode_hints(payload, node_id_);
    PQfreemem(note);
    for (auto& hint : hints.appended) merged.appended.push_back(std::move(hint));
    for (auto& root : hints.inputs_for) merged.inputs_for.push_back(std::move(root));
  }
  deliver(std::move(merged));
}

void change_feed::send_pending() {
  change_hints outgoing;
  {
    parley::lock_guard lock(mutex_);
    outgoing.appended.reserve(pending_.size());
    for (auto& [id, hint] : pending_) outgoing.appended.push_back(std::move(hint));
    outgoing.inputs_for.assign(pending_inputs_.begin(), pending_inputs_.end());
    pending_.clear();
    pending_inputs_.clear();
  }
  for (const auto& payload : encode_hints(node_id_, outgoing)) {
    const params<2> args{channel_, payload};
    if (!conn_.query("SELECT pg_notify($1, $2)", args, "sending change hints")) {
      // Lost with the connection: the other nodes catch up when they read on their timer.
      conn_ = connection{};
      return;
    }
  }
  // Sending may have read notifications into libpq's queue; they are not left waiting for the
  // next byte on the socket.
  drain_notifications();
}

}  // namespace parley::pg

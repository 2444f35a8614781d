#include "parley/server/mcp_stdio.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include <unistd.h>

#include <array>
#include <cerrno>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>

#include "parley/engine/async_lock.hpp"
#include "parley/engine/async_signal.hpp"
#include "parley/server/mcp_protocol.hpp"
#include "parley/server/mcp_session.hpp"

namespace parley::server {

namespace asio = boost::asio;

namespace {

constexpr auto stdio_awaitable = asio::as_tuple(asio::use_awaitable);

// One end of the pipe pair: an Asio descriptor when the file can be waited on (a pipe, a socket,
// a terminal), else plain blocking calls (a regular file or /dev/null never blocks for long).
class stdio_end {
 public:
  stdio_end(asio::any_io_executor executor, int fd) : descriptor_(executor), fd_(::dup(fd)) {
    if (fd_ < 0) return;
    boost::system::error_code ec;
    descriptor_.assign(fd_, ec);
    if (!ec) {
      waitable_ = true;
      fd_ = -1;  // the descriptor owns it now
    }
  }
  ~stdio_end() {
    if (fd_ >= 0) ::close(fd_);
  }
  stdio_end(const stdio_end&) = delete;
  stdio_end& operator=(const stdio_end&) = delete;

  // Bytes read into `buffer`; 0 at the end of the input or on an error.
  asio::awaitable<std::size_t> read_some(std::span<char> buffer) {
    if (waitable_) {
      auto [ec, n] = co_await descriptor_.async_read_some(asio::buffer(buffer.data(), buffer.size()), stdio_awaitable);
      co_return ec ? 0 : n;
    }
    if (fd_ < 0) co_return 0;
    ssize_t n = -1;
    do {
      n = ::read(fd_, buffer.data(), buffer.size());
    } while (n < 0 && errno == EINTR);
    co_return n > 0 ? static_cast<std::size_t>(n) : 0;
  }

  // The whole of `bytes`; false once the other side is gone.
  asio::awaitable<bool> write_all(const std::string& bytes) {
    if (waitable_) {
      auto [ec, n] = co_await asio::async_write(descriptor_, asio::buffer(bytes), stdio_awaitable);
      co_return !ec;
    }
    std::size_t done = 0;
    while (fd_ >= 0 && done < bytes.size()) {
      const ssize_t n = ::write(fd_, bytes.data() + done, bytes.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) co_return false;
      done += static_cast<std::size_t>(n);
    }
    co_return fd_ >= 0;
  }

  void cancel() {
    boost::system::error_code ec;
    if (waitable_) descriptor_.cancel(ec);
  }

 private:
  asio::posix::stream_descriptor descriptor_;
  int fd_ = -1;
  bool waitable_ = false;
};

}  // namespace

struct mcp_stdio::state {
  state(asio::any_io_executor executor_in, server_context& context, const user& who, mcp_settings settings, int in_fd,
        int out_fd)
      : executor(executor_in),
        session(context, who, std::move(settings)),
        in(executor_in, in_fd),
        out(executor_in, out_fd) {}

  asio::any_io_executor executor;
  mcp_session session;
  stdio_end in;
  stdio_end out;
  engine::async_lock writing;  // one line at a time, in the order they are ready
  bool out_failed = false;
  std::size_t requests = 0;  // handlers running
  engine::async_signal request_ended;

  // Writes one message and its newline; false once the client stopped reading.
  asio::awaitable<bool> write_line(std::string message) {
    auto guard = co_await writing.acquire();
    if (out_failed) co_return false;
    message += '\n';
    out_failed = !co_await out.write_all(message);
    co_return !out_failed;
  }
};

namespace {

// A request's messages, each a line of the output.
class stdio_reply final : public mcp_reply {
 public:
  explicit stdio_reply(std::shared_ptr<mcp_stdio::state> owner) : owner_(std::move(owner)) {}
  asio::awaitable<bool> notify(std::string message) override {
    co_return co_await owner_->write_line(std::move(message));
  }
  asio::awaitable<void> respond(std::string message) override { (void)co_await owner_->write_line(std::move(message)); }

 private:
  std::shared_ptr<mcp_stdio::state> owner_;
};

// Runs one request, counted among those running (from take_line on) until it ends; then wakes
// whoever waits for them.
asio::awaitable<void> handle_stdio_request(std::shared_ptr<mcp_stdio::state> owner, mcp::rpc_request request) {
  struct uncount {
    mcp_stdio::state& owner;
    ~uncount() {
      --owner.requests;
      owner.request_ended.notify_all();
    }
  } counted{*owner};
  stdio_reply reply(owner);
  co_await owner->session.handle_request(std::move(request), reply);
}

// One line of the input: a request runs beside the others, a notification is taken at once, a
// response (Parley asks clients nothing) is dropped, and anything else is answered with its error.
void take_line(const std::shared_ptr<mcp_stdio::state>& owner, std::string_view line) {
  auto incoming = read_incoming(line);
  if (!incoming.message) {
    auto refusal = owner->write_line(std::move(incoming.refusal));
    asio::co_spawn(owner->executor, std::move(refusal), asio::detached);
    return;
  }
  if (auto* request = std::get_if<mcp::rpc_request>(&*incoming.message)) {
    ++owner->requests;  // counted before it starts: the input may end before it runs
    auto handled = handle_stdio_request(owner, std::move(*request));
    asio::co_spawn(owner->executor, std::move(handled), asio::detached);
    return;
  }
  if (const auto* note = std::get_if<mcp::rpc_notification>(&*incoming.message))
    owner->session.handle_notification(*note);
}

// Splits what arrives into lines; a line longer than kMaxMcpLineBytes is refused once and
// skipped to its end.
class line_splitter {
 public:
  template <class OnLine>
  void feed(std::string_view bytes, OnLine&& on_line) {
    while (!bytes.empty()) {
      const auto newline = bytes.find('\n');
      const auto piece = bytes.substr(0, newline);
      if (!skipping_) pending_.append(piece);
      if (pending_.size() > kMaxMcpLineBytes) {
        pending_.clear();
        skipping_ = true;
        on_line(std::nullopt);
      }
      if (newline == std::string_view::npos) return;
      bytes.remove_prefix(newline + 1);
      if (!skipping_) {
        std::string_view line(pending_);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (!line.empty()) on_line(std::optional<std::string_view>(line));
      }
      pending_.clear();
      skipping_ = false;
    }
  }

 private:
  std::string pending_;
  bool skipping_ = false;
};

}  // namespace

mcp_stdio::mcp_stdio(asio::any_io_executor executor, server_context& context, const user& who, mcp_settings settings,
                     int in_fd, int out_fd)
    : state_(std::make_shared<state>(executor, context, who, std::move(settings), in_fd, out_fd)) {}

void mcp_stdio::stop_reading() { state_->in.cancel(); }

mcp_stdio::~mcp_stdio() {
  state_->in.cancel();
  state_->out.cancel();
}

asio::awaitable<void> mcp_stdio::run() {
  auto owner = state_;
  line_splitter lines;
  std::array<char, 64 * 1024> buffer{};
  for (;;) {
    const std::size_t n = co_await owner->in.read_some(std::span<char>(buffer));
    if (n == 0) break;
    lines.feed(std::string_view(buffer.data(), n), [&owner](std::optional<std::string_view> line) {
      if (line) {
        take_line(owner, *line);
        return;
      }
      auto refusal = owner->write_line(null_id_error(
          mcp::rpc_code::kParseError, "parse error: a message over " + std::to_string(kMaxMcpLineBytes) + " bytes"));
      asio::co_spawn(owner->executor, std::move(refusal), asio::detached);
    });
  }
  // The input ended: the client is gone. What still waits stops, answering nothing.
  owner->session.close();
  while (owner->requests > 0) co_await owner->request_ended.wait();
}

}  // namespace parley::server

#include "server_link.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/json/serialize.hpp>

#include <cerrno>
#include <exception>
#include <system_error>

#include "cli_messages.hpp"
#include "parley/core/file_io.hpp"
#include "parley/core/json.hpp"
#include "parley/http/client.hpp"

namespace parley::cli {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kMaxTokenBytes = 512;

std::string system_reason(int code) { return std::error_code(code, std::generic_category()).message(); }

// A token is what `parley serve` made or was given: printable ASCII, no spaces. Anything else in
// the file is not one (and must not reach a header).
bool plausible_token(std::string_view token) {
  if (token.empty() || token.size() > kMaxTokenBytes) return false;
  for (const char c : token) {
    if (c <= ' ' || c > '~') return false;
  }
  return true;
}

errc code_of_status(int status) {
  switch (status) {
    case 400:
    case 413:
    case 422:
      return errc::invalid_argument;
    case 404:
      return errc::not_found;
    case 409:
    case 423:
      return errc::conflict;
    default:
      return errc::io_error;
  }
}

// The server's `{error: {code, message}}`, or what the status says when the body is not that.
std::string message_of(const http::response& answer) {
  if (auto parsed = parse_json(answer.body); parsed && parsed->is_object()) {
    if (const auto* err = parsed->as_object().if_contains("error"); err != nullptr && err->is_object()) {
      if (const auto* text = err->as_object().if_contains("message"); text != nullptr && text->is_string()) {
        return std::string(text->as_string());
      }
    }
  }
  return "HTTP " + std::to_string(answer.status) + " " + answer.reason;
}

}  // namespace

result<credential_file> credential_file::write(const fs::path& data_dir, std::string_view token) {
  const fs::path path = data_dir / kCredentialFile;
  // Made 0600 from the start (no moment where another user could read it), replaced if there.
  (void)::unlink(path.c_str());
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return make_error(errc::io_error, "cannot write " + path.string() + ": " + system_reason(errno));
  const std::string text = std::string(token) + "\n";
  const bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  const int code = errno;
  ::close(fd);
  if (!written) {
    (void)::unlink(path.c_str());
    return make_error(errc::io_error, "cannot write " + path.string() + ": " + system_reason(code));
  }
  return credential_file(path);
}

credential_file::~credential_file() {
  if (!path_.empty()) (void)::unlink(path_.c_str());
}

result<std::optional<server_link>> find_server(const fs::path& data_dir) {
  auto holder = data_dir_lock::holder(data_dir);
  if (!holder) return std::move(holder).err();
  if (!*holder) return std::optional<server_link>{};
  const lock_holder& who = **holder;
  const std::string in_use = "the data directory " + data_dir.string() + " is in use by " +
                             (who.pid > 0 ? describe_holder(who) : std::string("another process"));
  if (who.command != "serve" || who.url.empty()) {
    return make_error(errc::conflict, in_use + "; wait for it to finish (one process writes a store at a time)");
  }
  auto text = read_file_prefix(data_dir / kCredentialFile, kMaxTokenBytes + 2);
  if (!text) {
    return make_error(errc::conflict, in_use + ", and its credential " + (data_dir / kCredentialFile).string() +
                                          " cannot be read (" + text.err().message +
                                          "): a server started with --users takes requests with each user's own "
                                          "token over its API; else run this as the user who started it");
  }
  std::string token = text->bytes;
  while (!token.empty() && (token.back() == '\n' || token.back() == '\r')) token.pop_back();
  if (!plausible_token(token)) {
    return make_error(errc::conflict, in_use + ", and its credential " + (data_dir / kCredentialFile).string() +
                                          " does not hold a token");
  }
  return std::optional<server_link>{server_link{who, who.url, std::move(token)}};
}

result<boost::json::value> call_server(const server_link& server, std::string_view method, std::string_view path,
                                       const boost::json::value* body) {
  http::request request;
  request.method = std::string(method);
  std::string base = server.base_url;
  while (!base.empty() && base.back() == '/') base.pop_back();
  request.url = base + std::string(path);
  request.headers.push_back({"Authorization", "Bearer " + server.token});
  request.headers.push_back({"Accept", "application/json"});
  if (body != nullptr) {
    request.headers.push_back({"Content-Type", "application/json"});
    request.body = boost::json::serialize(*body);
  }
  http::client_options options;
  options.proxy = http::proxy_settings{};  // the server is local: never through a proxy
  options.timeouts.first_byte = std::chrono::milliseconds(60'000);
  boost::asio::io_context io;
  http::client client(options);
  std::optional<result<http::response>> answer;
  boost::asio::co_spawn(
      io, [&]() -> boost::asio::awaitable<void> { answer.emplace(co_await client.send(request)); },
      [&](const std::exception_ptr& thrown) {
        if (thrown) answer.emplace(make_error(errc::internal, "the request to the server ended with an exception"));
      });
  io.run();
  if (!answer || !*answer) {
    return make_error(errc::io_error, "cannot reach the server at " + server.base_url + ": " +
                                          (answer ? answer->err().message : std::string("no answer")));
  }
  const http::response& got = **answer;
  if (!got.success()) return make_error(code_of_status(got.status), message_of(got));
  if (got.body.empty()) return boost::json::value(boost::json::object{});
  auto parsed = parse_json(got.body);
  if (!parsed) return make_error(errc::io_error, "the server's answer is not JSON: " + parsed.err().message);
  return std::move(*parsed);
}

std::string through(const server_link& server) {
  return say_cli(msg::through_server, {{"holder", describe_holder(server.holder)}});
}

}  // namespace parley::cli

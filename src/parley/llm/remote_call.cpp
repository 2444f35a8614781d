#include "parley/llm/remote_call.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>

#include "parley/core/json_fields.hpp"
#include "parley/core/utf8.hpp"
#include "parley/http/url.hpp"

namespace parley::llm {

namespace asio = boost::asio;

namespace {

constexpr std::size_t kMaxQuotedBody = 500;
constexpr std::size_t kMaxKeptBody = 64 * 1024;

// What the server said, from the error shapes OpenAI, Anthropic and the local servers use.
std::string server_message(std::string_view body) {
  if (auto parsed = parse_json(body); parsed && parsed->is_object()) {
    const json::object& answer = parsed->get_object();
    if (const auto* err = answer.if_contains("error")) {
      if (err->is_string()) return std::string(err->get_string());
      if (const auto* detail = err->if_object()) {
        // The documented {message, type?}; a body that is not (a number for message ...) is quoted below.
        json_fields in(*detail, "error");
        const std::string message = in.optional_string("message").value_or("");
        const std::string type = in.optional_string("type").value_or("");
        if (in.ok() && !message.empty()) return type.empty() ? message : type + ": " + message;
      }
    }
    for (const char* key : {"message", "detail"}) {
      if (const auto* text = answer.if_contains(key); text != nullptr && text->is_string()) {
        return std::string(text->get_string());
      }
    }
  }
  if (body.empty()) return "(empty body)";
  // The body may be in any encoding (a gateway's HTML page) and is cut anywhere: quoted as UTF-8,
  // since the error ends up in the log (drive_failed), which refuses anything else.
  return utf8_excerpt(body, kMaxQuotedBody);
}

std::string host_of(std::string_view url) {
  auto parts = http::parse_url(url);
  return parts ? parts->authority : std::string(url);
}

std::optional<std::int64_t> parse_count(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size() || value < 0 || text.empty()) return std::nullopt;
  return value;
}

error cancelled() { return make_error(errc::cancelled, "request cancelled"); }

}  // namespace

error http_status_error(std::string_view provider, const http::response& response, std::string_view url) {
  std::string message = std::string(provider) + ": HTTP " + std::to_string(response.status);
  if (!response.reason.empty()) message += " " + response.reason;
  message += " from " + host_of(url) + ": " + server_message(response.body);
  return make_error(errc::provider_error, std::move(message));
}

std::optional<std::chrono::milliseconds> retry_after(const http::response& response) {
  if (auto ms = parse_count(response.header("retry-after-ms"))) return std::chrono::milliseconds(*ms);
  // The HTTP-date form is rare from model APIs; the backoff covers it.
  if (auto seconds = parse_count(response.header("retry-after"))) return std::chrono::seconds(*seconds);
  return std::nullopt;
}

std::optional<int> provider_http_status(const error& err) {
  constexpr std::string_view kMarker = "HTTP ";
  const std::string_view text = err.message;
  for (auto at = text.find(kMarker); at != std::string_view::npos; at = text.find(kMarker, at + 1)) {
    const std::string_view digits = text.substr(at + kMarker.size(), 3);
    const std::size_t after = at + kMarker.size() + 3;
    if (digits.size() != 3 || !std::all_of(digits.begin(), digits.end(), ::isdigit)) continue;
    if (after < text.size() && text[after] != ' ') continue;
    return (digits[0] - '0') * 100 + (digits[1] - '0') * 10 + (digits[2] - '0');
  }
  return std::nullopt;
}

bool is_retryable(const error& err) {
  if (err.code != errc::provider_error) return false;
  const auto status = provider_http_status(err);
  if (!status) return true;
  return *status == 408 || *status == 409 || *status == 425 || *status == 429 || *status >= 500;
}

asio::awaitable<result<http::response>> call_with_retries(http::client& client, const http::request& req,
                                                          const http::body_callback* on_body,
                                                          generation_control& control, const retry_policy& policy,
                                                          std::string_view provider,
                                                          const restart_callback* on_restart) {
  auto backoff = policy.initial_backoff;
  for (int attempt = 1;; ++attempt) {
    if (control.stopped()) co_return cancelled();
    bool body_seen = false;
    bool body_refused = false;  // the caller's own verdict (bad SSE, bad JSON): retrying repeats it
    http::body_callback counted = [&](std::string_view piece) {
      body_seen = true;
      auto taken = (*on_body)(piece);
      body_refused = !taken;
      return taken;
    };
    // Plain statements around co_await: gcc 12 miscompiles co_await inside a conditional expression.
    std::optional<result<http::response>> attempt_result;
    if (on_body != nullptr) {
      attempt_result.emplace(co_await client.stream(req, counted, control.slot()));
    } else {
      attempt_result.emplace(co_await client.send(req, control.slot()));
    }
    result<http::response> answer = std::move(*attempt_result);
    if (control.stopped()) co_return cancelled();
    std::optional<std::chrono::milliseconds> asked_wait;
    error failure;
    if (answer && answer->success()) co_return answer;
    if (answer) {
      failure = http_status_error(provider, *answer, req.url);
      asked_wait = retry_after(*answer);
    } else {
      failure = std::move(answer).err();
      if (failure.code == errc::cancelled) co_return failure;
      failure.message = std::string(provider) + ": " + failure.message;
    }
    const bool restartable = body_seen && !body_refused && on_restart != nullptr;
    if (attempt >= policy.max_attempts || (body_seen && !restartable) || !is_retryable(failure)) co_return failure;
    if (body_seen) (*on_restart)(failure.message);

    const auto delay = std::min(asked_wait.value_or(backoff), policy.max_backoff);
    backoff = std::min(backoff * 2, policy.max_backoff);
    asio::steady_timer timer(co_await asio::this_coro::executor, delay);
    co_await timer.async_wait(asio::bind_cancellation_slot(control.slot(), asio::as_tuple(asio::use_awaitable)));
  }
}

asio::awaitable<result<void>> stream_sse(http::client& client, const http::request& req,
                                         const sse_event_handler& on_event, generation_control& control,
                                         const remote_options& options, std::string_view provider,
                                         const restart_callback& on_restart) {
  std::optional<http::sse_parser> parser;
  parser.emplace(options.sse);
  std::vector<http::sse_event> events;
  // The start of a body that held no events, kept to say what came instead (a JSON error from a
  // gateway, a server that ignored "stream": true).
  std::string not_events;
  bool any_event = false;
  auto deliver = [&]() -> result<void> {
    any_event = any_event || !events.empty();
    for (const auto& event : events) {
      if (control.stopped()) return cancelled();
      if (auto taken = on_event(event); !taken) return taken;
    }
    events.clear();
    return ok();
  };
  const http::body_callback on_body = [&](std::string_view piece) -> result<void> {
    if (!any_event && not_events.size() < kMaxKeptBody) {
      not_events.append(piece.substr(0, kMaxKeptBody - not_events.size()));
    }
    if (auto fed = parser->feed(piece, events); !fed) return make_error(errc::provider_error, fed.err().message);
    return deliver();
  };
  const restart_callback restart = [&](const std::string& reason) {
    parser.emplace(options.sse);
    events.clear();
    not_events.clear();
    any_event = false;
    on_restart(reason);
  };
  auto answer = co_await call_with_retries(client, req, &on_body, control, options.retry, provider, &restart);
  if (!answer) co_return std::move(answer).err();
  if (auto fed = parser->finish(events); !fed) co_return make_error(errc::provider_error, fed.err().message);
  if (auto delivered = deliver(); !delivered) co_return delivered;
  if (!any_event && !not_events.empty()) {
    co_return make_error(errc::provider_error, "expected an event stream, got: " + server_message(not_events));
  }
  co_return ok();
}

result<json::object> answer_object(std::string_view body) {
  auto parsed = parse_json(body);
  if (!parsed || !parsed->is_object()) {
    return make_error(errc::provider_error, "response is not a JSON object: " + utf8_excerpt(body, kMaxQuotedBody));
  }
  return std::move(parsed->get_object());
}

error named_error(std::string_view provider, error err) {
  const std::string prefix = std::string(provider) + ": ";
  if (err.message.rfind(prefix, 0) != 0) err.message = prefix + err.message;
  return err;
}

std::string join_url(std::string_view base, std::string_view path) {
  while (!base.empty() && base.back() == '/') base.remove_suffix(1);
  while (!path.empty() && path.front() == '/') path.remove_prefix(1);
  return std::string(base) + "/" + std::string(path);
}

http::client_options client_options_for(const remote_options& options) {
  http::client_options client;
  client.timeouts = options.timeouts;
  client.proxy = options.proxy;
  client.ca_file = options.ca_file;
  client.max_body_bytes = options.max_body_bytes;
  return client;
}

}  // namespace parley::llm

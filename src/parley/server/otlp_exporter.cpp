#include "parley/server/otlp_exporter.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <cstdio>
#include <cstdlib>
#include <span>
#include <vector>

#include "parley/core/utf8.hpp"
#include "parley/http/url.hpp"

namespace parley::server {
namespace {

namespace asio = boost::asio;

std::string env_or_empty(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? std::string(value) : std::string();
}

result<void> check_endpoint(const std::string& endpoint, std::string_view source) {
  auto parts = http::parse_url(endpoint);
  if (!parts) {
    return make_error(errc::invalid_argument,
                      std::string(source) + ": not an http:// or https:// URL: " + parts.err().message);
  }
  return ok();
}

// OTEL_EXPORTER_OTLP_HEADERS: "name=value,name2=value2" (values may be percent-encoded; kept as
// given but for their surrounding spaces).
result<http::header_list> headers_from(std::string_view text) {
  http::header_list headers;
  while (!text.empty()) {
    const auto comma = text.find(',');
    std::string_view item = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    const auto equals = item.find('=');
    const auto trim = [](std::string_view s) {
      while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
      while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
      return s;
    };
    const auto name = trim(item.substr(0, equals));
    if (equals == std::string_view::npos || name.empty()) {
      return make_error(errc::invalid_argument,
                        "OTEL_EXPORTER_OTLP_HEADERS: expected name=value, got '" + utf8_excerpt(item, 60) + "'");
    }
    const auto value = trim(item.substr(equals + 1));
    for (const char c : std::string(name) + std::string(value)) {
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
        return make_error(errc::invalid_argument,
                          "OTEL_EXPORTER_OTLP_HEADERS: a control character in '" + utf8_excerpt(name, 60) + "'");
      }
    }
    headers.push_back({std::string(name), std::string(value)});
  }
  return headers;
}

}  // namespace

result<otlp_options> otlp_options_from(const std::string& flag_endpoint) {
  otlp_options options;
  if (!flag_endpoint.empty()) {
    PARLEY_TRY(check_endpoint(flag_endpoint, "--otlp-endpoint"));
    options.endpoint = flag_endpoint;
  } else if (auto traces = env_or_empty("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"); !traces.empty()) {
    PARLEY_TRY(check_endpoint(traces, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"));
    options.endpoint = std::move(traces);
  } else if (auto base = env_or_empty("OTEL_EXPORTER_OTLP_ENDPOINT"); !base.empty()) {
    while (!base.empty() && base.back() == '/') base.pop_back();
    base += "/v1/traces";  // the specification's path for traces under the base endpoint
    PARLEY_TRY(check_endpoint(base, "OTEL_EXPORTER_OTLP_ENDPOINT"));
    options.endpoint = std::move(base);
  }
  PARLEY_TRY_ASSIGN(options.headers, headers_from(env_or_empty("OTEL_EXPORTER_OTLP_HEADERS")));
  return options;
}

otlp_exporter::otlp_exporter(asio::any_io_executor executor, otlp_options options, trace_resource resource)
    : executor_(executor),
      options_(std::move(options)),
      resource_(std::move(resource)),
      client_([this] {
        http::client_options client;
        client.timeouts.connect = options_.timeout;
        client.timeouts.first_byte = options_.timeout;
        client.timeouts.idle = options_.timeout;
        client.max_idle_per_host = 2;
        return client;
      }()),
      wake_(executor) {}

void otlp_exporter::enqueue(trace_span&& span) {
  if (queue_.size() >= options_.max_queued || stopping_) {
    dropped_.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  queue_.push_back(std::move(span));
  if (queue_.size() >= options_.max_batch) wake_.cancel();  // a full batch goes now
}

void otlp_exporter::start() { asio::co_spawn(executor_, run(), asio::detached); }

asio::awaitable<void> otlp_exporter::run() {
  while (!stopping_) {
    if (queue_.size() < options_.max_batch) {
      wake_.expires_after(options_.interval);
      boost::system::error_code ignored;
      co_await wake_.async_wait(asio::redirect_error(asio::use_awaitable, ignored));
    }
    if (!queue_.empty() && !stopping_) co_await send_batch();
  }
}

asio::awaitable<void> otlp_exporter::send_batch() {
  const std::size_t n = std::min(queue_.size(), options_.max_batch);
  std::vector<trace_span> batch(std::make_move_iterator(queue_.begin()),
                                std::make_move_iterator(queue_.begin() + static_cast<std::ptrdiff_t>(n)));
  queue_.erase(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(n));
  http::request request;
  request.url = options_.endpoint;
  request.headers = options_.headers;
  request.headers.push_back({"Content-Type", "application/x-protobuf"});
  request.body = encode_trace_export(resource_, std::span<const trace_span>(batch));
  auto sent = co_await client_.send(request);
  if (sent && sent->success()) {
    exported_.fetch_add(static_cast<std::int64_t>(n), std::memory_order_relaxed);
    warned_ = false;
    co_return;
  }
  dropped_.fetch_add(static_cast<std::int64_t>(n), std::memory_order_relaxed);
  if (!warned_) {
    warned_ = true;
    const std::string why = sent ? "HTTP " + std::to_string(sent->status) : sent.err().message;
    std::fprintf(stderr, "parley: warning: traces to %s not taken (%s); spans are dropped and counted until it does\n",
                 options_.endpoint.c_str(), utf8_excerpt(why, 200).c_str());
  }
}

asio::awaitable<void> otlp_exporter::stop() {
  if (!queue_.empty()) co_await send_batch();
  stopping_ = true;
  wake_.cancel();
}

}  // namespace parley::server

// Sends the spans span_recorder ends to an OTLP/HTTP collector (`POST <endpoint>`, protobuf),
// batched: every second, or sooner once a batch is full. Bounded: past `max_queued` spans a new
// one is dropped and counted, and a collector that is down or slow costs at most one request in
// flight — a dialog never waits for its trace.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>

#include "parley/core/result.hpp"
#include "parley/http/client.hpp"
#include "parley/server/otlp_protobuf.hpp"
#include "parley/server/trace_span.hpp"

namespace parley::server {

struct otlp_options {
  std::string endpoint;  // the full URL spans are POSTed to, e.g. http://127.0.0.1:4318/v1/traces
  http::header_list headers;
  std::size_t max_queued = 4096;
  std::size_t max_batch = 512;
  std::chrono::milliseconds interval{1000};
  std::chrono::milliseconds timeout{5000};
};

// Where traces go, from the flag or OpenTelemetry's variables (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,
// else OTEL_EXPORTER_OTLP_ENDPOINT + "/v1/traces"); an empty endpoint when none is set. Headers
// from OTEL_EXPORTER_OTLP_HEADERS ("name=value,..."). Errors name the flag or variable.
result<otlp_options> otlp_options_from(const std::string& flag_endpoint);

class otlp_exporter {
 public:
  otlp_exporter(boost::asio::any_io_executor executor, otlp_options options, trace_resource resource);
  otlp_exporter(const otlp_exporter&) = delete;
  otlp_exporter& operator=(const otlp_exporter&) = delete;

  void enqueue(trace_span&& span);
  void start();  // the batching loop, on the executor
  // Sends what is queued (one last batch, bounded by the timeout) and ends the loop.
  boost::asio::awaitable<void> stop();

  std::int64_t exported() const noexcept { return exported_.load(std::memory_order_relaxed); }
  std::int64_t dropped() const noexcept { return dropped_.load(std::memory_order_relaxed); }

 private:
  boost::asio::awaitable<void> run();
  boost::asio::awaitable<void> send_batch();

  boost::asio::any_io_executor executor_;
  otlp_options options_;
  trace_resource resource_;
  http::client client_;
  boost::asio::steady_timer wake_;
  std::deque<trace_span> queue_;
  bool stopping_ = false;
  bool warned_ = false;  // the collector's first failure is said once, not per batch
  std::atomic<std::int64_t> exported_{0};
  std::atomic<std::int64_t> dropped_{0};
};

}  // namespace parley::server

#include "parley/server/metrics_endpoint.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <string_view>

#include "parley/engine/store_reads.hpp"
#include "parley/server/metrics_observer.hpp"
#include "parley/server/otlp_exporter.hpp"
#include "parley/server/pubchan.hpp"
#include "parley/server/store_reads.hpp"

namespace parley::server {
namespace {

using type = metrics::exposition::type;

void gauge(metrics::exposition& out, std::string_view name, std::string_view help, double value) {
  out.family(name, type::gauge, help);
  out.sample(name, value);
}

void counter(metrics::exposition& out, std::string_view name, std::string_view help, double value) {
  out.family(name, type::counter, help);
  out.sample(name, value);
}

// The process's own figures, from the kernel: resident and virtual memory, CPU time, open files.
void write_process(metrics::exposition& out) {
  const double page = static_cast<double>(::sysconf(_SC_PAGESIZE));
  std::ifstream statm("/proc/self/statm");
  double virtual_pages = 0;
  double resident_pages = 0;
  if (statm >> virtual_pages >> resident_pages) {
    gauge(out, "parley_process_resident_memory_bytes", "Resident memory of the process.", resident_pages * page);
    gauge(out, "parley_process_virtual_memory_bytes", "Virtual memory of the process.", virtual_pages * page);
  }
  rusage usage{};
  if (::getrusage(RUSAGE_SELF, &usage) == 0) {
    const auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec / 1e6; };
    counter(out, "parley_process_cpu_seconds_total", "User and system CPU time of the process.",
            seconds(usage.ru_utime) + seconds(usage.ru_stime));
  }
  std::error_code ec;
  double fds = 0;
  for (std::filesystem::directory_iterator it("/proc/self/fd", ec), end; !ec && it != end; it.increment(ec)) ++fds;
  if (!ec) gauge(out, "parley_process_open_fds", "File descriptors the process holds open.", fds);
}

void write_store(metrics::exposition& out, const store_stats& stats) {
  counter(out, "parley_store_events_total", "Events committed to the log by this process.",
          static_cast<double>(stats.events));
  counter(out, "parley_store_commits_total", "Transactions committed to the log by this process.",
          static_cast<double>(stats.transactions));
  out.family("parley_store_commit_duration_seconds", type::histogram,
             "How long each commit to the log took, its fsync included.");
  if (!stats.commit_seconds.bounds.empty()) {
    out.histogram_samples("parley_store_commit_duration_seconds", {}, {}, stats.commit_seconds);
  }
  gauge(out, "parley_store_projection_lag_events", "Events committed to the log and not yet in its projections.",
        static_cast<double>(stats.projection_lag_events));
  gauge(out, "parley_store_write_queue_depth", "Requests queued for the store's writer thread.",
        static_cast<double>(stats.queued_writes));
}

void write_dialogs(metrics::exposition& out, const dialog_counts& counts) {
  constexpr std::array<std::string_view, 1> state{"state"};
  out.family("parley_dialogs", type::gauge, "Dialogs in the store by status.");
  out.sample("parley_dialogs", state, {"running"}, static_cast<double>(counts.running));
  out.sample("parley_dialogs", state, {"completed"}, static_cast<double>(counts.completed));
  out.sample("parley_dialogs", state, {"archived"}, static_cast<double>(counts.archived));
}

void write_engine(metrics::exposition& out, server_context& context) {
  auto& eng = context.engine;
  gauge(out, "parley_dialogs_loaded", "Dialogs the engine holds in memory.", static_cast<double>(eng.dialogs().size()));
  gauge(out, "parley_dialogs_driving", "Dialogs being driven now (a model call or a tool running).",
        static_cast<double>(eng.runs().running_dialogs().size()));
  gauge(out, "parley_dialogs_stalled", "Dialogs whose drive waits for the store to take writes again.",
        static_cast<double>(eng.drives().stalled_dialogs()));
  gauge(out, "parley_store_reads_in_flight", "Store reads queued for or running on the read thread.",
        context.reads != nullptr ? static_cast<double>(context.reads->in_flight()) : 0.0);
}

}  // namespace

boost::asio::awaitable<std::string> render_metrics(server_context& context, http_figures http) {
  metrics::exposition out;
  constexpr std::array<std::string_view, 1> version{"version"};
  out.family("parley_build_info", type::gauge, "Always 1; the label names the running version.");
  out.sample("parley_build_info", version, {metrics::label_value(context.version)}, 1);

  std::string problem = context.log.health_problem();
  auto counts = co_await read_store(context, [&log = context.log] { return log.count_dialogs(); });
  if (!counts && problem.empty()) problem = counts.err().message;
  gauge(out, "parley_store_healthy", "1 while the store reads and takes writes; 0 when it cannot (see /readyz).",
        problem.empty() ? 1.0 : 0.0);
  if (counts) write_dialogs(out, *counts);
  write_store(out, context.log.stats());
  write_engine(out, context);
  if (context.metrics != nullptr) context.metrics->write(out);
  if (context.traces != nullptr) {
    counter(out, "parley_trace_spans_exported_total", "Spans the OTLP collector took.",
            static_cast<double>(context.traces->exported()));
    counter(out, "parley_trace_spans_dropped_total",
            "Spans dropped: the queue was full, or the collector was down, slow or refused them.",
            static_cast<double>(context.traces->dropped()));
  }
  gauge(out, "parley_websocket_connections", "Open WebSocket (PubChan) connections.",
        static_cast<double>(context.channels.connection_count()));
  gauge(out, "parley_http_connections", "Open HTTP connections, WebSockets and idle keep-alives included.",
        static_cast<double>(http.connections));
  write_process(out);
  co_return out.text();
}

readiness check_readiness(server_context& context) {
  if (auto problem = context.log.health_problem(); !problem.empty()) return {false, "store: " + problem};
  if (const auto stalled = context.engine.drives().stalled_dialogs(); stalled > 0) {
    return {false, "store: refused a write; " + std::to_string(stalled) + " dialogs wait for it to take writes again"};
  }
  const auto lag = context.log.stats().projection_lag_events;
  if (lag > kReadyProjectionLag) {
    return {false, "store: the projections trail the log by " + std::to_string(lag) + " events (more than " +
                       std::to_string(kReadyProjectionLag) + ")"};
  }
  return {};
}

}  // namespace parley::server

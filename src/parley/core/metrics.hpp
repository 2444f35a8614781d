// Counters and histograms for `GET /metrics`, and Prometheus' text exposition format (version
// 0.0.4) to write them in. Kept in core so that every floor can count (the store's writer times its
// commits here) without knowing who reads the figures.
//
// Threads: a `histogram` is lock-free (the writer thread observes while the loop scrapes); a
// labelled family takes a mutex per update, uncontended in practice: its updates come from the
// event loop, its reads from a scrape on the same loop.
#pragma once

#include <atomic>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace parley::metrics {

// Upper bounds (seconds) for latencies from a fraction of a millisecond to minutes: a model's
// first token, a whole model call, a commit's fsync.
inline constexpr double kLatencyBuckets[] = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
                                             0.5,    1,     2.5,    5,     10,   30,    60,   120};

struct histogram_snapshot {
  std::vector<double> bounds;          // ascending upper bounds; +Inf is implied
  std::vector<std::uint64_t> buckets;  // per bound, NOT cumulative; one more for +Inf
  std::uint64_t count = 0;
  double sum = 0.0;
};

class histogram {
 public:
  explicit histogram(std::span<const double> bounds = kLatencyBuckets);
  histogram(const histogram&) = delete;
  histogram& operator=(const histogram&) = delete;

  void observe(double value) noexcept;
  histogram_snapshot snapshot() const;

 private:
  std::vector<double> bounds_;
  std::unique_ptr<std::atomic<std::uint64_t>[]> buckets_;  // bounds_.size() + 1
  std::atomic<double> sum_{0.0};
};

using label_values = std::vector<std::string>;

// A counter per combination of label values (member, model, tool ...).
class counter_family {
 public:
  void add(const label_values& labels, double amount = 1.0);
  std::map<label_values, double> snapshot() const;

 private:
  mutable std::mutex mutex_;
  std::map<label_values, double> values_;
};

// A histogram per combination of label values.
class histogram_family {
 public:
  explicit histogram_family(std::span<const double> bounds = kLatencyBuckets) : bounds_(bounds) {}
  void observe(const label_values& labels, double value);
  std::map<label_values, histogram_snapshot> snapshot() const;

 private:
  std::span<const double> bounds_;
  mutable std::mutex mutex_;
  std::map<label_values, std::unique_ptr<histogram>> values_;
};

// A label value as the format allows it: valid UTF-8 (anything else becomes U+FFFD) of at most
// 128 bytes — the values come from configuration and model output, and must not make a scrape
// unparseable or one series name a megabyte long.
std::string label_value(std::string_view raw);

// Writes the text format. Each family once: `family()` writes its HELP and TYPE lines, then its
// samples follow. Names are the caller's constants; label values are escaped here.
class exposition {
 public:
  enum class type { counter, gauge, histogram };

  void family(std::string_view name, type kind, std::string_view help);
  void sample(std::string_view name, std::span<const std::string_view> label_names, const label_values& labels,
              double value);
  void sample(std::string_view name, double value) { sample(name, {}, {}, value); }
  void histogram_samples(std::string_view name, std::span<const std::string_view> label_names,
                         const label_values& labels, const histogram_snapshot& figures);

  const std::string& text() const noexcept { return text_; }

 private:
  void labels(std::span<const std::string_view> names, const label_values& values, std::string_view extra_name = {},
              std::string_view extra_value = {});
  std::string text_;
};

}  // namespace parley::metrics

#include "parley/core/metrics.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "parley/core/utf8.hpp"

namespace parley::metrics {
namespace {

constexpr std::size_t kMaxLabelBytes = 128;

// Prometheus' float syntax: shortest round-trip digits, and +Inf/-Inf/NaN by name.
void append_number(std::string& out, double value) {
  if (std::isnan(value)) {
    out += "NaN";
  } else if (std::isinf(value)) {
    out += value > 0 ? "+Inf" : "-Inf";
  } else {
    char buffer[32];
    const auto written = std::to_chars(buffer, buffer + sizeof buffer, value);
    out.append(buffer, written.ptr);
  }
}

void append_escaped(std::string& out, std::string_view text, bool quotes) {
  for (const char c : text) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else if (quotes && c == '"') {
      out += "\\\"";
    } else {
      out += c;
    }
  }
}

std::string_view type_name(exposition::type kind) {
  switch (kind) {
    case exposition::type::counter:
      return "counter";
    case exposition::type::gauge:
      return "gauge";
    case exposition::type::histogram:
      return "histogram";
  }
  return "untyped";
}

}  // namespace

histogram::histogram(std::span<const double> bounds)
    : bounds_(bounds.begin(), bounds.end()),
      buckets_(std::make_unique<std::atomic<std::uint64_t>[]>(bounds_.size() + 1)) {}

void histogram::observe(double value) noexcept {
  const auto bucket = std::lower_bound(bounds_.begin(), bounds_.end(), value) - bounds_.begin();
  buckets_[static_cast<std::size_t>(bucket)].fetch_add(1, std::memory_order_relaxed);
  sum_.fetch_add(value, std::memory_order_relaxed);
}

histogram_snapshot histogram::snapshot() const {
  histogram_snapshot out;
  out.bounds = bounds_;
  out.buckets.reserve(bounds_.size() + 1);
  for (std::size_t i = 0; i <= bounds_.size(); ++i) out.buckets.push_back(buckets_[i].load(std::memory_order_relaxed));
  // The count is the buckets' sum, so that a scrape during an observe never shows +Inf below a
  // bucket (the format requires the cumulative counts to be monotonic and +Inf to equal _count).
  for (const auto n : out.buckets) out.count += n;
  out.sum = sum_.load(std::memory_order_relaxed);
  return out;
}

void counter_family::add(const label_values& labels, double amount) {
  std::lock_guard lock(mutex_);
  values_[labels] += amount;
}

std::map<label_values, double> counter_family::snapshot() const {
  std::lock_guard lock(mutex_);
  return values_;
}

void histogram_family::observe(const label_values& labels, double value) {
  std::lock_guard lock(mutex_);
  auto& slot = values_[labels];
  if (!slot) slot = std::make_unique<histogram>(bounds_);
  slot->observe(value);
}

std::map<label_values, histogram_snapshot> histogram_family::snapshot() const {
  std::lock_guard lock(mutex_);
  std::map<label_values, histogram_snapshot> out;
  for (const auto& [labels, figures] : values_) out.emplace(labels, figures->snapshot());
  return out;
}

std::string label_value(std::string_view raw) {
  if (is_valid_utf8(raw) && raw.size() <= kMaxLabelBytes) return std::string(raw);
  auto repaired = repair_utf8(raw).text;
  if (repaired.size() <= kMaxLabelBytes) return repaired;
  return utf8_excerpt(repaired, kMaxLabelBytes);
}

void exposition::family(std::string_view name, type kind, std::string_view help) {
  text_ += "# HELP ";
  text_ += name;
  text_ += ' ';
  append_escaped(text_, help, false);
  text_ += "\n# TYPE ";
  text_ += name;
  text_ += ' ';
  text_ += type_name(kind);
  text_ += '\n';
}

void exposition::labels(std::span<const std::string_view> names, const label_values& values,
                        std::string_view extra_name, std::string_view extra_value) {
  if (names.empty() && extra_name.empty()) return;
  text_ += '{';
  bool first = true;
  const auto one = [&](std::string_view name, std::string_view value) {
    if (!first) text_ += ',';
    first = false;
    text_ += name;
    text_ += "=\"";
    append_escaped(text_, value, true);
    text_ += '"';
  };
  for (std::size_t i = 0; i < names.size(); ++i) one(names[i], i < values.size() ? values[i] : std::string_view());
  if (!extra_name.empty()) one(extra_name, extra_value);
  text_ += '}';
}

void exposition::sample(std::string_view name, std::span<const std::string_view> label_names,
                        const label_values& values, double value) {
  text_ += name;
  labels(label_names, values);
  text_ += ' ';
  append_number(text_, value);
  text_ += '\n';
}

void exposition::histogram_samples(std::string_view name, std::span<const std::string_view> label_names,
                                   const label_values& values, const histogram_snapshot& figures) {
  const std::string bucket_name = std::string(name) + "_bucket";
  std::uint64_t cumulative = 0;
  std::string bound;
  for (std::size_t i = 0; i <= figures.bounds.size(); ++i) {
    cumulative += figures.buckets[i];
    bound.clear();
    append_number(bound, i < figures.bounds.size() ? figures.bounds[i] : INFINITY);
    text_ += bucket_name;
    labels(label_names, values, "le", bound);
    text_ += ' ';
    append_number(text_, static_cast<double>(cumulative));
    text_ += '\n';
  }
  sample(std::string(name) + "_sum", label_names, values, figures.sum);
  sample(std::string(name) + "_count", label_names, values, static_cast<double>(figures.count));
}

}  // namespace parley::metrics

// The q-quantile of a benchmark's samples (q in [0, 1]), by the nearest rank below: what every
// latency figure in bench/README.md is. 0 for no samples.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace parley::bench {

inline double percentile(std::vector<double> values, double q) {
  if (values.empty()) return 0;
  const auto at = static_cast<std::size_t>(q * static_cast<double>(values.size() - 1));
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(at), values.end());
  return values[at];
}

}  // namespace parley::bench

#include "parley/model/embedding_vector.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "parley/core/base64.hpp"

namespace parley {

static_assert(sizeof(float) == 4 && std::numeric_limits<float>::is_iec559, "vectors are IEEE float32");

std::string float32_bytes(std::span<const float> values) {
  std::string out(values.size() * 4, '\0');
  for (std::size_t i = 0; i < values.size(); ++i) {
    auto bits = std::bit_cast<std::uint32_t>(values[i]);
    for (std::size_t b = 0; b < 4; ++b) {
      out[i * 4 + b] = static_cast<char>((bits >> (8 * b)) & 0xff);  // little-endian whatever the host
    }
  }
  return out;
}

result<std::vector<float>> floats_of_bytes(std::string_view bytes, std::int64_t dimensions) {
  if (dimensions <= 0 || dimensions > kMaxEmbeddingDimensions) {
    return make_error(errc::invalid_argument, "dimensions: expected 1 to " + std::to_string(kMaxEmbeddingDimensions) +
                                                  ", got " + std::to_string(dimensions));
  }
  if (bytes.size() != static_cast<std::size_t>(dimensions) * 4) {
    return make_error(errc::invalid_argument, "vector: expected " + std::to_string(dimensions) + " float32s, got " +
                                                  std::to_string(bytes.size()) + " bytes");
  }
  std::vector<float> out(static_cast<std::size_t>(dimensions));
  for (std::size_t i = 0; i < out.size(); ++i) {
    std::uint32_t bits = 0;
    for (std::size_t b = 0; b < 4; ++b) {
      bits |= static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i * 4 + b])) << (8 * b);
    }
    out[i] = std::bit_cast<float>(bits);
    if (!std::isfinite(out[i])) {
      return make_error(errc::invalid_argument, "vector: value " + std::to_string(i) + " is not a finite number");
    }
  }
  return out;
}

result<std::vector<float>> floats_of_base64(std::string_view text, std::int64_t dimensions) {
  auto bytes = base64_decode(text);
  if (!bytes) return make_error(errc::invalid_argument, "vector: not base64");
  return floats_of_bytes(*bytes, dimensions);
}

double cosine_similarity(std::span<const float> a, std::span<const float> b) noexcept {
  if (a.size() != b.size() || a.empty()) return 0.0;
  double dot = 0.0;
  double norm_a = 0.0;
  double norm_b = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    dot += static_cast<double>(a[i]) * b[i];
    norm_a += static_cast<double>(a[i]) * a[i];
    norm_b += static_cast<double>(b[i]) * b[i];
  }
  if (norm_a == 0.0 || norm_b == 0.0) return 0.0;
  return dot / (std::sqrt(norm_a) * std::sqrt(norm_b));
}

}  // namespace parley

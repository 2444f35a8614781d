// Embedding vectors (seed 002's `embedding_vector`) as they are kept: little-endian IEEE float32s,
// base64 in the log's `record_message_embedded` and raw bytes in the records table
// `message_embedding`. Decoding checks the count and that every value is finite, so nothing that
// reads a vector back has to. Cosine similarity for semantic search.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "parley/core/result.hpp"

namespace parley {

// The most dimensions a vector may have (OpenAI's largest model has 3,072).
inline constexpr std::int64_t kMaxEmbeddingDimensions = 8192;

// Little-endian float32 bytes of `values`.
std::string float32_bytes(std::span<const float> values);
// The floats of `bytes`: exactly `dimensions` finite values, else an error saying what is wrong.
result<std::vector<float>> floats_of_bytes(std::string_view bytes, std::int64_t dimensions);
// The same through base64 (the log's form).
result<std::vector<float>> floats_of_base64(std::string_view text, std::int64_t dimensions);

// Cosine similarity in [-1, 1]; 0 when either vector is all zeros or their sizes differ.
double cosine_similarity(std::span<const float> a, std::span<const float> b) noexcept;

}  // namespace parley

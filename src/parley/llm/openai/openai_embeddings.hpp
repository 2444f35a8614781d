// An OpenAI-compatible embeddings client: POST {base_url}/embeddings with `{model, input}`, one
// text per call (seed 002's `embedding_vector`; docs/records.md "Analysis and embeddings"). The
// answer is bytes from outside: parse_embedding_answer refuses anything but one vector of exactly
// the configured number of finite numbers, naming the field and the problem.
#pragma once

#include <boost/asio/awaitable.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/http/client.hpp"
#include "parley/llm/provider.hpp"
#include "parley/llm/remote_options.hpp"

namespace parley::llm {

struct embeddings_options : remote_options {
  std::string model;
  std::int64_t dimensions = 0;
};

// The one vector of an `/embeddings` answer's `data[0].embedding`, or an error naming the field
// ("data[0].embedding[3]: expected a finite number, got a string").
result<std::vector<float>> parse_embedding_answer(std::string_view body, std::int64_t dimensions);

// Keeps a connection pool: destroy it before the io_context it ran on.
class embeddings_client {
 public:
  explicit embeddings_client(embeddings_options options);

  // The text's vector; a failed call or a refused answer is an error (errc::provider_error).
  boost::asio::awaitable<result<std::vector<float>>> embed(std::string text, generation_control& control);

  const std::string& model() const noexcept { return options_.model; }
  std::int64_t dimensions() const noexcept { return options_.dimensions; }

 private:
  embeddings_options options_;
  http::client client_;
  std::string url_;
};

}  // namespace parley::llm

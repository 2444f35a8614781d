// The Anthropic Messages provider (kind "anthropic"): POST {base_url}/messages with x-api-key and
// anthropic-version, streamed as SSE or answered whole. Thinking comes back with its signature
// (model_response::thinking_signature) and must be sent back with it for tool use to continue.
#pragma once

#include <memory>
#include <string>

#include "parley/llm/provider.hpp"
#include "parley/llm/remote_options.hpp"

namespace parley::llm {

// base_url like "https://api.anthropic.com/v1" (the default when empty).
struct anthropic_options : remote_options {
  std::string version = "2023-06-01";  // the anthropic-version header
};

// The provider keeps a connection pool: destroy it before the io_context it ran on.
std::shared_ptr<provider> make_anthropic_provider(const anthropic_options& options);

}  // namespace parley::llm

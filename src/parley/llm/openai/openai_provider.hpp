// The OpenAI-compatible provider (kind "openai"): POST {base_url}/chat/completions, streamed as SSE
// or answered whole. Works with OpenAI and the servers that copy its API (vLLM, llama.cpp,
// Ollama, DeepSeek, OpenRouter ...): reasoning arrives as `reasoning_content` or `reasoning`.
#pragma once

#include <memory>

#include "parley/llm/provider.hpp"
#include "parley/llm/remote_options.hpp"

namespace parley::llm {

// base_url like "https://api.openai.com/v1" (the default when empty) or "http://127.0.0.1:8080/v1".
struct openai_options : remote_options {};

// The provider keeps a connection pool: destroy it before the io_context it ran on.
std::shared_ptr<provider> make_openai_provider(const openai_options& options);

}  // namespace parley::llm

// What every HTTP model provider (OpenAI-compatible, Anthropic) is configured with, and how callers
// tell a passing provider failure (throttling, server trouble, network) from a lasting one.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/http/client.hpp"
#include "parley/http/sse_parser.hpp"

namespace parley::llm {

struct retry_policy {
  int max_attempts = 3;  // 1 = no retries
  std::chrono::milliseconds initial_backoff{500};
  std::chrono::milliseconds max_backoff{20'000};  // also caps a server's Retry-After
};

struct remote_options {
  std::string base_url;  // empty: the provider's official endpoint
  std::string api_key;   // may be empty for local servers
  bool streaming = true;
  http::timeouts timeouts;
  std::optional<http::proxy_settings> proxy;  // nullopt: HTTP(S)_PROXY / NO_PROXY from the environment
  std::string ca_file;                        // extra trusted CA beside the system store
  std::vector<http::header_field> extra_headers;
  retry_policy retry;
  http::sse_limits sse;
  std::size_t max_body_bytes = std::size_t{16} * 1024 * 1024;  // non-streamed responses and error bodies
};

// Provider errors made from an HTTP answer say "HTTP <status>" in their text; this reads it back.
std::optional<int> provider_http_status(const error& err);

// True for errors another attempt may cure: 408, 409, 425, 429, 5xx (and Anthropic's 529), and
// network failures (errc::provider_error without a status). Never for cancellation.
bool is_retryable(const error& err);

}  // namespace parley::llm

// The OpenAI Responses API provider (kinds "openai-responses" and "codex"): POST {base_url}/responses,
// streamed as SSE or answered whole. Stateless: every request sends the whole context with
// `store: false` and asks for `reasoning.encrypted_content`, so the reasoning items a turn produced
// travel with its assistant message (model_response::thinking_signature, responses_reasoning.hpp)
// and go back on the dialog's next request; no `previous_response_id`, nothing kept by the server.
#pragma once

#include <filesystem>
#include <memory>

#include "parley/llm/provider.hpp"
#include "parley/llm/remote_options.hpp"

namespace parley::llm {

// How a request proves who sends it.
enum class responses_auth {
  api_key,  // Authorization: Bearer <api_key> (OpenAI's platform API and compatible servers)
  // Codex CLI's ChatGPT login: the access token and account id in <codex_home>/auth.json, read
  // for every request, so a token Codex CLI refreshed is picked up without a restart.
  codex_login,
};

// base_url like "https://api.openai.com/v1" (the default when empty); for codex_login
// "https://chatgpt.com/backend-api/codex".
struct responses_options : remote_options {
  responses_auth auth = responses_auth::api_key;
  std::filesystem::path codex_home;  // codex_login: the folder holding auth.json
};

// The provider keeps a connection pool: destroy it before the io_context it ran on.
std::shared_ptr<provider> make_responses_provider(const responses_options& options);

}  // namespace parley::llm

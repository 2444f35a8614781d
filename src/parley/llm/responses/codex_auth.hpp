// Internal: the ChatGPT login Codex CLI keeps in $CODEX_HOME/auth.json (`codex login`), which
// Dominds' `codex` provider signs in with. Parley only reads it: it does not log in and does not
// refresh the token (Codex CLI does both, and rewrites the file).
#pragma once

#include <filesystem>
#include <string>

#include "parley/core/result.hpp"

namespace parley::llm::responses {

struct codex_credentials {
  std::string access_token;
  std::string account_id;  // the ChatGPT-Account-Id header; empty when the file has none
};

// Reads `<codex_home>/auth.json`: {"tokens": {"access_token": "...", "account_id": "..."}, ...}.
// A missing file, a file without a ChatGPT login (an API-key-only login) or a damaged one is an
// error that says which and what to do.
result<codex_credentials> read_codex_credentials(const std::filesystem::path& codex_home);

}  // namespace parley::llm::responses

#include "parley/llm/responses/codex_auth.hpp"

#include <fstream>
#include <sstream>

#include "parley/core/json.hpp"
#include "parley/core/json_fields.hpp"

namespace parley::llm::responses {

namespace {
// auth.json holds a few tokens; anything larger is not Codex CLI's file.
constexpr std::streamsize kMaxCodexAuthBytes = 1024 * 1024;

// A token goes into an HTTP header: visible ASCII only, so a damaged file cannot add headers.
bool is_header_token(const std::string& text) {
  for (const char c : text) {
    if (c <= ' ' || c > '~') return false;
  }
  return true;
}
}  // namespace

result<codex_credentials> read_codex_credentials(const std::filesystem::path& codex_home) {
  const std::filesystem::path file = codex_home / "auth.json";
  const std::string where = file.string();
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    return make_error(errc::config_error, "cannot read " + where + ": sign in with `codex login` (Codex CLI), or set " +
                                              "CODEX_HOME to the folder that holds its auth.json");
  }
  std::string text(static_cast<std::size_t>(kMaxCodexAuthBytes) + 1, '\0');
  in.read(text.data(), kMaxCodexAuthBytes + 1);
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (text.size() > static_cast<std::size_t>(kMaxCodexAuthBytes)) {
    return make_error(errc::config_error, where + " is larger than 1 MiB: not a Codex CLI login");
  }
  auto parsed = parse_json(text);
  if (!parsed || !parsed->is_object()) return make_error(errc::config_error, where + " is not a JSON object");
  json_fields root(parsed->get_object(), "auth.json");
  const json::object* tokens = root.optional_object("tokens");
  if (!root.ok()) return make_error(errc::config_error, where + ": " + root.message());
  if (tokens == nullptr) {
    return make_error(errc::config_error, where +
                                              " holds no ChatGPT login (no 'tokens'): the codex provider signs in "
                                              "with ChatGPT, as Dominds' does; run `codex login`");
  }
  json_fields fields(*tokens, "auth.json.tokens");
  codex_credentials credentials{fields.string("access_token"), fields.optional_string("account_id").value_or("")};
  if (!fields.ok()) return make_error(errc::config_error, where + ": " + fields.message());
  if (credentials.access_token.empty()) {
    return make_error(errc::config_error,
                      where + ": field 'auth.json.tokens.access_token' is empty; run `codex login`");
  }
  if (!is_header_token(credentials.access_token) || !is_header_token(credentials.account_id)) {
    return make_error(errc::config_error, where + ": the access token or account id holds characters a token has not");
  }
  return credentials;
}

}  // namespace parley::llm::responses

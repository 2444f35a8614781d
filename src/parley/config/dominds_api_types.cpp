// Dominds passes baseUrl to each vendor's SDK, and the SDKs disagree on where the version segment
// goes: the OpenAI SDK's baseURL ends at `/v1`, the Anthropic SDK's stops before it and appends
// `/v1/messages` itself. Parley's adapters append only the endpoint (`/chat/completions`,
// `/messages`), so an Anthropic-type base URL gets `/v1` here. Gemini (`google`) is spoken through
// Google's OpenAI-compatible endpoint, `<root>/v1beta/openai`, with the same key as a bearer token.
#include "parley/config/dominds_api_types.hpp"

#include <algorithm>
#include <array>
#include <string_view>

#include "parley/config/team_rules.hpp"
#include "parley/config/yaml_reader.hpp"
#include "parley/core/text.hpp"

namespace parley::config::detail {
namespace {

constexpr std::string_view kGeminiRoot = "https://generativelanguage.googleapis.com";
constexpr std::string_view kGeminiOpenaiPath = "/v1beta/openai";
constexpr std::string_view kGeminiKeyEnv = "GEMINI_API_KEY";

std::string without_trailing_slashes(std::string url) {
  while (!url.empty() && url.back() == '/') url.pop_back();
  return url;
}

bool ends_with(std::string_view text, std::string_view tail) {
  return text.size() >= tail.size() && text.substr(text.size() - tail.size()) == tail;
}

void as_openai(provider_entry& entry) {
  entry.config.kind = provider_kind::openai;
  entry.config.base_url = without_trailing_slashes(entry.config.base_url);
}

void as_anthropic(provider_entry& entry) {
  entry.config.kind = provider_kind::anthropic;
  std::string url = without_trailing_slashes(entry.config.base_url);
  if (!url.empty() && !ends_with(url, "/v1")) url += "/v1";
  entry.config.base_url = std::move(url);
}

void as_gemini_openai(provider_entry& entry) {
  entry.config.kind = provider_kind::openai;
  std::string url = without_trailing_slashes(entry.config.base_url);
  if (url.empty()) url = kGeminiRoot;
  // A base URL already naming the OpenAI-compatible endpoint is taken as it is.
  if (!ends_with(url, "/openai")) url += kGeminiOpenaiPath;
  entry.config.base_url = std::move(url);
  if (entry.config.api_key_env.empty()) entry.config.api_key_env = kGeminiKeyEnv;
}

void as_openai_responses(provider_entry& entry) {
  entry.config.kind = provider_kind::openai_responses;
  entry.config.base_url = without_trailing_slashes(entry.config.base_url);
}

// Dominds' baseUrl is ChatGPT's backend root; Codex CLI's Responses endpoint is under `/codex`.
// apiKeyEnvVar (CODEX_HOME) names the folder of Codex CLI's auth.json, as in Dominds.
void as_codex(provider_entry& entry) {
  entry.config.kind = provider_kind::codex;
  std::string url = without_trailing_slashes(entry.config.base_url);
  if (!url.empty() && !ends_with(url, "/codex")) url += "/codex";
  entry.config.base_url = std::move(url);
}

// Dominds' mock provider: baseUrl is the folder of its <model>.yaml databases, relative to the
// workspace (Dominds runs in it); the engine resolves it there and reads them as scripted models.
void as_mock(provider_entry& entry) {
  entry.config.kind = provider_kind::mock;
  entry.config.script = entry.config.base_url;
}

// Every apiType Parley knows, with what it makes of it, in the order error messages list them.
struct api_type_rule {
  std::string_view name;
  void (*apply)(provider_entry&);
  bool spoken;  // false: known, and refused with a reason of its own
};

// `openai-responses` is Parley's own apiType (Dominds has none for the Responses API with a key).
constexpr std::array<api_type_rule, 8> kApiTypes{{{"openai", as_openai, true},
                                                  {"openai-compatible", as_openai, true},
                                                  {"google", as_gemini_openai, true},
                                                  {"anthropic", as_anthropic, true},
                                                  {"anthropic-compatible", as_anthropic, true},
                                                  {"openai-responses", as_openai_responses, true},
                                                  {"codex", as_codex, true},
                                                  {"mock", as_mock, true}}};

}  // namespace

const std::vector<std::string>& supported_api_types() {
  static const std::vector<std::string> types = [] {
    std::vector<std::string> names;
    for (const auto& rule : kApiTypes) {
      if (rule.spoken) names.emplace_back(rule.name);
    }
    return names;
  }();
  return types;
}

void translate_api_type(provider_entry& entry) {
  const std::string& type = entry.api_type;
  const auto rule = std::find_if(kApiTypes.begin(), kApiTypes.end(), [&](const auto& r) { return r.name == type; });
  if (rule != kApiTypes.end()) {
    rule->apply(entry);
  } else {
    entry.unsupported = "Parley does not speak apiType '" + type + "'" + did_you_mean(type, supported_api_types()) +
                        " (it speaks: " + join_names(supported_api_types()) + ")";
  }
  if (entry.unsupported.empty()) apply_provider_defaults(entry.config);
}

}  // namespace parley::config::detail

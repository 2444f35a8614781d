// Dominds' team_mgmt_check_provider: the provider as `.minds/llm.yaml` over Parley's catalogue
// defines it, its key variable (set or not, never its value) and, with `live: true`, one real
// request to it. Dominds' live check generates a reply per model; Parley asks the provider's
// models list instead (`GET <baseUrl>/models`, the key sent as the provider's API sends it), which
// proves the same three things — the endpoint answers, the key is accepted, the URL is right —
// without spending tokens, and also says whether each model checked is one the provider lists.
// The request is awaited on the dialog's executor (http::client), bounded by short timeouts and
// cancelled with the dialog, so a dead endpoint never blocks the event loop.
#include <boost/json/parse.hpp>

#include <algorithm>
#include <cstdlib>
#include <optional>

#include "parley/config/dominds_llm.hpp"
#include "parley/config/team.hpp"
#include "parley/core/json_fields.hpp"
#include "parley/http/client.hpp"
#include "parley/tools/dominds_tool_support.hpp"
#include "parley/tools/team_mgmt_support.hpp"

namespace parley::tools::team_mgmt_detail {
namespace {

namespace json = boost::json;
namespace fs = std::filesystem;

constexpr std::int64_t kCheckProviderDefaultMaxModels = 10;  // Dominds' default
constexpr std::size_t kCheckProviderServerSaysChars = 200;
constexpr std::size_t kCheckProviderModelsShown = 30;
constexpr std::size_t kCheckProviderMaxBody = std::size_t{4} * 1024 * 1024;

std::string check_env_value(const std::string& name) {
  if (name.empty()) return {};
  const char* value = std::getenv(name.c_str());
  return value == nullptr ? std::string{} : std::string(value);
}

bool is_http_kind(config::provider_kind kind) {
  return kind == config::provider_kind::openai || kind == config::provider_kind::anthropic ||
         kind == config::provider_kind::openai_responses;
}

struct check_request {
  std::string provider_key;
  std::optional<std::string> model;
  bool all_models = false;
  bool live = false;
  std::int64_t max_models = kCheckProviderDefaultMaxModels;
};

result<check_request> read_check_request(const json::object& args) {
  json_fields in(args);
  check_request out;
  out.provider_key = in.string("provider_key");
  out.model = in.optional_string("model");
  out.all_models = in.optional_boolean("all_models").value_or(false);
  out.live = in.optional_boolean("live").value_or(false);
  out.max_models = in.optional_integer("max_models").value_or(kCheckProviderDefaultMaxModels);
  if (!in.ok()) return make_error(errc::invalid_argument, in.message());
  if (out.provider_key.find_first_not_of(" \t") == std::string::npos) {
    return make_error(errc::invalid_argument, "provider_key: Provider key required");
  }
  if (out.model && out.model->find_first_not_of(" \t") == std::string::npos) out.model.reset();
  if (out.max_models <= 0) return make_error(errc::invalid_argument, "max_models: expected a positive integer");
  if (out.model && out.all_models) {
    return make_error(errc::invalid_argument, "Use either `model` or `all_models` (not both)");
  }
  return out;
}

// The URL as the answer shows it: no user:password@ and no query (either could carry a secret).
std::string provider_check_shown_url(std::string url) {
  if (const auto query = url.find_first_of("?#"); query != std::string::npos) url.erase(query);
  const auto scheme = url.find("://");
  const auto at = url.find('@', scheme == std::string::npos ? 0 : scheme + 3);
  const auto slash = url.find('/', scheme == std::string::npos ? 0 : scheme + 3);
  if (scheme != std::string::npos && at != std::string::npos && (slash == std::string::npos || at < slash)) {
    url.erase(scheme + 3, at - scheme - 2);
  }
  return url;
}

// What the server said, one short line: printable ASCII only, the key (should a server echo it)
// masked.
std::string provider_server_says(std::string_view body, const std::string& key) {
  std::string text(body.substr(0, kCheckProviderServerSaysChars * 4));
  if (!key.empty()) {
    for (auto at = text.find(key); at != std::string::npos; at = text.find(key, at + 3))
      text.replace(at, key.size(), "***");
  }
  std::string out;
  for (const char c : text) {
    if (out.size() >= kCheckProviderServerSaysChars) break;
    const auto byte = static_cast<unsigned char>(c);
    out += (byte >= 0x20 && byte < 0x7f) ? c : ' ';
  }
  return out;
}

http::request provider_models_request(const config::provider_config& provider, const std::string& key) {
  http::request req;
  req.method = "GET";
  const std::string from_env = check_env_value(provider.base_url_env);
  std::string base = from_env.empty() ? provider.base_url : from_env;
  while (!base.empty() && base.back() == '/') base.pop_back();
  req.url = base + "/models";
  if (provider.kind == config::provider_kind::anthropic) {
    req.headers.push_back({"anthropic-version", "2023-06-01"});
    if (!key.empty()) req.headers.push_back({"x-api-key", key});
  } else if (!key.empty()) {
    req.headers.push_back({"Authorization", "Bearer " + key});
  }
  return req;
}

// The ids of a `{"data": [{"id": ...}]}` models list (OpenAI's and Anthropic's shape); nullopt
// when the body is not one.
std::optional<std::vector<std::string>> provider_listed_models(std::string_view body) {
  std::error_code ec;
  const json::value parsed = json::parse(body, ec);
  if (ec || !parsed.is_object()) return std::nullopt;
  const auto* data = parsed.as_object().if_contains("data");
  if (data == nullptr || !data->is_array()) return std::nullopt;
  std::vector<std::string> ids;
  for (const auto& item : data->as_array()) {
    const auto* id = item.is_object() ? item.as_object().if_contains("id") : nullptr;
    if (id != nullptr && id->is_string()) ids.emplace_back(id->as_string());
  }
  return ids;
}

bool provider_model_listed(const std::vector<std::string>& listed, const std::string& model) {
  return std::any_of(listed.begin(), listed.end(), [&](const std::string& id) {
    return id == model || id == "models/" + model;  // Gemini's OpenAI endpoint prefixes its ids
  });
}

struct live_outcome {
  bool ok = false;
  std::string lines;
};

std::string provider_status_verdict(int status) {
  if (status >= 200 && status < 300) return "✅ reachable";
  if (status == 401 || status == 403) return "❌ auth refused";
  if (status == 404) return "❌ not found (check baseUrl)";
  return "❌ failed";
}

live_outcome provider_describe_answer(const http::response& answer, const std::string& key,
                                      const std::vector<std::string>& models) {
  live_outcome out;
  out.ok = answer.success();
  out.lines = "- status: " + provider_status_verdict(answer.status) + " (HTTP " + std::to_string(answer.status) + ")\n";
  if (!out.ok) {
    out.lines += "- server says: " + provider_server_says(answer.body, key) + "\n";
    return out;
  }
  const auto listed = provider_listed_models(answer.body);
  if (!listed) return out;
  out.lines += "- the provider lists " + std::to_string(listed->size()) + " model(s)\n";
  for (const auto& model : models) {
    out.lines += "- " + model + ": " +
                 (provider_model_listed(*listed, model) ? "✅ listed" : "⚠️ not listed by the provider") + "\n";
  }
  return out;
}

boost::asio::awaitable<live_outcome> provider_live_check(const config::provider_config& provider,
                                                         const std::string& key, const std::vector<std::string>& models,
                                                         const tool_context& ctx) {
  http::client_options options;
  options.timeouts.connect = std::chrono::seconds(5);
  options.timeouts.first_byte = std::chrono::seconds(15);
  options.timeouts.idle = std::chrono::seconds(15);
  options.max_body_bytes = kCheckProviderMaxBody;
  options.max_idle_per_host = 0;
  http::client client(options);
  const http::request req = provider_models_request(provider, key);
  live_outcome out;
  out.lines = "- request: GET " + provider_check_shown_url(req.url) + "\n";
  auto answer = co_await client.send(req, ctx.cancel);
  if (!answer) {
    out.lines += "- status: ❌ unreachable: " + provider_server_says(answer.err().message, key) + "\n";
    co_return out;
  }
  auto described = provider_describe_answer(*answer, key, models);
  described.lines = out.lines + described.lines;
  co_return described;
}

// A provider Parley reaches without HTTP: what can be checked without calling it.
std::string provider_local_check(const config::provider_entry& entry, const tool_context& ctx, bool& ok) {
  const auto& provider = entry.config;
  std::error_code ec;
  if (provider.kind == config::provider_kind::codex) {
    std::string home = check_env_value(provider.api_key_env);
    if (home.empty()) home = check_env_value("HOME") + "/.codex";
    ok = fs::is_regular_file(fs::path(home) / "auth.json", ec);
    return ok ? "- Codex login: ✅ auth.json found (Parley does not call chatgpt.com to test it)\n"
              : "- Codex login: ❌ no auth.json in the Codex home (run `codex login`)\n";
  }
  const fs::path where = provider.script.is_relative() ? ctx.workspace / provider.script : provider.script;
  ok = fs::exists(where, ec);
  return std::string("- ") + (provider.kind == config::provider_kind::mock ? "mock folder" : "script") + " `" +
         provider.script.generic_string() + "`: " + (ok ? "✅ found" : "❌ missing") + " (no network call)\n";
}

std::string provider_check_head_lines(const check_request& req, const config::provider_entry& entry,
                                      const std::string& env_line) {
  const auto& models = entry.config.models;
  std::string model_line = "models: (none)";
  if (!models.empty()) {
    model_line = "models: ";
    for (std::size_t i = 0; i < models.size() && i < kCheckProviderModelsShown; ++i) {
      model_line += (i ? ", " : "") + models[i];
    }
    if (models.size() > kCheckProviderModelsShown) model_line += ", ...";
  }
  return "# Provider Check\n- provider: `" + req.provider_key + "` (apiType: `" + entry.api_type + "`)\n- " + env_line +
         "\n- " + model_line + "\n- " +
         (req.live ? "live: true (one request to the provider's models list)"
                   : "live: false (config/env validation only)") +
         "\n";
}

std::vector<std::string> provider_models_to_check(const check_request& req, const config::provider_config& provider) {
  if (req.model) return {*req.model};
  if (!req.all_models) return provider.models.empty() ? std::vector<std::string>{} : std::vector{provider.models[0]};
  const auto count = std::min<std::size_t>(provider.models.size(), static_cast<std::size_t>(req.max_models));
  return {provider.models.begin(), provider.models.begin() + static_cast<std::ptrdiff_t>(count)};
}

tool_outcome provider_check_failed(const std::string& message) { return tool_outcome{false, "Error: " + message}; }

// Everything up to the live request: the provider found, usable, its key set, the model known.
result<const config::provider_entry*> settle_checked_provider(const check_request& req,
                                                              const config::detail::dominds_llm& llm) {
  const auto* entry = llm.find(req.provider_key);
  if (entry == nullptr) {
    return make_error(errc::not_found, "Provider not found: `" + req.provider_key +
                                           "`. Check `.minds/llm.yaml` (or built-in defaults). You can also run "
                                           "`team_mgmt_list_providers({})` to see available provider keys.");
  }
  if (!entry->unsupported.empty()) {
    return make_error(errc::config_error, "Provider `" + req.provider_key + "` (apiType: `" + entry->api_type +
                                              "`): Parley cannot use it: " + entry->unsupported);
  }
  const auto& models = entry->config.models;
  if (req.model && std::find(models.begin(), models.end(), *req.model) == models.end()) {
    return make_error(errc::not_found, "Model not found: `" + *req.model + "` is not in provider `" + req.provider_key +
                                           "` models. Update `.minds/llm.yaml` or choose a "
                                           "configured model key.");
  }
  return entry;
}

class check_provider_tool final : public tool {
 public:
  check_provider_tool() : spec_(dominds_detail::dominds_spec_or_note("team_mgmt_check_provider")) {}
  const tool_spec& spec() const override { return spec_; }
  bool has_effects() const override { return false; }

  boost::asio::awaitable<tool_outcome> invoke(const json::object& args, const tool_context& ctx) override {
    auto req = read_check_request(args);
    if (!req) co_return provider_check_failed(req.err().message);
    auto llm = config::detail::load_dominds_llm(ctx.workspace / ".minds" / "llm.yaml");
    if (!llm) co_return provider_check_failed(llm.err().message);
    auto settled = settle_checked_provider(*req, *llm);
    if (!settled) co_return provider_check_failed(settled.err().message);
    const config::provider_entry& entry = **settled;
    const auto& provider = entry.config;
    const std::string key = check_env_value(provider.api_key_env);
    const bool http = is_http_kind(provider.kind);
    const std::string env_line = provider.api_key_env.empty() ? "apiKeyEnvVar: (none)"
                                                              : "apiKeyEnvVar: " + provider.api_key_env +
                                                                    (key.empty() ? " (NOT set)" : " (configured)");
    if (http && key.empty() && !provider.api_key_env.empty()) {
      co_return tool_outcome{false, "# Provider Check Failed\n- provider: `" + req->provider_key + "` (apiType: `" +
                                        entry.api_type + "`)\n- " + env_line +
                                        "\n- Provider env var is not configured. Configure it before changing team "
                                        "config to avoid bricking.\n"};
    }
    std::string out = provider_check_head_lines(*req, entry, env_line);
    if (!req->live) {
      co_return tool_outcome{true, out + "Tip: to perform a real connectivity test, set `live: true`.\n"};
    }
    out += "\n## Provider Connectivity (live)\n";
    if (!http) {
      bool ok = false;
      out += provider_local_check(entry, ctx, ok);
      co_return tool_outcome{ok, out};
    }
    const std::vector<std::string> models = provider_models_to_check(*req, provider);
    const auto live = co_await provider_live_check(provider, key, models, ctx);
    co_return tool_outcome{live.ok, out + live.lines};
  }

 private:
  tool_spec spec_;
};

}  // namespace

std::unique_ptr<tool> make_check_provider_tool() { return std::make_unique<check_provider_tool>(); }

}  // namespace parley::tools::team_mgmt_detail

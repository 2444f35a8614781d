#include "parley/config/team_rules.hpp"

#include <cctype>
#include <system_error>

#include "parley/core/text.hpp"

namespace parley::config::detail {
namespace {

constexpr std::string_view kOpenaiBaseUrl = "https://api.openai.com/v1";
constexpr std::string_view kOpenaiKeyEnv = "OPENAI_API_KEY";
// Like the OpenAI default this ends at the version segment, so both adapters append their
// endpoint (`/chat/completions`, `/messages`) the same way.
constexpr std::string_view kAnthropicBaseUrl = "https://api.anthropic.com/v1";
constexpr std::string_view kAnthropicKeyEnv = "ANTHROPIC_API_KEY";
// Codex CLI's endpoint; the variable names the folder of its auth.json, as Dominds' apiKeyEnvVar does.
constexpr std::string_view kCodexBaseUrl = "https://chatgpt.com/backend-api/codex";
constexpr std::string_view kCodexHomeEnv = "CODEX_HOME";

bool is_ascii_alpha(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }
bool is_ascii_alnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

}  // namespace

bool is_valid_id(std::string_view id) {
  if (id.empty() || !is_ascii_alpha(id[0])) return false;
  for (const char c : id) {
    if (!is_ascii_alnum(c) && c != '_' && c != '-') return false;
  }
  return true;
}

std::string invalid_id_problem(std::string_view what, std::string_view id) {
  return "invalid " + std::string(what) + " '" + std::string(id) + "' (expected a name matching " +
         std::string(kIdPattern) + ")";
}

std::string unknown_name_problem(std::string_view what, std::string_view word, const std::vector<std::string>& known) {
  std::string text = "unknown " + std::string(what) + " '" + std::string(word) + "'" + did_you_mean(word, known);
  if (known.empty()) return text + " (none are defined)";
  return text + " (expected one of: " + join_names(known) + ")";
}

void apply_provider_defaults(provider_config& provider) {
  if (provider.kind == provider_kind::openai || provider.kind == provider_kind::openai_responses) {
    if (provider.base_url.empty()) provider.base_url = kOpenaiBaseUrl;
    if (provider.api_key_env.empty()) provider.api_key_env = kOpenaiKeyEnv;
  } else if (provider.kind == provider_kind::anthropic) {
    if (provider.base_url.empty()) provider.base_url = kAnthropicBaseUrl;
    if (provider.api_key_env.empty()) provider.api_key_env = kAnthropicKeyEnv;
  } else if (provider.kind == provider_kind::codex) {
    if (provider.base_url.empty()) provider.base_url = kCodexBaseUrl;
    if (provider.api_key_env.empty()) provider.api_key_env = kCodexHomeEnv;
  }
}

std::vector<std::string> provider_ids(const std::vector<provider_config>& providers) {
  std::vector<std::string> ids;
  ids.reserve(providers.size());
  for (const auto& provider : providers) ids.push_back(provider.id);
  return ids;
}

result<void> read_choice(const map_reader& map, std::string_view key, const std::vector<std::string>& choices,
                         std::string& out) {
  std::string value;
  PARLEY_TRY(map.read_nonempty(key, value));
  if (value.empty()) return ok();
  if (std::find(choices.begin(), choices.end(), value) == choices.end()) {
    return map.fail_at_value(*map.find(key), unknown_name_problem(std::string(key), value, choices));
  }
  out = std::move(value);
  return ok();
}

result<void> read_shared_member_fields(const map_reader& map, member_config& member) {
  PARLEY_TRY(map.read_nonempty("name", member.name));
  PARLEY_TRY(map.read_text_items("gofor", member.gofor));
  PARLEY_TRY(map.read_text_items("nogo", member.nogo));
  PARLEY_TRY(map.read_nonempty("provider", member.provider));
  PARLEY_TRY(map.read_nonempty("model", member.model));
  PARLEY_TRY(map.read("model_params", member.model_params));
  PARLEY_TRY(map.read("tools", member.tools));
  if (const auto* item = map.find("tools")) {
    member.tools_at = map.file() + ":" + format_position(item->key_node.Mark()) + ": " + map.path_of("tools");
  }
  PARLEY_TRY(map.read("toolsets", member.toolsets));
  if (const auto* item = map.find("toolsets")) {
    member.toolsets_at = map.file() + ":" + format_position(item->key_node.Mark()) + ": " + map.path_of("toolsets");
  }
  if (map.has("dialog_tools")) {
    std::vector<std::string> offered;
    PARLEY_TRY(map.read("dialog_tools", offered));
    member.dialog_tools = std::move(offered);
  }
  PARLEY_TRY(map.read("streaming", member.streaming));
  PARLEY_TRY(map.read("hidden", member.hidden));
  PARLEY_TRY(map.read("self_reflection", member.self_reflection));
  PARLEY_TRY(map.read("vision", member.vision));
  PARLEY_TRY(map.read("audio", member.audio));
  PARLEY_TRY(read_choice(map, "tellask_syntax", member.tellask_syntax));
  for (const char* key : {"diligence_push_max", "diligence-push-max"}) {
    double budget = static_cast<double>(member.diligence_push_max);
    PARLEY_TRY(map.read_number(key, budget, 0, 1000, "an integer from 0 to 1000"));
    if (const auto* item = map.find(key);
        item != nullptr && budget != static_cast<double>(static_cast<std::int64_t>(budget))) {
      return map.fail_at_value(*item, "expected an integer from 0 to 1000");
    }
    member.diligence_push_max = static_cast<std::int64_t>(budget);
  }
  return ok();
}

result<void> check_provider_reference(const map_reader& holder, const member_config& member,
                                      const std::vector<provider_config>& providers, std::string_view note) {
  for (const auto& provider : providers) {
    if (provider.id == member.provider) return ok();
  }
  const map_reader::entry* item = holder.find("provider");
  if (item == nullptr) return holder.fail("member '" + member.id + "' names no provider");
  return holder.fail_at_value(
      *item, unknown_name_problem("provider", member.provider, provider_ids(providers)) + std::string(note));
}

std::filesystem::path resolve_against(const std::filesystem::path& base_dir, const std::filesystem::path& path) {
  return (path.is_absolute() ? path : base_dir / path).lexically_normal();
}

result<std::filesystem::path> read_existing_path(const map_reader& map, std::string_view key,
                                                 const std::filesystem::path& base_dir, bool folder) {
  if (!map.has(key)) return map.missing(key, folder ? "a folder path" : "a file path");
  std::string relative;
  PARLEY_TRY(map.read_nonempty(key, relative));
  const std::filesystem::path resolved = resolve_against(base_dir, relative);
  std::error_code ec;
  const auto status = std::filesystem::status(resolved, ec);
  const bool found = folder ? std::filesystem::is_directory(status) : std::filesystem::is_regular_file(status);
  if (!found) {
    const std::string problem = std::string(folder ? "folder" : "file") + " not found: " + resolved.string();
    return map.fail_at_value(*map.find(key), problem);
  }
  return resolved;
}

result<void> read_default_member(const map_reader& root, std::string_view key, team_config& team) {
  const map_reader::entry* item = root.find(key);
  if (item == nullptr) return ok();
  std::string id;
  PARLEY_TRY(root.read_nonempty(key, id));
  if (team.find_member(id) == nullptr) {
    return root.fail_at_value(*item, unknown_name_problem("member", id, team.member_ids()));
  }
  team.default_member = id;
  return ok();
}

}  // namespace parley::config::detail

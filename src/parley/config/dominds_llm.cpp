#include "parley/config/dominds_llm.hpp"

#include <string>
#include <system_error>
#include <utility>

#include "parley/config/team_rules.hpp"
#include "parley/config/yaml_reader.hpp"

namespace parley::config::detail {
namespace {

const std::vector<std::string> kTopKeys{"providers"};
// Every provider key Dominds knows; the ones Parley has no use for are accepted and ignored.
const std::vector<std::string> kProviderKeys{"name",
                                             "apiType",
                                             "apiQuirks",
                                             "baseUrl",
                                             "apiKeyEnvVar",
                                             "tool_result_max_chars",
                                             "llm_retry_aggressive_max_retries",
                                             "llm_retry_initial_delay_ms",
                                             "llm_retry_conservative_delay_ms",
                                             "llm_retry_backoff_multiplier",
                                             "llm_retry_max_delay_ms",
                                             "tech_spec_url",
                                             "api_mgmt_url",
                                             "model_param_options",
                                             "models"};

struct api_type_kind {
  std::string_view api_type;
  std::string_view kind;
};
// Codex speaks the OpenAI wire format; the "-compatible" types are gateways for the same protocols.
constexpr api_type_kind kApiTypes[] = {{"openai", "openai"},
                                       {"openai-compatible", "openai"},
                                       {"codex", "openai"},
                                       {"anthropic", "anthropic"},
                                       {"anthropic-compatible", "anthropic"}};

result<std::string> kind_of(const map_reader& map) {
  auto api_type = map.require_nonempty("apiType", "the provider's API type");
  if (!api_type) return std::move(api_type).err();
  std::vector<std::string> accepted;
  for (const auto& entry : kApiTypes) {
    if (entry.api_type == *api_type) return std::string(entry.kind);
    accepted.emplace_back(entry.api_type);
  }
  return map.fail_at_value(*map.find("apiType"), unknown_name_problem("apiType", *api_type, accepted));
}

result<provider_config> read_provider(const map_reader& map, std::string id) {
  PARLEY_TRY(map.check_keys(kProviderKeys));
  provider_config provider;
  provider.id = std::move(id);
  auto kind = kind_of(map);
  if (!kind) return std::move(kind).err();
  provider.kind = std::move(kind).value();
  PARLEY_TRY(map.read_nonempty("baseUrl", provider.base_url));
  PARLEY_TRY(map.read_nonempty("apiKeyEnvVar", provider.api_key_env));
  PARLEY_TRY(read_models(map, provider, model_keys::dominds));
  apply_provider_defaults(provider);
  return provider;
}

}  // namespace

result<dominds_llm> load_dominds_llm(const std::filesystem::path& file) {
  dominds_llm llm;
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) return llm;
  llm.found = true;
  auto document = load_yaml_file(file);
  if (!document) return std::move(document).err();
  auto root = map_reader::open(file.string(), *document, document->Mark(), {});
  if (!root) return std::move(root).err();
  PARLEY_TRY(root->check_keys(kTopKeys));
  auto providers = root->child("providers");
  if (!providers) return std::move(providers).err();
  if (!providers->has_value()) return root->missing("providers", "a mapping of provider id to provider");
  const map_reader& table = **providers;
  PARLEY_TRY(table.check_unique("provider id"));
  for (const auto& item : table.entries()) {
    auto map = table.child_of(item, table.path_of(item.key));
    if (!map) return std::move(map).err();
    auto provider = read_provider(*map, item.key);
    if (!provider) return std::move(provider).err();
    llm.providers.push_back(std::move(provider).value());
  }
  return llm;
}

}  // namespace parley::config::detail

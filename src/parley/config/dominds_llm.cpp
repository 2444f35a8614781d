#include "parley/config/dominds_llm.hpp"

#include <string>
#include <system_error>
#include <utility>

#include "parley/config/dominds_api_types.hpp"
#include "parley/config/provider_catalogue.hpp"
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

result<provider_entry> read_provider(const map_reader& table, const map_reader::entry& item) {
  auto map = table.child_of(item, table.path_of(item.key));
  if (!map) return std::move(map).err();
  PARLEY_TRY(map->check_keys(kProviderKeys));
  provider_entry entry;
  entry.config.id = item.key;
  entry.origin = map->file() + ":" + format_position(item.key_node.Mark());
  auto api_type = map->require_nonempty("apiType", "the provider's API type");
  if (!api_type) return std::move(api_type).err();
  entry.api_type = std::move(api_type).value();
  PARLEY_TRY(map->read_nonempty("name", entry.name));
  PARLEY_TRY(map->read_nonempty("baseUrl", entry.config.base_url));
  PARLEY_TRY(map->read_nonempty("apiKeyEnvVar", entry.config.api_key_env));
  PARLEY_TRY(read_models(*map, entry.config, model_keys::dominds));
  translate_api_type(entry);
  return entry;
}

// Dominds' `{...defaults, ...workspace}`: same id replaces in place, a new id goes last.
void merge(std::vector<provider_entry>& providers, provider_entry entry) {
  for (auto& existing : providers) {
    if (existing.config.id != entry.config.id) continue;
    existing = std::move(entry);
    return;
  }
  providers.push_back(std::move(entry));
}

}  // namespace

const provider_entry* dominds_llm::find(std::string_view id) const {
  for (const auto& entry : providers) {
    if (entry.config.id == id) return &entry;
  }
  return nullptr;
}

std::vector<std::string> dominds_llm::ids() const {
  std::vector<std::string> ids;
  ids.reserve(providers.size());
  for (const auto& entry : providers) ids.push_back(entry.config.id);
  return ids;
}

result<dominds_llm> load_dominds_llm(const std::filesystem::path& file) {
  dominds_llm llm;
  auto builtin = builtin_providers();
  if (!builtin) return std::move(builtin).err();
  llm.providers = std::move(builtin).value();
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
    auto entry = read_provider(table, item);
    if (!entry) return std::move(entry).err();
    merge(llm.providers, std::move(entry).value());
  }
  return llm;
}

}  // namespace parley::config::detail

#include "parley/config/provider_catalogue.hpp"

#include <exception>
#include <string>
#include <utility>

#include "parley/config/dominds_api_types.hpp"
#include "parley/config/yaml_reader.hpp"

namespace parley::config {

// Defined in the generated provider_catalogue_data.cpp (src/parley/CMakeLists.txt).
extern const std::string_view kProviderCatalogueYaml;

namespace {

using detail::map_reader;

constexpr std::string_view kFile = "provider_catalogue.yaml (built in)";
const std::vector<std::string> kCatalogueProviderKeys{"name", "api_type", "base_url", "api_key_env", "context_windows"};

result<provider_entry> read_entry(const map_reader& map, const std::string& id) {
  PARLEY_TRY(map.check_keys(kCatalogueProviderKeys));
  provider_entry entry;
  entry.config.id = id;
  entry.origin = "built-in";
  PARLEY_TRY(map.read_nonempty("name", entry.name));
  auto api_type = map.require_nonempty("api_type");
  if (!api_type) return std::move(api_type).err();
  entry.api_type = std::move(api_type).value();
  PARLEY_TRY(map.read_nonempty("base_url", entry.config.base_url));
  PARLEY_TRY(map.read_nonempty("api_key_env", entry.config.api_key_env));
  auto windows = map.child("context_windows");
  if (!windows) return std::move(windows).err();
  if (windows->has_value()) {
    for (const auto& item : (*windows)->entries()) {
      model_info model;
      model.id = item.key;
      PARLEY_TRY((*windows)->read_positive(item.key, model.context_window));
      entry.config.models.push_back(item.key);
      entry.config.model_details.push_back(std::move(model));
    }
  }
  detail::translate_api_type(entry);
  return entry;
}

result<std::vector<provider_entry>> parse(std::string_view text) {
  YAML::Node document;
  try {
    document = YAML::Load(std::string(text));
  } catch (const YAML::Exception& e) {
    return detail::yaml_error(kFile, e.mark, {}, e.msg);
  }
  auto root = map_reader::open(std::string(kFile), document, document.Mark(), {});
  if (!root) return std::move(root).err();
  PARLEY_TRY(root->check_keys({"providers"}));
  auto table = root->child("providers");
  if (!table) return std::move(table).err();
  std::vector<provider_entry> entries;
  if (!table->has_value()) return entries;
  PARLEY_TRY((*table)->check_unique("provider id"));
  for (const auto& item : (*table)->entries()) {
    auto map = (*table)->child_of(item, (*table)->path_of(item.key));
    if (!map) return std::move(map).err();
    auto entry = read_entry(*map, item.key);
    if (!entry) return std::move(entry).err();
    entries.push_back(std::move(entry).value());
  }
  return entries;
}

}  // namespace

std::string_view provider_catalogue_text() { return kProviderCatalogueYaml; }

result<std::vector<provider_entry>> builtin_providers() {
  try {
    return parse(kProviderCatalogueYaml);
  } catch (const std::exception& e) {
    return make_error(errc::internal, std::string(kFile) + ": " + e.what());
  }
}

}  // namespace parley::config

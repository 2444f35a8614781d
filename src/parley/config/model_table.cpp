// read_models: a provider's `models`, as a list of names or a mapping of name → properties.
#include <cstdio>
#include <utility>

#include "parley/config/team_rules.hpp"
#include "parley/config/yaml_value.hpp"
#include "parley/core/text.hpp"

namespace parley::config::detail {
namespace {

const std::vector<std::string> kModelKeys{"context_window", "caution", "critical", "price"};
const std::vector<std::string> kPriceKeys{"input", "output", "cached_input"};
constexpr double kMaxPrice = 1e6;

result<void> read_price(const map_reader& model_map, model_info& model) {
  auto price = model_map.child("price");
  if (!price) return std::move(price).err();
  if (!price->has_value()) return ok();
  const map_reader& map = **price;
  PARLEY_TRY(map.check_keys(kPriceKeys));
  if (!map.has("input")) return map.missing("input", "USD per million input tokens");
  if (!map.has("output")) return map.missing("output", "USD per million output tokens");
  constexpr std::string_view kExpected = "a price in USD per million tokens (a number >= 0)";
  PARLEY_TRY(map.read_number("input", model.input_usd_per_mtok, 0.0, kMaxPrice, kExpected));
  PARLEY_TRY(map.read_number("output", model.output_usd_per_mtok, 0.0, kMaxPrice, kExpected));
  model.cached_input_usd_per_mtok = model.input_usd_per_mtok;
  PARLEY_TRY(map.read_number("cached_input", model.cached_input_usd_per_mtok, 0.0, kMaxPrice, kExpected));
  model.priced = true;
  return ok();
}

result<model_info> read_parley_model(const map_reader& map, std::string id) {
  PARLEY_TRY(map.check_keys(kModelKeys));
  model_info model;
  model.id = std::move(id);
  PARLEY_TRY(map.read_positive("context_window", model.context_window));
  constexpr std::string_view kRatio = "a fraction of the context window between 0 and 1";
  PARLEY_TRY(map.read_number("caution", model.caution_ratio, 0.0, 1.0, kRatio));
  PARLEY_TRY(map.read_number("critical", model.critical_ratio, 0.0, 1.0, kRatio));
  if (model.caution_ratio > model.critical_ratio) {
    const auto* at = map.has("caution") ? map.find("caution") : map.find("critical");
    return map.fail_at_value(*at, "caution (" + format_number(model.caution_ratio) + ") is above critical (" +
                                      format_number(model.critical_ratio) + "); expected caution <= critical");
  }
  PARLEY_TRY(read_price(map, model));
  return model;
}

result<model_info> read_dominds_model(const map_reader& map, std::string id) {
  model_info model;
  model.id = std::move(id);
  PARLEY_TRY(map.read_positive("context_length", model.context_window));
  return model;
}

}  // namespace

result<void> read_models(const map_reader& map, provider_config& provider, model_keys keys) {
  const map_reader::entry* item = map.find("models");
  if (item == nullptr) return ok();
  if (item->value.IsSequence()) return map.read("models", provider.models);
  auto table = map.child_of(*item, map.path_of("models"));
  if (!table) return type_error(map, *item, "a mapping of model name to model properties, or a list of model names");
  PARLEY_TRY(table->check_unique("model"));
  for (const auto& entry : table->entries()) {
    provider.models.push_back(entry.key);
    if (entry.value.IsNull()) continue;  // `name:` with nothing after it: a name only
    // Dominds model entries carry keys of their own; only a mapping can hold context_length.
    if (keys == model_keys::dominds && !entry.value.IsMap()) continue;
    auto model_map = table->child_of(entry, table->path_of(entry.key));
    if (!model_map) return std::move(model_map).err();
    auto model = keys == model_keys::parley ? read_parley_model(*model_map, entry.key)
                                            : read_dominds_model(*model_map, entry.key);
    if (!model) return std::move(model).err();
    provider.model_details.push_back(std::move(model).value());
  }
  return ok();
}

}  // namespace parley::config::detail

// Rules shared by both team loaders (Parley's team.yaml and Dominds' .minds/): member id syntax,
// provider kinds and their defaults, the member fields both formats spell the same way, file
// references, and the checks that tie members to providers.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "parley/config/team.hpp"
#include "parley/config/yaml_reader.hpp"
#include "parley/core/result.hpp"
#include "parley/core/vocabulary.hpp"

namespace parley::config::detail {

inline constexpr std::string_view kIdPattern = "[a-zA-Z][a-zA-Z0-9_-]*";

// True for ids matching kIdPattern.
bool is_valid_id(std::string_view id);
// "invalid member id '9x' (expected a name matching [a-zA-Z][a-zA-Z0-9_-]*)"
std::string invalid_id_problem(std::string_view what, std::string_view id);
// "unknown provider 'x' (did you mean 'y'?) (expected one of: a or b)"
std::string unknown_name_problem(std::string_view what, std::string_view word, const std::vector<std::string>& known);

// Fills base_url and api_key_env left empty with the usual values for the provider's kind.
void apply_provider_defaults(provider_config& provider);
std::vector<std::string> provider_ids(const std::vector<provider_config>& providers);

// `models` of a provider: a list of names, or a mapping of name → properties. Parley's format
// knows `context_window`, `caution`, `critical` and `price: {input, output, cached_input}` (USD per
// million tokens) and refuses other keys; a Dominds llm.yaml keeps its own keys, of which
// `context_length` is read as the context window.
enum class model_keys { parley, dominds };
result<void> read_models(const map_reader& map, provider_config& provider, model_keys keys);

// name, gofor, nogo, provider, model, model_params, tools, toolsets, streaming, hidden, ...
// An optional string key whose value must be one of `choices` (an unknown one gets a hint).
result<void> read_choice(const map_reader& map, std::string_view key, const std::vector<std::string>& choices,
                         std::string& out);
// The same for a vocabulary enum: its names are the choices.
template <vocabulary_enum E>
result<void> read_choice(const map_reader& map, std::string_view key, E& out) {
  std::string name;
  PARLEY_TRY(read_choice(map, key, all_names<E>(), name));
  if (!name.empty()) out = *from_name<E>(name);
  return ok();
}
result<void> read_shared_member_fields(const map_reader& map, member_config& member);
// Fails unless member.provider names one of `providers`; `holder` is the mapping that set it.
result<void> check_provider_reference(const map_reader& holder, const member_config& member,
                                      const std::vector<provider_config>& providers, std::string_view note = {});

// `key` (a path relative to `base_dir`) must name an existing file, or folder when `folder`.
result<std::filesystem::path> read_existing_path(const map_reader& map, std::string_view key,
                                                 const std::filesystem::path& base_dir, bool folder = false);
// `key` at the top level, if given, must name a member; team.default_member is left empty if not.
result<void> read_default_member(const map_reader& root, std::string_view key, team_config& team);

// Absolute, normalised form of `path` taken relative to `base_dir`.
std::filesystem::path resolve_against(const std::filesystem::path& base_dir, const std::filesystem::path& path);

}  // namespace parley::config::detail

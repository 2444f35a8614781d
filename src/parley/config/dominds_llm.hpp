// Dominds' provider table: Parley's built-in catalogue (provider_catalogue.hpp) with
// `.minds/llm.yaml` (`providers: {id: {apiType, baseUrl, apiKeyEnvVar, models}}`) over it, as
// Dominds merges its defaults.yaml with the workspace's file: a provider of the same id is
// replaced whole, in the catalogue's place; new ids follow in the file's order.
#pragma once

#include <filesystem>
#include <vector>

#include "parley/config/team.hpp"
#include "parley/core/result.hpp"

namespace parley::config::detail {

struct dominds_llm {
  bool found = false;  // .minds/llm.yaml exists
  std::vector<provider_entry> providers;

  const provider_entry* find(std::string_view id) const;
  std::vector<std::string> ids() const;
};

// Errors name llm.yaml, the line and the key: a file that is not a mapping, a provider that is
// not one, a missing or non-string apiType, malformed models. A provider whose apiType Parley does
// not speak is kept with `unsupported` set, so the team can use the rest of the file.
result<dominds_llm> load_dominds_llm(const std::filesystem::path& file);

}  // namespace parley::config::detail

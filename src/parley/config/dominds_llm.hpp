// Dominds' `.minds/llm.yaml`: the provider table (`providers: {id: {apiType, baseUrl, apiKeyEnvVar,
// models}}`) translated to Parley provider_configs.
#pragma once

#include <filesystem>
#include <vector>

#include "parley/config/team.hpp"
#include "parley/core/result.hpp"

namespace parley::config::detail {

struct dominds_llm {
  bool found = false;  // the file exists; without it no provider is defined
  std::vector<provider_config> providers;
};

result<dominds_llm> load_dominds_llm(const std::filesystem::path& file);

}  // namespace parley::config::detail

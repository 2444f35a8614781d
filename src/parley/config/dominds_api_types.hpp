// Dominds' `apiType` values translated to Parley's provider kinds: which wire protocol Parley
// speaks to a provider, at which base URL. Shared by the built-in catalogue and `.minds/llm.yaml`
// so a provider means the same thing wherever it is defined.
#pragma once

#include <string>
#include <vector>

#include "parley/config/team.hpp"

namespace parley::config::detail {

// The apiType values Parley can talk to, in the order error messages list them.
const std::vector<std::string>& supported_api_types();

// Sets entry.config.kind, base_url and api_key_env defaults from entry.api_type and the base URL
// as Dominds writes it (already in entry.config.base_url, maybe empty). An apiType Parley does not
// speak leaves kind empty and says why in entry.unsupported.
void translate_api_type(provider_entry& entry);

}  // namespace parley::config::detail

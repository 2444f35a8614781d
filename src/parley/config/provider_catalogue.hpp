// Parley's built-in provider catalogue (data/provider_catalogue.yaml, compiled in): the providers
// a Dominds workspace may name without defining them in `.minds/llm.yaml`, as Dominds has them
// built in. Compiled in rather than installed beside the binary so a Parley binary always has the
// catalogue of its own version, with no install path to find and no file to go missing.
#pragma once

#include <string_view>
#include <vector>

#include "parley/config/team.hpp"
#include "parley/core/result.hpp"

namespace parley::config {

// The catalogue's text, as compiled in.
std::string_view provider_catalogue_text();

// The catalogue parsed and translated (apiType → kind, base URL), in the file's order; origins
// are "built-in". Parsed on every call: the result is small and loading a team is rare.
result<std::vector<provider_entry>> builtin_providers();

}  // namespace parley::config

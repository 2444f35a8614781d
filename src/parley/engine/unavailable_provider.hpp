// The provider of a Dominds member whose provider Parley cannot use (config::provider_config::
// unavailable): the team loads and its other members run, and a drive of this member fails at
// its first model call with the problem that was said at start, naming provider and why.
#pragma once

#include <memory>
#include <string>

#include "parley/llm/provider.hpp"

namespace parley::engine {

std::shared_ptr<llm::provider> make_unavailable_provider(std::string provider_id, std::string problem);

}  // namespace parley::engine

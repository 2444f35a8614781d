// Reading a `shell:` mapping (the team's default, or a member's, which replaces it key by key)
// into access::shell_policy. docs/tools.md describes the keys.
#pragma once

#include "parley/access/shell_policy.hpp"
#include "parley/config/yaml_reader.hpp"

namespace parley::config::detail {

// Reads `shell` of `parent` into `policy`, leaving absent keys as they are.
result<void> read_shell(const map_reader& parent, access::shell_policy& policy);

}  // namespace parley::config::detail

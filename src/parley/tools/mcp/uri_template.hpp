// The part of RFC 6570 URI templates that Dominds expands for MCP resource templates
// (dist/mcp/resources.js): `{var}`, `{+var}`, `{#var}`, `{.var}`, `{/var}`, `{;var}`, `{?var}`
// and `{&var}`, each with one or more comma-separated variables; a `*` or `:N` after a name is
// read and ignored. Every variable must be given a non-empty value.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "parley/core/result.hpp"

namespace parley::tools::mcp {

// The variables a template names, sorted, each once; errc::invalid_argument for an empty `{}`.
result<std::vector<std::string>> template_variables(std::string_view uri_template);

// The URI; errc::invalid_argument naming a variable without a value.
result<std::string> expand_uri_template(std::string_view uri_template,
                                        const std::map<std::string, std::string>& values);

}  // namespace parley::tools::mcp

// Typed view of YAML scalars: yaml-cpp hands out untyped text, so the YAML 1.2 core schema
// (null, bool, int, float, str) is resolved here, once, for every reader of team files.
#pragma once

#include <yaml-cpp/yaml.h>

#include <boost/json/value.hpp>

#include <cstdint>
#include <string>

#include "parley/core/result.hpp"

namespace parley::config::detail {

enum class scalar_kind { null, boolean, integer, floating, string };

struct typed_scalar {
  scalar_kind kind = scalar_kind::null;
  bool boolean = false;
  std::int64_t integer = 0;
  double floating = 0.0;
  std::string text;  // the scalar as written, for every kind
};

// Quoted scalars and `!!str` are strings; plain scalars are resolved by the core schema
// (`true`/`false`, `42`, `0x2a`, `0o17`, `2.5`, `.inf`, `~`/`null`); anything else is a string.
typed_scalar resolve_scalar(const YAML::Node& node);

// How a node is named in messages: 'text' for scalars, "a mapping", "a list", "null".
std::string describe_node(const YAML::Node& node);

// Converts a mapping/list/scalar tree to JSON with typed scalars (ints stay ints, floats doubles).
// Fails on non-scalar or duplicate mapping keys; `path` names `node` in messages.
result<boost::json::value> yaml_to_json(const std::string& file, const YAML::Node& node, const std::string& path);

}  // namespace parley::config::detail

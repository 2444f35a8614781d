// An MCP tool's inputSchema made into one that OpenAI's and Anthropic's function-calling APIs
// accept (without their strict modes, which Parley does not use), and that Parley then checks the
// model's arguments against (schema_check.hpp must still accept it, or the tool is left out).
//
// What the APIs refuse, and what is done about it (each documented by the providers or reported
// against MCP clients):
//   - the top level must be `type: "object"` with `properties` (OpenAI: "object schema missing
//     properties"; Anthropic: input_schema type object): a missing type becomes "object", a type
//     list with "object" becomes "object", missing properties become {}; any other top-level type
//     is refused;
//   - no `allOf`, `anyOf`, `oneOf`, `not`, `enum` or `const` at the top level (Anthropic: "does not
//     support oneOf, allOf, or anyOf at the top level"): allOf's branches are merged into the top
//     (their properties, their required lists); anyOf's and oneOf's alternatives are merged into
//     one object whose properties are all of theirs and whose required names are those every
//     alternative requires; a top-level not, enum or const is dropped. This loosens the check:
//     the server still checks its own arguments;
//   - every array must say its `items` (OpenAI: "array schema missing items"): a missing items
//     becomes {}; a tuple (`prefixItems`, or `items` as a list) becomes `items` matching any of
//     its members;
//   - property names must match ^[a-zA-Z0-9_.-]{1,64}$ (Anthropic): a schema with another name is
//     refused (Parley would have to rename the server's arguments);
//   - `format` only where both accept it (date-time, date, time, duration, email, hostname, ipv4,
//     ipv6, uuid); other formats, `$schema`, `$id` and `$comment` are dropped (annotations);
//   - a boolean subschema becomes {} (true) or {"not": {}} (false), except as the value of
//     additionalProperties, where both take a boolean.
// Objects gain `properties: {}` at every level (it constrains nothing). Schemas nested deeper than
// kMaxSchemaDepth, or larger than kMaxSchemaBytes serialized, are refused.
#pragma once

#include <boost/json/object.hpp>

#include <cstddef>

#include "parley/core/result.hpp"

namespace parley::tools::mcp {

constexpr std::size_t kMaxSchemaDepth = 32;
constexpr std::size_t kMaxSchemaBytes = std::size_t{64} * 1024;

// errc::invalid_argument naming the path in the schema ("inputSchema.properties.x: ...").
result<boost::json::object> normalise_tool_schema(const boost::json::object& input_schema);

}  // namespace parley::tools::mcp

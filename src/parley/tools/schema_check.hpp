// A tool's JSON Schema checked once, when the tool is registered, against what Parley's validator
// (json_schema.hpp) enforces: a schema with a validation keyword the validator does not know
// (`if`, `patternProperties`, a remote `$ref` …) is refused, naming the keyword and where it is,
// instead of being silently left unchecked when the model calls the tool. Annotation keywords
// (description, title, default, examples, format, $schema, $id, $comment, readOnly, writeOnly,
// deprecated, contentMediaType, contentEncoding) are allowed: they constrain nothing. The values of
// known keywords are checked too (a pattern that does not compile, `required` that is not a list
// of names, a `$ref` that points nowhere).
//
// Why not a full validator (valijson): tool schemas in practice — Parley's own, and those MCP
// servers publish from zod or pydantic — use this subset; refusing the rest at registration keeps
// every argument check exact, with the error messages a model can act on.
#pragma once

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <string_view>

#include "parley/core/result.hpp"

namespace parley::tools {

// errc::invalid_argument naming `where` and the path inside the schema: "parameters.properties.x:
// keyword 'if' is not supported …".
result<void> check_tool_schema(const boost::json::object& schema, std::string_view where = "parameters");

// The subschema a local reference names: "#/$defs/name", "#/definitions/name" or any other JSON
// Pointer into `root` ("~1" for "/", "~0" for "~"), or null for "#" (the root itself); not_found
// when it names nothing, invalid_argument for a reference that is not local.
result<const boost::json::value*> resolve_local_ref(const boost::json::object& root, std::string_view reference);

}  // namespace parley::tools

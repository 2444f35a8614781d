// Checks a tool call's arguments against the tool's JSON Schema before the tool runs, so a
// tool's invoke only ever sees well-formed input and the model gets a precise error otherwise.
// The keywords it checks (schema_check.hpp lists them, and refuses a schema with any other
// validation keyword when a tool is registered, so nothing is silently left unchecked): type
// (incl. type arrays), properties, required, additionalProperties (bool or schema),
// min/maxProperties, enum, const, items, min/maxItems, uniqueItems, min/maxLength (in
// characters), pattern (ECMAScript, unanchored), minimum/maximum/exclusiveMinimum/exclusiveMaximum,
// multipleOf, allOf, anyOf, oneOf, not, local $ref ("#", "#/$defs/…", "#/definitions/…"), and
// boolean schemas. Annotations (description, default, format, title, examples …) describe and
// constrain nothing here.
#pragma once

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <string_view>

#include "parley/core/result.hpp"

namespace parley::tools {

// errc::invalid_argument with `arguments.path.to[2].field: problem`; errc::internal when the
// schema itself is broken (an invalid pattern).
result<void> validate_arguments(const boost::json::value& instance, const boost::json::object& schema);

// Parses the arguments text a model produced (empty or blank text = {}), requires a JSON object
// and validates it against `schema`.
result<boost::json::object> parse_tool_arguments(std::string_view text, const boost::json::object& schema);

}  // namespace parley::tools

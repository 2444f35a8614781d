// Finds what a JSON tree holds that JSON text cannot carry: numbers that are not finite (a parser
// reads `1e999` as infinity, and infinity is written as `Infinity`, which no parser reads back)
// and strings or keys that are not UTF-8. Used where bodies enter and, as defence in depth, by the
// stores before anything is appended.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "parley/core/json.hpp"

namespace parley {

struct json_problem {
  std::string field;    // the path from the root: "metadata.x", "parts[2].text"; `root` when it is the root
  std::string problem;  // "is not a finite number (1e999 and the like are refused)"
  std::string message() const { return field + ": " + problem; }
};

// The first problem found in document order, or nullopt when the tree writes and reads back as is.
// `root` names the tree itself in the field paths ("" for bare paths such as "metadata.x").
std::optional<json_problem> find_unwritable_json(const json::value& value, std::string_view root = {});
std::optional<json_problem> find_unwritable_json(const json::object& value, std::string_view root = {});

// Parses `text` and refuses numbers out of double's range as well as invalid JSON:
// "invalid JSON: …" or "metadata.x: is not a finite number …", both errc::invalid_argument.
result<json::value> parse_json_strict(std::string_view text);

// Reads JSON text that an older Parley stored without the checks above: bytes that are not UTF-8
// become U+FFFD and the tokens `Infinity`, `-Infinity` and `NaN` (outside strings) become null, as
// do numbers of a repaired text that read as infinity or NaN (`1e999`), so that what it returns
// after a repair is a tree find_unwritable_json accepts. `repairs` says what was changed ("" when
// the text read as it is). Fails when even that does not make the text JSON.
result<json::value> parse_json_repairing(std::string_view text, std::string& repairs);

}  // namespace parley

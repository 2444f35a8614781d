#pragma once
// A check every YAML reader of Parley's needs (team files, Dominds files, scripted model scripts):
// yaml-cpp 0.7 decodes the escapes \N and \_ of a double-quoted scalar to the single bytes 0x85
// and 0xA0 instead of their UTF-8, and what a YAML file says ends up in the log as JSON text,
// which must be UTF-8. Every other way to a scalar that is not UTF-8 is refused before parsing.
#include <yaml-cpp/mark.h>

#include <optional>
#include <string>
#include <string_view>

namespace parley::config {

// Where a scalar of `text` (which parses) is not UTF-8, if anywhere; the first document only, as
// YAML::Load reads it.
std::optional<YAML::Mark> scalar_not_utf8(const std::string& text);

// The problem to report at that mark.
inline constexpr std::string_view kYamlEscapeProblem =
    "the escape \\N or \\_ (U+0085, U+00A0), which this YAML reader cannot decode; write the character itself";

}  // namespace parley::config

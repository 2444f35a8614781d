// Index files as text, and the comparison of a file with what the log implies. Written files
// quote every string, so YAML never reads a title like "true" or "1.0" as another type; read
// files are compared as text trees (every scalar as its text), so a hand edit is reported by its
// field without caring how YAML typed it.
#pragma once

#include <boost/json/value.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "parley/core/result.hpp"

namespace parley::rtws {

// Block-style YAML for a JSON document; strings double-quoted, ending with a newline.
std::string to_yaml_text(const boost::json::value& doc);
// Pretty enough JSON for reminders.json: one value per line inside the top-level array.
std::string to_json_file_text(const boost::json::value& doc);

// Reads a whole file. The error names the file.
result<std::string> read_whole_file(const std::filesystem::path& file);
// Parses YAML into a text tree: mappings become objects, sequences arrays and every scalar a
// string (null and empty become ""). Errors name FILE:LINE:COLUMN.
result<boost::json::value> load_yaml_tree(const std::filesystem::path& file);
// Parses JSON; errors name FILE:LINE:COLUMN.
result<boost::json::value> load_json_file(const std::filesystem::path& file);
// Parses one JSON text; on failure `column` is the 1-based position of the problem.
result<boost::json::value> parse_json_with_position(std::string_view text, std::size_t& column);
// The same document with every scalar as its text, to compare with load_yaml_tree's result.
boost::json::value as_text_tree(const boost::json::value& doc);

// Every difference between the expected (implied by the log) and the actual (read) text trees,
// each "field.path: problem". Empty when they agree. Mapping order does not matter.
std::vector<std::string> tree_differences(const boost::json::value& expected, const boost::json::value& actual);

}  // namespace parley::rtws

// A text file as lines, for the tools that read and edit by line number or anchor. Each line keeps
// its own terminator ('\n' or "\r\n"), so joining the lines gives back the exact bytes; only the
// last line may lack one.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace parley::tools {

std::vector<std::string> split_lines(std::string_view text);
std::string join_lines(const std::vector<std::string>& lines);
// `text` as lines to put between existing ones: a missing final newline is added, unless the new
// lines end the file and the file had none (`keep_unterminated`). Empty text: no lines.
std::vector<std::string> lines_to_insert(std::string_view text, bool keep_unterminated);
// The line without its terminator.
std::string_view line_body(std::string_view line);
// A line of a file or a patch as error messages quote it: in single quotes, cut at a character
// boundary past 120 bytes.
std::string quoted_excerpt(std::string_view text);

}  // namespace parley::tools

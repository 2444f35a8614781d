// The bodies of the workspace tools, synchronous so they can later move to a blocking-work pool
// without change. Private to tools/; arguments arrive already validated against the specs.
#pragma once

#include <boost/json/object.hpp>

#include <cstdint>
#include <string>

#include "parley/tools/tool.hpp"
#include "parley/tools/workspace_path.hpp"

namespace parley::tools::detail {

constexpr std::uintmax_t kDefaultReadBytes = std::uintmax_t{256} * 1024;
constexpr std::uintmax_t kMaxReadBytes = std::uintmax_t{4} * 1024 * 1024;
constexpr std::uintmax_t kMaxEditBytes = std::uintmax_t{16} * 1024 * 1024;
constexpr std::size_t kMaxListedEntries = 1000;
// Entries a recursive move or remove looks at (to check each against the rules) before refusing.
constexpr std::size_t kMaxTreeEntries = 10000;

tool_outcome list_dir(const boost::json::object& args, const tool_context& ctx);
tool_outcome read_file(const boost::json::object& args, const tool_context& ctx);
tool_outcome write_file(const boost::json::object& args, const tool_context& ctx);
tool_outcome edit_file(const boost::json::object& args, const tool_context& ctx);
tool_outcome replace_lines(const boost::json::object& args, const tool_context& ctx);
tool_outcome insert_at_anchor(const boost::json::object& args, const tool_context& ctx);
tool_outcome apply_patch(const boost::json::object& args, const tool_context& ctx);
tool_outcome move_path(const boost::json::object& args, const tool_context& ctx);
tool_outcome remove_path(const boost::json::object& args, const tool_context& ctx);
tool_outcome make_dir(const boost::json::object& args, const tool_context& ctx);

// read_file's line-range form: lines start_line..end_line (1-based, inclusive; 0: to the end).
tool_outcome read_lines(const tool_context& ctx, const std::string& shown, const workspace_path& where,
                        std::int64_t start_line, std::int64_t end_line, std::uintmax_t max_bytes);

// A text file an edit may change, read whole; the error is the message for the model.
struct editable_file {
  workspace_path where;
  std::string text;
};
result<editable_file> open_for_edit(const tool_context& ctx, const std::string& shown);
// Replaces the file atomically and says "<what> (a -> b bytes)".
tool_outcome save_edit(const editable_file& file, const std::string& shown, const std::string& edited,
                       std::string_view what);

inline tool_outcome failed(std::string message) { return tool_outcome{false, std::move(message)}; }
// Built with reserve and append: "'" + std::string(path) trips g++ 12's -Wstringop-overflow (a false positive).
inline std::string quote_path(std::string_view path) {
  std::string quoted;
  quoted.reserve(path.size() + 2);
  quoted.append(1, '\'').append(path).append(1, '\'');
  return quoted;
}

}  // namespace parley::tools::detail

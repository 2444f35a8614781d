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

tool_outcome list_dir(const boost::json::object& args, const tool_context& ctx);
tool_outcome read_file(const boost::json::object& args, const tool_context& ctx);
tool_outcome write_file(const boost::json::object& args, const tool_context& ctx);
tool_outcome edit_file(const boost::json::object& args, const tool_context& ctx);

inline tool_outcome failed(std::string message) { return tool_outcome{false, std::move(message)}; }
inline std::string quote_path(std::string_view path) { return "'" + std::string(path) + "'"; }

}  // namespace parley::tools::detail

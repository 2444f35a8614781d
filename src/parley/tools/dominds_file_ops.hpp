// The bodies of Dominds' text-file tools (read_file, create_new_file, overwrite_entire_file,
// file_append, file_insert_after/before, file_range_edit), shared by ws_read/ws_mod, which work on
// the workspace under the member's access rules, and team_mgmt, which works on `.minds/` only and
// checks that the team still loads before it writes. Answers in Dominds' shapes. Private to tools/.
#pragma once

#include <boost/json/object.hpp>

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "parley/tools/tool.hpp"
#include "parley/tools/workspace_access.hpp"

namespace parley::tools::dominds_detail {

struct file_scope {
  std::string mode_prefix;  // "" or "team_mgmt_": the `mode:` of the answers is the tool's name
  // Where a path the model gave leads, refused when the scope does not allow `mode` there.
  std::function<result<workspace_path>(const tool_context&, std::string_view path, file_access mode,
                                       access::path_kind kind)>
      resolve;
  // Run before a write with the file's new bytes: an error refuses the write (the file is untouched).
  std::function<result<void>(const tool_context&, const workspace_path&, std::string_view new_text)> check_write;
};

// The scope of ws_read and ws_mod: tools/workspace_access.hpp resolve_for, nothing checked before a write.
const file_scope& workspace_scope();

tool_outcome read_text_file(const file_scope& scope, const boost::json::object& args, const tool_context& ctx);
tool_outcome create_new_file(const file_scope& scope, const boost::json::object& args, const tool_context& ctx);
tool_outcome overwrite_entire_file(const file_scope& scope, const boost::json::object& args, const tool_context& ctx);
tool_outcome append_to_file(const file_scope& scope, const boost::json::object& args, const tool_context& ctx);
tool_outcome insert_at_anchor_line(const file_scope& scope, const boost::json::object& args, const tool_context& ctx,
                                   bool after);
tool_outcome edit_line_range(const file_scope& scope, const boost::json::object& args, const tool_context& ctx);
// file_block_replace: the lines between (or with) a start and an end anchor line replaced
// (dominds_block_replace.cpp).
tool_outcome replace_anchored_block(const file_scope& scope, const boost::json::object& args, const tool_context& ctx);

// What the bodies above share with the other edit tools (dominds_occurrence_replace.cpp ...).
struct text_file {
  workspace_path where;
  std::string text;
};
// The `mode:` of an answer: the tool's name with the scope's prefix.
std::string mode_of(const file_scope& scope, std::string_view tool);
// A failure as Dominds names it: not_found FILE_NOT_FOUND, a refused path ACCESS_DENIED, not a
// text file NOT_A_FILE, else FAILED.
tool_outcome error_answer(const file_scope& scope, std::string_view tool, std::string_view path, const error& failure);
tool_outcome invalid_args(const file_scope& scope, std::string_view tool, std::string_view message);
// A text file to read (for_write false) or to change (read and write both allowed).
result<text_file> open_text(const file_scope& scope, const tool_context& ctx, std::string_view shown, bool for_write);
// The scope's check, then an atomic write (the folders made as needed).
result<void> save_text(const file_scope& scope, const tool_context& ctx, const workspace_path& where,
                       std::string_view text);
// The answer of a write: path, new_total_lines, new_total_bytes and `done` as the summary.
tool_outcome write_answer(const file_scope& scope, std::string_view tool, std::string_view path, std::string_view text,
                          std::string_view done);

}  // namespace parley::tools::dominds_detail

// Dominds' scratch pads (ws_mod's pad_write, pad_load_file_range, pad_edit, pad_insert,
// pad_delete_range, pad_copy, pad_move, pad_delete; dominds@1.29.0), offered as dialog tools to the
// members of a `.minds/` team that have them (through ws_mod or by name), in root dialogs and
// subdialogs. A pad is one of its dialog's reminders (scratch_pad.hpp): it is staged with
// reminder_added / reminder_updated / reminder_deleted, so it is in every prompt of the dialog,
// survives a restart and a replay, and stays across clear_mind, with no store of its own.
// update_reminder and delete_reminder refuse a pad, as Dominds does, naming the pad tool to use.
//
// Arguments, answers (a fenced YAML block: status, mode, pad_id, summary; error with a code) and
// the display block are Dominds'. Where Parley differs: a pad's text is whole lines (appending
// starts a new line); intent, completion and source_note are folded onto one line; a pad holds at
// most kMaxPadBytes; a pad that is missing is PAD_NOT_FOUND in every tool. pad_load_file_range
// reads under the member's read rules and protected folders, as read_file does.
#pragma once

#include <boost/json/object.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/engine/dialog_host.hpp"
#include "parley/engine/tellask_router.hpp"
#include "parley/llm/provider.hpp"
#include "parley/tools/tool.hpp"

namespace parley::engine {

namespace dominds_pad_tool {
inline constexpr std::string_view pad_write = "pad_write";
inline constexpr std::string_view pad_load_file_range = "pad_load_file_range";
inline constexpr std::string_view pad_edit = "pad_edit";
inline constexpr std::string_view pad_insert = "pad_insert";
inline constexpr std::string_view pad_delete_range = "pad_delete_range";
inline constexpr std::string_view pad_copy = "pad_copy";
inline constexpr std::string_view pad_move = "pad_move";
inline constexpr std::string_view pad_delete = "pad_delete";
}  // namespace dominds_pad_tool

// The eight, under Dominds' names, descriptions and schemas, for the dialog tool table.
std::vector<llm::tool_spec> dominds_pad_specs();
bool is_pad_tool(std::string_view name);
// Whether a reminder is a pad (its text is a pad's display block).
bool is_pad_reminder(std::string_view reminder);
// Dominds' refusal of update_reminder / delete_reminder on a pad.
std::string pad_reminder_refusal(std::string_view reminder_tool, std::string_view reminder);

// Runs one with arguments its schema accepted; `reads` is the member's context for
// pad_load_file_range (workspace, access rules, protected folders); a pad it makes has its notes in
// `language` ("en" or "zh", the team's work language, as Dominds writes them). Changes are staged
// on `dialogs`; a refused call stages nothing.
result<tool_reply> run_dominds_pad_tool(dialog_host& dialogs, const tools::tool_context& reads, dialog_runtime& dialog,
                                        std::string_view name, const boost::json::object& args,
                                        std::string_view language);

// The file tools that write text take it from a pad where Dominds' do (create_new_file,
// overwrite_entire_file, file_range_edit, file_append, file_insert_after/before,
// file_block_replace, prepare_occurrence_replace, team_mgmt_create_new_file and
// team_mgmt_overwrite_entire_file): `pad_id` (with `pad_range`, '~' by default) instead of
// `content` (dominds_pad_source.cpp).
struct pad_sourced_call {
  llm::tool_call call;      // the call with `content` the pad's text, without pad_id / pad_range
  std::string source_yaml;  // the answer's lines that say so (source: pad, pad_id, the selection's size)
};
struct pad_source_decision {
  std::optional<pad_sourced_call> sourced;     // nullopt: the call names no pad, run it as it is
  std::optional<tools::tool_outcome> refused;  // the answer to a call whose pad arguments are wrong
};
pad_source_decision resolve_pad_source(const dialog_runtime& dialog, const llm::tool_call& call);
// The tool's answer with `source_yaml` after its `path:` line.
void add_pad_source(tools::tool_outcome& outcome, std::string_view source_yaml);

}  // namespace parley::engine

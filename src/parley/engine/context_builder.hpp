// Assembles what the model sees for one round: the system prompt (identity, persona, its team and
// where the dialog sits, the sideline rules of a subdialog, the Taskdoc, memories and reminders —
// rebuilt every round so a change by another dialog shows at once) and the messages of the dialog's current course, in
// log order.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "parley/config/team.hpp"
#include "parley/engine/dialog_runtime.hpp"
#include "parley/engine/taskdoc.hpp"
#include "parley/llm/provider.hpp"

namespace parley::engine {

// Reads an upload's bytes (the server's upload store); unset where there are none.
using attachment_reader = std::function<result<std::string>(std::string_view upload_id)>;

struct prompt_setting {
  std::string_view language = "en";
  // The member's team: its system prompt names its teammates, the human and where the dialog sits
  // (team_roster_prompt.hpp). Null: left out (tests that look at other parts of the prompt).
  const config::team_config* team = nullptr;
  // Borrowed for the one call: a prompt is built per model call, and copying a path is a few
  // allocations.
  const std::filesystem::path* workspace = nullptr;    // null: no Taskdoc is read
  const memory_folders* memories = nullptr;            // the member's; null: no memories
  std::string_view task_doc_path;                      // the root's; empty when the task has none
  std::int64_t critical_context_rounds = 2;            // team limit: rounds a critical context may go on
  const attachment_reader* read_attachment = nullptr;  // media for members that take them
};

llm::model_request build_model_request(const dialog_runtime& dialog, const config::member_config& member,
                                       llm::tool_list tools, std::int64_t round, const prompt_setting& setting);

// Converts one projected message, with its parsed tool calls, back into the provider-neutral form.
llm::chat_message to_chat_message(const message_row& row, const std::vector<llm::tool_call>& calls);

}  // namespace parley::engine

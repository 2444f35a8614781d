// Dominds' priming (startup) scripts, `.minds/priming/individual/<member>/<slug>.md` and
// `.minds/priming/team_shared/<slug>.md` (dominds@1.29.0 dist/priming.js, docs/agent-priming.md):
// dialog history a user picks when creating a dialog, replayed into its first course. Parley does
// not replay them (its dialogs start from the member's system prompt); it checks their format as
// Dominds' team_mgmt_validate_priming_scripts does, so a team edited in Parley stays valid for
// Dominds, and a workspace that holds scripts gets a Problem saying they are not run.
//
// Checked, as Dominds checks them, first error per file with FILE:LINE: the path's scope
// (individual/<member>/<slug> or team_shared/<slug>); the top-level frontmatter (YAML; its
// `reminders` list: content, id, ownerName, meta, echoback, scope, createdAt, renderMode,
// priority); every `### record <type>` heading (a known record type), its fenced block closed, a
// `func_call_record` block a JSON object of that type, a Markdown block's frontmatter without
// `type` and without a body for the types that take none; every record's `genseq`, and the fields
// Dominds requires of the common types (human_text_record msgId and grammar, func_call_record id,
// name and rawArgumentsText, func_result_record id and name). The other types' own fields
// (tellask, side-dialog, image, web-search records) are not checked further.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "parley/config/problem.hpp"

namespace parley::config {

struct priming_issue {
  std::string path;     // relative to the workspace: ".minds/priming/team_shared/a.md"
  std::string message;  // "PATH:LINE: what is wrong" (PATH alone when no line applies)
};

struct priming_report {
  std::size_t checked = 0;  // the .md files found under .minds/priming/
  std::vector<priming_issue> issues;
};

priming_report validate_priming_scripts(const std::filesystem::path& workspace);

// The problem a workspace with priming scripts gets (Parley does not run them; how many are
// invalid), or nothing when `.minds/priming/` holds no script.
std::vector<problem> priming_problems(const std::filesystem::path& workspace);

}  // namespace parley::config

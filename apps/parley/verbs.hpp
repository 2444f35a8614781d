// The CLI verbs. Each takes the arguments after the verb and returns the exit status.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "parley/model/events/enums.hpp"

namespace parley::cli {

int run_verb_run(const std::vector<std::string>& args);
int run_verb_say(const std::vector<std::string>& args);
int run_verb_dialogs(const std::vector<std::string>& args);
int run_verb_show(const std::vector<std::string>& args);
int run_verb_answer(const std::vector<std::string>& args);
int run_verb_resume(const std::vector<std::string>& args);
int run_verb_dead(const std::vector<std::string>& args);
// complete, archive, reopen: seed 001's root lifecycle.
int run_verb_root_status(const std::vector<std::string>& args, std::string_view verb, events::dialog_status to);
// `parley fork ROOT [--at SEQ | --at-generation N]`: a new tree sharing ROOT's history (docs/fork.md).
int run_verb_fork(const std::vector<std::string>& args);
// `parley replay ROOT ...`: a fork of ROOT's tree driven again with a change (docs/fork.md "Replay").
int run_verb_replay(const std::vector<std::string>& args);
// `parley title DIALOG "text"`: a human's title for the dialog (verb_title.cpp).
int run_verb_title(const std::vector<std::string>& args);
int run_verb_questions(const std::vector<std::string>& args);
int run_verb_registry(const std::vector<std::string>& args);
int run_verb_providers(const std::vector<std::string>& args);
int run_verb_check(const std::vector<std::string>& args);
// `parley check --workspace DIR | --team FILE`: the team's problems (verb_check_team.cpp).
int run_verb_check_team(const std::vector<std::string>& args);
int run_verb_repair(const std::vector<std::string>& args);
int run_verb_serve(const std::vector<std::string>& args);
// `parley mcp`: the team as an MCP server on stdin/stdout (docs/mcp.md).
int run_verb_mcp(const std::vector<std::string>& args);
int run_verb_tot(const std::vector<std::string>& args);
int run_verb_backup(const std::vector<std::string>& args);
int run_verb_migrate(const std::vector<std::string>& args);
int run_verb_vacuum(const std::vector<std::string>& args);
// `parley completions bash|zsh`: a completion script made from the verb and flag tables.
int run_verb_completions(const std::vector<std::string>& args);
// `parley diff A B`: two root trees aligned (verb_diff.cpp); `parley eval SUITE`: a suite run (verb_eval.cpp).
int run_verb_diff(const std::vector<std::string>& args);
int run_verb_eval(const std::vector<std::string>& args);

}  // namespace parley::cli

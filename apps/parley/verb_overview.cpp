// `parley` with no verb where a data directory is (issue 43): what waits for the user — open
// questions, dialogs owed a drive or stopped by a failure, the open roots — each with the
// command to type next (command_hints.hpp). Read-only: it works beside a running `parley serve`.
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "cli_context.hpp"
#include "cli_messages.hpp"
#include "cli_text.hpp"
#include "command_hints.hpp"
#include "parley/core/terminal_text.hpp"
#include "verb_overview.hpp"
#include "verb_usage.hpp"

namespace parley::cli {
namespace {

namespace fs = std::filesystem;

// What the overview accepts: where the dialogs are, and nothing else.
const arg_spec& overview_spec() {
  static const arg_spec spec{{"data", "store", "team", "workspace"}, {}};
  return spec;
}

std::string overview_dialog_line(const dialog_row& row) {
  std::string line = say_cli(row.parent_id.empty() ? msg::overview_in_dialog : msg::overview_in_subdialog,
                             {{"member", row.member_id}, {"id", row.id}});
  if (!row.title.empty()) line += ": " + terminal_safe(row.title);
  return line;
}

struct overview_rows {
  std::vector<dialog_row> asking;  // dialogs with open questions
  std::vector<dialog_row> owed;    // a generation open or a drive owed
  std::vector<dialog_row> failed;  // the last drive failed
  std::size_t open_roots = 0;
};

result<overview_rows> overview_rows_of(store& log) {
  overview_rows rows;
  auto asking = log.list_dialogs(dialog_filter{.status = events::dialog_status::running, .with_open_questions = true});
  if (!asking) return std::move(asking).err();
  rows.asking = std::move(*asking);
  auto owed = log.list_dialogs(dialog_filter{.status = events::dialog_status::running, .needing_recovery = true});
  if (!owed) return std::move(owed).err();
  // Those that wait for a human or a subdialog, or failed, are said elsewhere: not work to resume.
  for (auto& row : *owed) {
    if (row.open_questions == 0 && row.pending_subdialogs == 0 && row.last_error.empty()) {
      rows.owed.push_back(std::move(row));
    }
  }
  auto failed = log.list_dialogs(dialog_filter{.status = events::dialog_status::running, .failed = true});
  if (!failed) return std::move(failed).err();
  rows.failed = std::move(*failed);
  auto roots = log.list_dialogs(dialog_filter{.status = events::dialog_status::running, .roots_only = true});
  if (!roots) return std::move(roots).err();
  rows.open_roots = roots->size();
  return rows;
}

void print_overview(const overview_rows& rows) {
  std::int64_t questions = 0;
  for (const auto& row : rows.asking) questions += row.open_questions;
  auto line = [](msg id, std::initializer_list<msg_arg> args) { std::printf("%s\n", say_cli(id, args).c_str()); };
  if (questions > 0) {
    const std::string count = std::to_string(questions);
    line(questions == 1 ? msg::overview_questions_one : msg::overview_questions_many, {{"n", count}});
    for (const auto& row : rows.asking) std::printf("%s\n", overview_dialog_line(row).c_str());
    line(msg::overview_answer_hint, {{"command", hint_command("questions")}});
  }
  if (!rows.owed.empty()) {
    const std::string count = std::to_string(rows.owed.size());
    line(rows.owed.size() == 1 ? msg::overview_owed_one : msg::overview_owed_many, {{"n", count}});
    for (const auto& row : rows.owed) std::printf("%s\n", overview_dialog_line(row).c_str());
    line(msg::overview_drive_again, {{"command", hint_command("resume", {}, {{"all", ""}})}});
  }
  for (const auto& row : rows.failed) {
    const std::string error = terminal_safe(row.last_error);
    line(msg::overview_failed, {{"id", row.id}, {"error", error}, {"command", hint_command("resume", {row.id})}});
  }
  const std::string open = std::to_string(rows.open_roots);
  const std::string list_command = hint_command("dialogs", {}, {{"status", "running"}});
  line(rows.open_roots == 1 ? msg::overview_open_one : msg::overview_open_many,
       {{"n", open}, {"command", list_command}});
  if (questions == 0 && rows.owed.empty() && rows.failed.empty()) {
    line(msg::overview_nothing_waits, {{"command", hint_command("run", {"your message"})}});
  }
}

}  // namespace

bool overview_applies(const std::vector<std::string>& args) {
  auto parsed = parse_args(args, overview_spec());
  if (!parsed || parsed->help || !parsed->positionals.empty()) return false;
  if (store_url()) return true;
  std::error_code ec;
  return fs::exists(data_dir_of(*parsed) / "parley.db", ec);
}

int run_overview(const std::vector<std::string>& args) {
  auto parsed = parse_args(args, overview_spec());
  if (!parsed) return report(parsed.err());
  auto log = open_existing_store(data_dir_of(*parsed));
  if (!log) return report(log.err());
  auto rows = overview_rows_of(**log);
  if (!rows) return report(rows.err());
  set_cli_language(team_language_of(*parsed, data_dir_of(*parsed)));
  print_overview(*rows);
  return kExitOk;
}

}  // namespace parley::cli

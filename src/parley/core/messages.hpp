// The runtime's messages for people (issue 43 item 7): every line the CLI prints or the server
// shows that is fixed text, as a typed id with its English and Chinese wording. A message's
// variable parts are `{name}` placeholders filled by `say`; what they carry (ids, field names,
// values, commands) is never translated. The team's `language` (en | zh) picks the wording;
// anything other than "zh" reads English. messages_test checks that every id has both wordings
// with the same placeholders.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <utility>

namespace parley {

enum class msg : std::size_t {
  questions_wait_one,
  questions_wait_many,
  dialog_named,
  dialog_stopped_try_again,
  member_talks_to,
  unknown_member,
  did_you_mean_member,
  resumed_none,
  resumed_some,
  status_now,
  titled,
  next_page,
  overview_questions_one,
  overview_questions_many,
  overview_answer_hint,
  overview_owed_one,
  overview_owed_many,
  overview_drive_again,
  overview_failed,
  overview_open_one,
  overview_open_many,
  overview_nothing_waits,
  stream_connection_lost,
  stream_interrupted,
  stream_drive_failed,
  stream_thinking,
  stream_tool_error,
  show_last_drive_failed,
  show_forked_from,
  tot_run_started,
  tot_run_stats,
  overview_in_dialog,
  overview_in_subdialog,
  questions_none,
  question_asked,
  question_answer_hint,
  show_header,
  show_course,
  transcript_thinking,
  transcript_interrupted,
  transcript_tool_result,
  transcript_tool_error,
  err_invalid_argument,
  err_not_found,
  err_conflict,
  err_limit_exceeded,
  err_config_error,
  err_io_error,
  err_corrupt,
  err_provider_error,
  err_cancelled,
  err_internal,
  err_storage_full,
  err_unavailable,
  error_with_kind,
  line_problem,
  line_warning,
  line_note,
  unknown_verb,
  did_you_mean_word,
  see_help,
  try_command,
  unknown_option_try,
  argument_not_utf8,
  usage_head,
  usage_any,
  help_head,
  help_common,
  dialogs_headings,
  dialogs_team_usage,
  offline_scripted,
  flows_resumed_one,
  flows_resumed_many,
  not_resumed,
  traces_go_to,
  traces_with_content,
  not_recovered_see,
  not_recovered,
  recovered_one,
  recovered_many,
  cli_cannot_use_server,
  no_web_ui,
  web_ui_from,
  mcp_at,
  serving,
  shutting_down,
  store_failed_at_shutdown,
  stalled_one,
  stalled_many,
  mcp_serving_stdio,
  check_summary,
  check_ok,
  count_dialog_one,
  count_dialog_many,
  count_event_one,
  count_event_many,
  count_problem_one,
  count_problem_many,
  check_team_summary,
  repair_none_postgres,
  repair_event,
  repair_nothing,
  repair_done,
  vacuum_keeps_all,
  vacuum_would_archive,
  vacuum_archived,
  vacuum_summary_dry,
  vacuum_summary,
  backup_done,
  migrate_postgres_done,
  migrate_done,
  fork_done,
  fork_either_at,
  unknown_shell,
  providers_name,
  providers_not_usable,
  providers_as,
  providers_at,
  providers_login,
  providers_key_set,
  providers_key_unset,
  providers_models,
  providers_used_by,
  eval_case,
  eval_attempt_error,
  eval_root,
  eval_check,
  eval_reasons,
  eval_compared,
  eval_no_diff,
  eval_run_summary,
  model_unknown_member,
  model_unknown_provider,
  model_unusable,
  model_scripted,
  model_scripted_set_key,
  model_or,
  model_mock,
  model_real,
  usage_tokens,
  usage_cached,
  usage_reasoning,
  usage_call_one,
  usage_call_many,
  usage_cost,
  usage_unpriced,
  registry_none,
  registry_entry,
  registry_working,
  show_replay_of,
  team_not_reloaded,
  team_reloaded,
  imported_dominds,
  imported_already,
  quarantined_dialog,
  exported,
  imported,
  replay_started,
  replay_in_background,
  remote_sent,
  through_server,
  count_,  // not a message: the number of them
};

struct message_text {
  msg id;
  std::string_view en;
  std::string_view zh;
};

// The whole catalog, in the order of `msg`.
std::span<const message_text> message_catalog();

// One placeholder's value: {"n", "3"}.
using msg_arg = std::pair<std::string_view, std::string_view>;

// The wording of `id` in `language` ("zh"; anything else is English) with each `{name}` replaced by
// its value; a placeholder without a value stays as written.
std::string say(msg id, std::string_view language, std::initializer_list<msg_arg> args = {});

// The placeholders of a wording, in order of appearance ("{n} of {total}" → n, total).
std::string placeholders_of(std::string_view text);

}  // namespace parley

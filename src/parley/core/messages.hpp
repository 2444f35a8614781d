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

// The closed vocabularies of the log, as enums. Their wire strings live only in these tables, read
// by the codec (events/wire.hpp): the engine compares enum values, never strings. A value that is
// not in a table does not decode — a new value is a new wire name, added here first.
#pragma once

#include <array>
#include <string_view>
#include <utility>

#include "parley/core/media_kind.hpp"
#include "parley/model/events/wire.hpp"

namespace parley::events {

enum class dialog_status { running, completed, archived };
enum class dialog_kind { root, sub };
// Who wrote a user message: a human, the runtime, a tellasker (a Tellask to a subdialog), or
// another dialog's reply that no call waited for. `answer` (a human's answer as a message) was in
// the first event model's vocabulary (6341021); no Parley wrote it, and it stays readable.
enum class message_origin { user, answer, system, tellask, reply };
// A projected message's role (model/records.hpp): what the model's chat format calls it. Not in the
// log (each event type makes one role); its wire strings are the transcript API's and the store's.
enum class message_role { user, assistant, tool };
// The dialog tools that create or call another dialog (seed 001 Tellask A/B/C, FBR, tellaskBack)
// and selfReflect (seed 002's self-reflection).
// `tot`: a subdialog a Tree of Thoughts run makes for one agent call (engine::create_program_subdialog).
enum class call_kind { tellask, tellask_sessionless, fresh_boots_reasoning, tellask_back, self_reflect, tot };
enum class reply_kind { final_saying, tellask_back, answer, superseded, dead };
enum class health_level { healthy, caution, critical };
// The same enum as a model's media (core/media_kind.hpp), with the same names.
using attachment_kind = media_kind;
enum class taskdoc_section { goals, constraints, progress };
// Who retitled a dialog (title_changed): a human, or the model's summary after its first answer.
enum class title_source { user, model };

template <>
struct enum_wire<dialog_status> {
  static constexpr std::array<std::pair<dialog_status, std::string_view>, 3> values{
      {{dialog_status::running, "running"},
       {dialog_status::completed, "completed"},
       {dialog_status::archived, "archived"}}};
};

template <>
struct enum_wire<title_source> {
  static constexpr std::array<std::pair<title_source, std::string_view>, 2> values{
      {{title_source::user, "user"}, {title_source::model, "model"}}};
};

template <>
struct enum_wire<dialog_kind> {
  static constexpr std::array<std::pair<dialog_kind, std::string_view>, 2> values{
      {{dialog_kind::root, "root"}, {dialog_kind::sub, "sub"}}};
};

template <>
struct enum_wire<message_origin> {
  static constexpr std::array<std::pair<message_origin, std::string_view>, 5> values{
      {{message_origin::user, "user"},
       {message_origin::answer, "answer"},
       {message_origin::system, "system"},
       {message_origin::tellask, "tellask"},
       {message_origin::reply, "reply"}}};
};

template <>
struct enum_wire<message_role> {
  static constexpr std::array<std::pair<message_role, std::string_view>, 3> values{
      {{message_role::user, "user"}, {message_role::assistant, "assistant"}, {message_role::tool, "tool"}}};
};

template <>
struct enum_wire<call_kind> {
  static constexpr std::array<std::pair<call_kind, std::string_view>, 6> values{
      {{call_kind::tellask, "tellask"},
       {call_kind::tellask_sessionless, "tellaskSessionless"},
       {call_kind::fresh_boots_reasoning, "freshBootsReasoning"},
       {call_kind::tellask_back, "tellaskBack"},
       {call_kind::self_reflect, "selfReflect"},
       {call_kind::tot, "tot"}}};
};

template <>
struct enum_wire<reply_kind> {
  static constexpr std::array<std::pair<reply_kind, std::string_view>, 5> values{
      {{reply_kind::final_saying, "final"},
       {reply_kind::tellask_back, "tellaskBack"},
       {reply_kind::answer, "answer"},
       {reply_kind::superseded, "superseded"},
       {reply_kind::dead, "dead"}}};
};

template <>
struct enum_wire<health_level> {
  static constexpr std::array<std::pair<health_level, std::string_view>, 3> values{
      {{health_level::healthy, "healthy"}, {health_level::caution, "caution"}, {health_level::critical, "critical"}}};
};

template <>
struct enum_wire<attachment_kind> {
  static constexpr auto values = vocabulary<media_kind>::values;
};

template <>
struct enum_wire<taskdoc_section> {
  static constexpr std::array<std::pair<taskdoc_section, std::string_view>, 3> values{
      {{taskdoc_section::goals, "goals"},
       {taskdoc_section::constraints, "constraints"},
       {taskdoc_section::progress, "progress"}}};
};

}  // namespace parley::events

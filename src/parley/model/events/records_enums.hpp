// The closed vocabularies of seed 002's conversation records (docs/records.md), as enums. Their
// strings live only in these tables: the records write API reads a request's word through them,
// the stores write and read their columns through them (a stored string that maps to none is an
// error naming the column), the REST API shows them through them. Code compares enum values.
//
// The order of each table is the order the REST API lists the values in its errors ("expected one
// of human, ai, system").
//
// The records events (records_events.hpp) keep these fields as strings: engine/reflection.cpp
// writes them, and their schema in docs/events.json is a plain string. The reducer reads them
// through these tables (conversation_reducer.cpp).
#pragma once

#include <array>
#include <string_view>
#include <utility>

#include "parley/model/events/wire.hpp"

namespace parley::events {

// Who sends a message, opens or answers a turn, opens a session or closes a turn.
enum class record_role { human, ai, system };
// Seed 002's seven dialogue types (docs/records.md "Dialogue types").
enum class dialogue_type { human_ai, ai_ai, ai_self, lio_group, human_human, human_human_group, human_group_ai };
enum class session_type { dialogue, self_reflection };
// Why a self-reflection session started.
enum class trigger_source { schedule, task_reflection, human_guidance, api };
// A turn's type follows from who opened it; a turn closed without an answer is unresponded_turn.
enum class turn_type { human_query, ai_prompt, system_prompt, unresponded_turn };
enum class turn_status { pending, responded, unresponded };
enum class content_type {
  text,
  markdown,
  image,
  audio,
  prompt,
  quote_reply,
  tool_input,
  tool_output,
  system_context,
  command
};
// Seed 002's SystemUtteranceLog: why the system spoke, and to whom.
enum class utterance_trigger { tool_result, context_hint, proactive_prompt };
enum class utterance_target { human, ai, all };

// The records write API's own words (request vocabularies, never stored as such):
// a session type as Parley or the seed names it (`interaction`, `reflection`),
enum class requested_session_type { dialogue, self_reflection, interaction, reflection };
// who started a session in the seed's words (`triggered_by`),
enum class triggered_by { system, human, ai, schedule };
// how a turn is closed: Parley's statuses, then the seed's outcomes (both unresponded),
enum class turn_close { responded, unresponded, expired, ignored };
// why a session was closed (the seed's `reason`).
enum class session_close_reason { timeout, manual, task_completed };

template <>
struct enum_wire<record_role> {
  static constexpr std::array<std::pair<record_role, std::string_view>, 3> values{
      {{record_role::human, "human"}, {record_role::ai, "ai"}, {record_role::system, "system"}}};
};

template <>
struct enum_wire<dialogue_type> {
  static constexpr std::array<std::pair<dialogue_type, std::string_view>, 7> values{
      {{dialogue_type::human_ai, "human_ai"},
       {dialogue_type::ai_ai, "ai_ai"},
       {dialogue_type::ai_self, "ai_self"},
       {dialogue_type::lio_group, "lio_group"},
       {dialogue_type::human_human, "human_human"},
       {dialogue_type::human_human_group, "human_human_group"},
       {dialogue_type::human_group_ai, "human_group_ai"}}};
};

template <>
struct enum_wire<session_type> {
  static constexpr std::array<std::pair<session_type, std::string_view>, 2> values{
      {{session_type::dialogue, "dialogue"}, {session_type::self_reflection, "self_reflection"}}};
};

template <>
struct enum_wire<trigger_source> {
  static constexpr std::array<std::pair<trigger_source, std::string_view>, 4> values{
      {{trigger_source::schedule, "schedule"},
       {trigger_source::task_reflection, "task_reflection"},
       {trigger_source::human_guidance, "human_guidance"},
       {trigger_source::api, "api"}}};
};

template <>
struct enum_wire<turn_type> {
  static constexpr std::array<std::pair<turn_type, std::string_view>, 4> values{
      {{turn_type::human_query, "human_query"},
       {turn_type::ai_prompt, "ai_prompt"},
       {turn_type::system_prompt, "system_prompt"},
       {turn_type::unresponded_turn, "unresponded_turn"}}};
};

template <>
struct enum_wire<turn_status> {
  static constexpr std::array<std::pair<turn_status, std::string_view>, 3> values{
      {{turn_status::pending, "pending"},
       {turn_status::responded, "responded"},
       {turn_status::unresponded, "unresponded"}}};
};

template <>
struct enum_wire<content_type> {
  static constexpr std::array<std::pair<content_type, std::string_view>, 10> values{
      {{content_type::text, "text"},
       {content_type::markdown, "markdown"},
       {content_type::image, "image"},
       {content_type::audio, "audio"},
       {content_type::prompt, "prompt"},
       {content_type::quote_reply, "quote_reply"},
       {content_type::tool_input, "tool_input"},
       {content_type::tool_output, "tool_output"},
       {content_type::system_context, "system_context"},
       {content_type::command, "command"}}};
};

template <>
struct enum_wire<utterance_trigger> {
  static constexpr std::array<std::pair<utterance_trigger, std::string_view>, 3> values{
      {{utterance_trigger::tool_result, "tool_result"},
       {utterance_trigger::context_hint, "context_hint"},
       {utterance_trigger::proactive_prompt, "proactive_prompt"}}};
};

template <>
struct enum_wire<utterance_target> {
  static constexpr std::array<std::pair<utterance_target, std::string_view>, 3> values{
      {{utterance_target::human, "human"}, {utterance_target::ai, "ai"}, {utterance_target::all, "all"}}};
};

template <>
struct enum_wire<requested_session_type> {
  static constexpr std::array<std::pair<requested_session_type, std::string_view>, 4> values{
      {{requested_session_type::dialogue, "dialogue"},
       {requested_session_type::self_reflection, "self_reflection"},
       {requested_session_type::interaction, "interaction"},
       {requested_session_type::reflection, "reflection"}}};
};

template <>
struct enum_wire<triggered_by> {
  static constexpr std::array<std::pair<triggered_by, std::string_view>, 4> values{
      {{triggered_by::system, "system"},
       {triggered_by::human, "human"},
       {triggered_by::ai, "ai"},
       {triggered_by::schedule, "schedule"}}};
};

template <>
struct enum_wire<turn_close> {
  static constexpr std::array<std::pair<turn_close, std::string_view>, 4> values{
      {{turn_close::responded, "responded"},
       {turn_close::unresponded, "unresponded"},
       {turn_close::expired, "expired"},
       {turn_close::ignored, "ignored"}}};
};

template <>
struct enum_wire<session_close_reason> {
  static constexpr std::array<std::pair<session_close_reason, std::string_view>, 3> values{
      {{session_close_reason::timeout, "timeout"},
       {session_close_reason::manual, "manual"},
       {session_close_reason::task_completed, "task_completed"}}};
};

// ---- predicates the records ask more than once ----------------------------------------------

// Humans among themselves, no AI answering (① and ②).
constexpr bool is_humans_only(dialogue_type t) noexcept {
  return t == dialogue_type::human_human || t == dialogue_type::human_human_group;
}
// A dialogue of several humans (② and ⑦).
constexpr bool is_human_group(dialogue_type t) noexcept {
  return t == dialogue_type::human_human_group || t == dialogue_type::human_group_ai;
}
// Content a medium stands for (seed 002's image and audio, with their content_meta).
constexpr bool is_media(content_type t) noexcept { return t == content_type::image || t == content_type::audio; }

// A turn opened by `initiator` is of this type.
constexpr turn_type turn_type_opened_by(record_role initiator) noexcept {
  switch (initiator) {
    case record_role::human:
      return turn_type::human_query;
    case record_role::ai:
      return turn_type::ai_prompt;
    case record_role::system:
      break;
  }
  return turn_type::system_prompt;
}

}  // namespace parley::events

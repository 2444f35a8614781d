// Events of the hierarchy (seed 001): Tellask calls and their replies, tellaskBack answers, the
// questions for the human (Q4H), and the dialog's reminders (its working memory).
// Field names in `fields` are wire names (seed 001 camelCase): once shipped they never change.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "parley/model/events/enums.hpp"

namespace parley::events {

// On the caller: a Tellask call that waits for another dialog (for tellaskBack: the tellasker).
struct tellask_called {
  static constexpr std::string_view kType = "tellask_called";
  std::int64_t course = 0;
  std::int64_t genseq = 0;
  std::string call_id;
  call_kind name = call_kind::tellask;
  std::string subdialog_id;
  std::string target_agent_id;
  std::optional<std::string> session_slug;  // a registered (Type B) Tellask's
  std::string tellask_content;

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("course", s.course);
    v.required("genseq", s.genseq);
    v.required("callId", s.call_id);
    v.required("name", s.name);
    v.required("subdialogId", s.subdialog_id);
    v.required("targetAgentId", s.target_agent_id);
    v.optional("sessionSlug", s.session_slug);
    v.required("tellaskContent", s.tellask_content);
  }
  bool operator==(const tellask_called&) const = default;
};

// On a tellasker: another dialog's reply. With a call id it is that call's tool result; without
// (no call of this course waits for it), a user message with origin "reply".
struct reply_received {
  static constexpr std::string_view kType = "reply_received";
  std::int64_t course = 0;
  std::string call_id;
  call_kind name = call_kind::tellask;  // the call it answers
  bool awaited = false;                 // it ended a wait
  std::string from_dialog_id;
  std::string from_member_id;
  reply_kind kind = reply_kind::final_saying;
  bool ok = true;
  std::string content;
  std::optional<std::string> back_call_id;  // a tellaskBack's own call, answered by answer_delivered

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("course", s.course);
    v.required("callId", s.call_id);
    v.required("name", s.name);
    // Defaulted since schema version 17 (docs/events.md): nearly every reply ends a wait and is
    // not a failure. The struct's own initial value of `awaited` stays false for code that builds one.
    v.defaulted("awaited", s.awaited, true);
    v.required("fromDialogId", s.from_dialog_id);
    v.required("fromMemberId", s.from_member_id);
    v.required("kind", s.kind);
    v.defaulted("ok", s.ok, true);
    v.required("content", s.content);
    v.optional("backCallId", s.back_call_id);
  }
  bool operator==(const reply_received&) const = default;
};

// On a dialog that answered a tellaskBack: the answer went out and it waits for that subdialog
// again.
struct answer_delivered {
  static constexpr std::string_view kType = "answer_delivered";
  std::int64_t course = 0;
  std::string to_dialog_id;
  std::string call_id;

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("course", s.course);
    v.required("toDialogId", s.to_dialog_id);
    v.required("callId", s.call_id);
  }
  bool operator==(const answer_delivered&) const = default;
};

// Q4H: the dialog asks the human and cannot be driven until answered.
struct question_asked {
  static constexpr std::string_view kType = "question_asked";
  std::int64_t course = 0;
  std::int64_t genseq = 0;
  std::string call_id;
  std::string question_id;
  std::string mention_list;
  std::string tellask_content;
  std::string asked_at;  // ISO-8601

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("course", s.course);
    v.required("genseq", s.genseq);
    v.required("callId", s.call_id);
    v.required("questionId", s.question_id);
    v.required("mentionList", s.mention_list);
    v.required("tellaskContent", s.tellask_content);
    v.required("askedAt", s.asked_at);
  }
  bool operator==(const question_asked&) const = default;
};

// The human's answer, the askHuman call's result.
struct question_answered {
  static constexpr std::string_view kType = "question_answered";
  std::int64_t course = 0;
  std::string question_id;
  std::string call_id;
  std::string content;
  std::string msg_id;
  // The user who answered ("" when none was named, and in logs written before it was recorded): a
  // retry of the answer must come from the same user (engine/input_retry.hpp).
  std::string from;

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("course", s.course);
    v.required("questionId", s.question_id);
    v.required("callId", s.call_id);
    v.required("content", s.content);
    v.required("msgId", s.msg_id);
    v.defaulted("from", s.from, "");
  }
  bool operator==(const question_answered&) const = default;
};

// Reminders: dialog-scoped working memory, kept across courses. `index` counts from 0.
struct reminder_added {
  static constexpr std::string_view kType = "reminder_added";
  std::string content;

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("content", s.content);
  }
  bool operator==(const reminder_added&) const = default;
};

struct reminder_updated {
  static constexpr std::string_view kType = "reminder_updated";
  std::int64_t index = 0;
  std::string content;

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("index", s.index);
    v.required("content", s.content);
  }
  bool operator==(const reminder_updated&) const = default;
};

struct reminder_deleted {
  static constexpr std::string_view kType = "reminder_deleted";
  std::int64_t index = 0;

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("index", s.index);
  }
  bool operator==(const reminder_deleted&) const = default;
};

}  // namespace parley::events

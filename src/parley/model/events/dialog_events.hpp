// Events of a dialog's life: created, its status, courses, failures and resumes, its Taskdoc, its
// death, and the stub `parley repair` writes in place of an unreadable event.
// Field names in `fields` are wire names (seed 001 camelCase): once shipped they never change.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parley/model/events/enums.hpp"

namespace parley::events {

// A self-reflection dialog (seed 002): what started it and what it is for.
struct reflection_spec {
  std::string trigger;  // "schedule" | "task_reflection" | "human_guidance" | "api"
  std::string goal;
  std::optional<std::string> mood_state;  // a selfReflect call's moodState; absent for a schedule's

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("trigger", s.trigger);
    v.required("goal", s.goal);
    v.optional("moodState", s.mood_state);
  }
  bool operator==(const reflection_spec&) const = default;
};

struct dialog_created {
  static constexpr std::string_view kType = "dialog_created";
  std::string member_id;  // a group's default responder; "" when nobody answers unasked
  dialog_kind kind = dialog_kind::root;
  std::string parent_id;  // a subdialog's caller
  std::string task_doc_path;
  std::string title;
  std::int64_t depth = 0;
  std::optional<call_kind> call;     // how a subdialog was made; a reflection root's is selfReflect
  std::string session_slug;          // a registered (Type B) subdialog's
  std::vector<std::string> humans;   // a root's people, its creator first
  std::vector<std::string> members;  // a group's AIs
  std::optional<reflection_spec> reflection;
  // The records' response window and session gap, when not the defaults (docs/records.md).
  std::optional<std::int64_t> turn_window_ms;
  std::optional<std::int64_t> session_gap_ms;

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("memberId", s.member_id);
    v.required("kind", s.kind);
    v.defaulted("parentId", s.parent_id, "");
    v.defaulted("taskDocPath", s.task_doc_path, "");
    v.defaulted("title", s.title, "");
    // Always written; a log of the first store schema (v1) may lack it, and a root's depth is 0.
    v.since("depth", s.depth, 0, "the first store schema (v1)");
    v.optional("callKind", s.call);
    v.defaulted("sessionSlug", s.session_slug, "");
    v.defaulted("humans", s.humans, {});
    v.defaulted("members", s.members, {});
    v.optional("reflection", s.reflection);
    v.optional("turnWindowMs", s.turn_window_ms);
    v.optional("sessionGapMs", s.session_gap_ms);
  }
  bool operator==(const dialog_created&) const = default;
};

// One dialog of a forked tree: its id in the origin tree and in the fork (docs/fork.md).
struct forked_id {
  std::string origin;
  std::string fork;

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("origin", s.origin);
    v.required("fork", s.fork);
  }
  bool operator==(const forked_id&) const = default;
};

// What the projections hold of a dialog at a fork's cut, so that a store makes the fork's row from
// this one event without reading the origin's history (the reducer stays a fold of one event).
struct fork_row {
  dialog_status status = dialog_status::running;
  std::int64_t course = 1;
  std::string caller_id;  // already the fork's id
  std::int64_t last_genseq = 0;
  std::int64_t message_count = 0;
  std::int64_t open_questions = 0;
  std::int64_t pending_subdialogs = 0;
  std::int64_t input_tokens = 0;
  std::int64_t output_tokens = 0;
  bool needs_drive = false;
  bool dead = false;
  std::string last_error;
  std::int64_t created_at_ms = 0;

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("status", s.status);
    v.required("course", s.course);
    v.defaulted("callerId", s.caller_id, "");
    v.defaulted("lastGenseq", s.last_genseq, 0);
    v.defaulted("messageCount", s.message_count, 0);
    v.defaulted("openQuestions", s.open_questions, 0);
    v.defaulted("pendingSubdialogs", s.pending_subdialogs, 0);
    v.defaulted("inputTokens", s.input_tokens, 0);
    v.defaulted("outputTokens", s.output_tokens, 0);
    v.defaulted("needsDrive", s.needs_drive, false);
    v.defaulted("dead", s.dead, false);
    v.defaulted("lastError", s.last_error, "");
    v.required("createdAtMs", s.created_at_ms);
  }
  bool operator==(const fork_row&) const = default;
};

// The first event of a forked dialog's own log, at seq throughSeq + 1: its history up to then is
// its origin's events 1..throughSeq, read from the origin and given the fork's ids (docs/fork.md).
// The fork's root carries the whole tree's id map; a subdialog's `dialogs` is empty.
struct dialog_forked {
  static constexpr std::string_view kType = "dialog_forked";
  std::string origin_dialog_id;
  std::string origin_root_id;
  std::int64_t through_seq = 0;
  dialog_created created;  // the origin's, with the fork's ids
  fork_row row;
  std::vector<forked_id> dialogs;

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("originDialogId", s.origin_dialog_id);
    v.required("originRootId", s.origin_root_id);
    v.required("throughSeq", s.through_seq);
    v.required("created", s.created);
    v.required("row", s.row);
    v.defaulted("dialogs", s.dialogs, {});
  }
  bool operator==(const dialog_forked&) const = default;
};

struct status_changed {
  static constexpr std::string_view kType = "status_changed";
  dialog_status status = dialog_status::running;

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("status", s.status);
  }
  bool operator==(const status_changed&) const = default;
};

// A new course begins (clear_mind or context-health remediation).
struct course_started {
  static constexpr std::string_view kType = "course_started";
  std::int64_t course = 0;
  std::string prompt;

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("course", s.course);
    v.required("prompt", s.prompt);
  }
  bool operator==(const course_started&) const = default;
};

// A drive ended in a runtime failure; the dialog can be resumed.
struct drive_failed {
  static constexpr std::string_view kType = "drive_failed";
  std::int64_t course = 0;
  std::string message;

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("course", s.course);
    v.required("message", s.message);
  }
  bool operator==(const drive_failed&) const = default;
};

// A human asked a stopped or failed dialog to continue.
struct drive_resumed {
  static constexpr std::string_view kType = "drive_resumed";

  template <class S, class V>
  static void fields(S&, V&) {}
  bool operator==(const drive_resumed&) const = default;
};

// A human declared this subdialog dead; it is never driven again.
struct declared_dead {
  static constexpr std::string_view kType = "declared_dead";
  std::string reason;

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("reason", s.reason);
  }
  bool operator==(const declared_dead&) const = default;
};

// change_mind rewrote a section of the Taskdoc.
struct taskdoc_changed {
  static constexpr std::string_view kType = "taskdoc_changed";
  taskdoc_section selector = taskdoc_section::goals;
  std::string path;
  std::string hash;
  std::string previous_hash;

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("selector", s.selector);
    v.required("path", s.path);
    v.required("hash", s.hash);
    v.required("previousHash", s.previous_hash);
  }
  bool operator==(const taskdoc_changed&) const = default;
};

// A dialog's title, changed after its creation (issue 43): by a human (PUT /api/dialogs/{id}/title,
// `parley title`), or by the model's own summary after the first answer — never over a human's.
struct title_changed {
  static constexpr std::string_view kType = "title_changed";
  std::string title;
  title_source by = title_source::user;

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("title", s.title);
    v.required("by", s.by);
  }
  bool operator==(const title_changed&) const = default;
};

// Written only by `parley repair`, in place of an event whose stored text could not be read; it
// changes nothing (the original bytes are kept in `quarantined_events`).
struct event_quarantined {
  static constexpr std::string_view kType = "event_quarantined";
  std::string original_type;
  std::string problem;

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("originalType", s.original_type);
    v.required("problem", s.problem);
  }
  bool operator==(const event_quarantined&) const = default;
};

}  // namespace parley::events

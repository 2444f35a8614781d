// The thread model of seed 004 (§1, §7.3): a thread is a list of messages plus settings; a message
// may hold a whole sub-thread in `meta._thread`, nested to any depth. Typed inside; JSON only where
// a thread enters or leaves (the log's events, the REST views), through the strict codec below.
//
// Wire names are the seed's: `messages`, `settings.briefStatus.phase`, `_phaseUpdateSuggestion`,
// `meta._thread`, `sender`, `isVirtual`. Fields the seed does not name are kept in `meta`/`extra`
// as JSON so that an agent may carry its own data through the log.
#pragma once

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/flow/task.hpp"

namespace parley::flow {

// The phase every thread ends in (§10.2.4).
inline constexpr std::string_view kCompletedPhase = "completed";
inline constexpr std::string_view kInitialPhase = "initial_phase";

struct flow_thread;

// `_phaseUpdateSuggestion`: the next phase a StateHandler proposed; applied before the next task.
// `taskId` names the task whose run made it, so a task re-run after a crash does not apply its own
// (not yet consumed) suggestion to itself.
struct phase_suggestion {
  std::string phase;
  std::string task_id;
};

struct thread_settings {
  std::string phase;  // briefStatus.phase
  std::optional<phase_suggestion> phase_update_suggestion;
  // `_phaseStartIndex`: how many messages the thread held when it entered its phase, so a unit run
  // again after a crash finds the messages it already wrote.
  std::int64_t phase_start_index = 0;
  // `_pendingTasks` (main threads): tasks accepted and not yet finished, in order. Written in the
  // same event as the message that created them, so a restart knows what is left to do.
  std::vector<task> pending_tasks;
  boost::json::object extra;  // any other settings field, kept as given
};

struct thread_message {
  std::string id;
  std::string sender;  // "user" | "bot"
  std::string text;
  std::int64_t timestamp = 0;
  bool is_virtual = false;                  // isVirtual: shown, never sent to a model
  boost::json::object meta;                 // meta without `_thread`
  std::unique_ptr<flow_thread> sub_thread;  // meta._thread

  thread_message() = default;
  thread_message(const thread_message& other);
  thread_message& operator=(const thread_message& other);
  thread_message(thread_message&&) noexcept = default;
  thread_message& operator=(thread_message&&) noexcept = default;
  ~thread_message();
};

struct flow_thread {
  std::string id;
  std::vector<thread_message> messages;
  thread_settings settings;
};

boost::json::object to_json(const thread_settings& settings);
boost::json::object to_json(const thread_message& message);
boost::json::object to_json(const flow_thread& thread);

// Strict readers: a missing or mistyped field is an error naming it, prefixed with `where`
// (e.g. "thread.messages.2.sender: expected a string, got number").
result<thread_settings> settings_from_json(const boost::json::value& value, std::string_view where);
result<thread_message> message_from_json(const boost::json::value& value, std::string_view where);
result<flow_thread> thread_from_json(const boost::json::value& value, std::string_view where);

// A message found anywhere in a thread tree by id, or nullptr.
thread_message* find_message(flow_thread& thread, std::string_view message_id);

}  // namespace parley::flow

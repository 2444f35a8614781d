// Every event the flow layer writes to Parley's log, in this one file: one struct per event type
// with its wire name (`kType`, never to change once shipped) and a strict JSON codec (a missing or
// mistyped field is an error naming it). They are stored through the ordinary `store::append` as
// `event{type = kType, payload = to_payload(...)}`, so they can join the log's typed event variant
// as they are. A flow's main thread is a dialog: it starts with the usual `dialog_created` (kind
// "root", memberId = the flow member) and then holds only these events.
//
// Seed 004 §5's persistence points map onto them:
//   saveThread(thread)                 -> flow_thread_saved   (the whole outermost thread, §5.1.1/3),
//                                         or flow_thread_appended when all that changed since the
//                                         thread's last write is messages added (at any depth) and
//                                         the main thread's settings: the log still holds the whole
//                                         state (replay), at a fraction of the bytes per fsync
//   updateMessage(thread, id, patch)   -> flow_message_updated (one message's text and/or meta)
//   updateThreadSettings(thread, s)    -> flow_settings_updated (one thread's settings, by path)
#pragma once

#include <boost/json/object.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/flow/flow_thread.hpp"
#include "parley/model/events/event_payload.hpp"

namespace parley::flow {

// {thread: {id, messages: [...], settings: {...}}} — the main thread as a whole.
struct flow_thread_saved {
  static constexpr std::string_view kType = "flow_thread_saved";
  flow_thread thread;
};

// {appends: [{path, messages: [...]}], settings?} — messages added at the end of the threads at
// `path` ("" = the main thread), and the main thread's new settings when they changed.
struct flow_thread_appended {
  static constexpr std::string_view kType = "flow_thread_appended";
  struct thread_append {
    std::string path;
    std::vector<thread_message> messages;
  };
  std::vector<thread_append> appends;
  std::optional<thread_settings> settings;
};

// {messageId, text?, meta?} — the message with that id, at any depth; `meta` replaces the
// message's meta whole (with `_thread`, a sub-thread placed in it).
struct flow_message_updated {
  static constexpr std::string_view kType = "flow_message_updated";
  std::string message_id;
  std::optional<std::string> text;
  std::optional<boost::json::object> meta;  // checked: a `_thread` in it must be a valid thread
};

// {path, settings} — the settings of the thread at `path` ("" = the main thread).
struct flow_settings_updated {
  static constexpr std::string_view kType = "flow_settings_updated";
  std::string path;
  thread_settings settings;
};

using flow_event = std::variant<flow_thread_saved, flow_thread_appended, flow_message_updated, flow_settings_updated>;

boost::json::object to_payload(const flow_thread_saved& ev);
boost::json::object to_payload(const flow_thread_appended& ev);
boost::json::object to_payload(const flow_message_updated& ev);
boost::json::object to_payload(const flow_settings_updated& ev);
std::string_view type_of(const flow_event& ev);
boost::json::object to_payload(const flow_event& ev);

result<flow_thread_saved> flow_thread_saved_from_payload(const boost::json::object& payload);
result<flow_thread_appended> flow_thread_appended_from_payload(const boost::json::object& payload);
result<flow_message_updated> flow_message_updated_from_payload(const boost::json::object& payload);
result<flow_settings_updated> flow_settings_updated_from_payload(const boost::json::object& payload);
// Any of them by wire name; errc::not_found for a type that is not a flow event.
result<flow_event> flow_event_from(std::string_view type, const boost::json::object& payload);

// As the log holds it: the typed payload of model/events/flow_events.hpp, whose outer shape the
// log's codec checks; the thread objects inside are this file's to read.
events::event_payload to_log_payload(const flow_event& ev);
// From the log; errc::not_found for an event that is not a flow event.
result<flow_event> flow_event_from(const events::event_payload& payload);

// Folds `next`, written right after `held` and not yet sent either, into `held`, when one event
// says what the two say in order: settings of one thread twice (the later replace them whole);
// the main thread's settings then an append; appends then appends (applied in order, so a later
// one may reach into a message an earlier one added), the main thread's settings or an update of
// a message they add (not a main-thread message's text, which the records took). An append
// event keeps at most one main-thread message, as the records take one message per event
// (model/flow_records.hpp). False, changing nothing, when they cannot be folded.
bool merge_flow_events(flow_event& held, flow_event& next);

// Applies one event to the main thread it belongs to (the replay of a flow, and the in-memory
// mirror of each write). Fails, changing nothing, when the event does not fit the thread.
result<void> apply_flow_event(const flow_event& ev, flow_thread& main);

}  // namespace parley::flow

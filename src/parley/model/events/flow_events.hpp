// Seed 004's flow events (the phase-driven agents of src/parley/flow/): how a flow's main thread
// changes. The log knows their outer shape; a thread inside one — its messages, settings and the
// sub-threads nested in `meta._thread` at any depth — is seed 004's own thread object, read strictly
// by the flow layer's codec (flow/flow_thread.hpp) when it replays the thread. docs/flows.md has
// the mapping from the seed's persistence points to these events.
#pragma once

#include <boost/json/object.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace parley::events {

// A user's message as a client sent it to a flow, on the event that first made it durable (the
// thread's creation, or the save that took the message in): a retried create or post with the
// same msgId finds it there and answers with the first result (engine/input_retry.hpp). The
// message itself is in the thread; this is the request it came in.
struct flow_input {
  std::string msg_id;
  std::string from;  // the user who sent it, "" when none was named
  std::string content;

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("msgId", s.msg_id);
    v.defaulted("from", s.from, "");
    v.required("content", s.content);
  }
  bool operator==(const flow_input&) const = default;
};

// saveThread: the whole outermost thread.
struct flow_thread_saved {
  static constexpr std::string_view kType = "flow_thread_saved";
  boost::json::object thread;
  std::optional<flow_input> input;  // the user's message this save took in; absent in logs before it

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("thread", s.thread);
    v.optional("input", s.input);
  }
  bool operator==(const flow_thread_saved&) const = default;
};

// Messages added at the end of the thread at `path` ("" = the main thread; "0.3" = the sub-thread
// of message 3 of the sub-thread of message 0).
struct flow_thread_append {
  std::string path;
  std::vector<boost::json::object> messages;

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("path", s.path);
    v.required("messages", s.messages);
  }
  bool operator==(const flow_thread_append&) const = default;
};

// saveThread when all that changed since the thread's last write is messages added (at any depth)
// and the main thread's settings.
struct flow_thread_appended {
  static constexpr std::string_view kType = "flow_thread_appended";
  std::vector<flow_thread_append> appends;
  std::optional<boost::json::object> settings;
  std::optional<flow_input> input;  // the user's message this save took in (flow_thread_saved)

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("appends", s.appends);
    v.optional("settings", s.settings);
    v.optional("input", s.input);
  }
  bool operator==(const flow_thread_appended&) const = default;
};

// updateMessage: one message's text and/or meta (the meta replaced whole), at any depth.
struct flow_message_updated {
  static constexpr std::string_view kType = "flow_message_updated";
  std::string message_id;
  std::optional<std::string> text;
  std::optional<boost::json::object> meta;

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("messageId", s.message_id);
    v.optional("text", s.text);
    v.optional("meta", s.meta);
  }
  bool operator==(const flow_message_updated&) const = default;
};

// updateThreadSettings: the settings of the thread at `path`.
struct flow_settings_updated {
  static constexpr std::string_view kType = "flow_settings_updated";
  std::string path;
  boost::json::object settings;

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("path", s.path);
    v.required("settings", s.settings);
  }
  bool operator==(const flow_settings_updated&) const = default;
};

}  // namespace parley::events

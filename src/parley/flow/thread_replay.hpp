// A flow's main thread read back from its dialog's events, for whoever only reads it: `parley
// show`, the REST thread view, the repository's load after a restart. One replay, so every reader
// sees the thread exactly as the flow layer left it on the log.
#pragma once

#include <string_view>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/flow/flow_thread.hpp"
#include "parley/model/event.hpp"

namespace parley::flow {

// Whether a dialog's events are a flow's main thread: its `dialog_created` followed by a first
// `flow_thread_saved` (thread_repository::create_thread writes both in one commit).
bool is_flow_dialog(const std::vector<event>& events);

// The main thread as its events leave it. errc::not_found when the dialog holds no flow thread;
// errc::corrupt naming the event (seq and type) that does not fit the thread built so far.
result<flow_thread> replay_flow_thread(std::string_view dialog_id, const std::vector<event>& events);

// Whether the flow is over for its user: its phase is `completed`, or the last step suggested it
// (the suggestion is applied only before a next task, and a completed flow has none).
bool is_completed(const thread_settings& settings);

}  // namespace parley::flow

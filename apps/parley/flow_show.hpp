// `parley show DIALOG` for a flow's dialog (seed 004): the thread as a flow user reads it — its
// phase, the first-level messages, each sub-thread (meta._thread) indented under the message that
// holds it with its own phase — or, with --json, the thread object as the seed shapes it.
#pragma once

#include <string>

#include "parley/flow/flow_thread.hpp"
#include "parley/store/store.hpp"

namespace parley::cli {

// "the flow is completed" or "the flow waits for you (phase P[, next N])".
std::string flow_state_line(const flow::thread_settings& settings);

int show_flow(const dialog_row& dialog, const flow::flow_thread& main, bool json);

}  // namespace parley::cli

// What a member tool's run leaves in the log besides its result (drive_loop.cpp runs the tools):
// its text made valid UTF-8, and, in a self-reflection dialog, seed 002's IntrospectionTurn with
// the memory entry the call wrote.
#pragma once

#include <cstdint>

#include "parley/engine/dialog_runtime.hpp"
#include "parley/llm/provider.hpp"
#include "parley/model/events/records_events.hpp"
#include "parley/tools/tool.hpp"

namespace parley::engine {

// A tool's text comes from files, file names and programs, which need not be UTF-8; the log and
// every model API take only UTF-8. Such bytes become U+FFFD, and the model is told, so that it
// does not mistake the replacement characters for what the file holds.
void make_loggable(tools::tool_outcome& outcome);

// Seed 002's IntrospectionTurn for one tool use of a self-reflection dialog: its purpose is what
// the AI said (or thought) when it made the call.
events::record_introspection introspection_of(const dialog_runtime& dialog, const llm::tool_call& call,
                                              const tools::tool_outcome& outcome, std::int64_t started_ms,
                                              std::int64_t finished_ms);

}  // namespace parley::engine

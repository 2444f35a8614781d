// What the serving verbs (`parley serve`, `parley mcp`) say about themselves, in the CLI's language:
// which model each member talks to at start, and a stop that left work the store refused.
#pragma once

#include <cstdio>

#include "parley/config/team.hpp"
#include "parley/engine/engine.hpp"
#include "parley/store/store.hpp"

namespace parley::cli {

// "parley: @lead talks to ..." for every member, on `to` (stderr where stdout is a protocol's);
// true when one of them answers from the built-in scripted model.
bool announce_member_models(const config::team_config& team, const engine::engine& eng, std::FILE* to);

// After a shutdown: the log flushed, and kExitRuntime (said on stderr) when the store could not
// write or a dialog stalled on a refused write, else kExitOk.
int exit_status_after_shutdown(store& log, const engine::engine& eng);

}  // namespace parley::cli

// How the verbs that serve (`parley serve`, `parley mcp`) stop: every generation stopped (what it
// streamed is kept, marked interrupted) and recorded, then the loop run out, with a grace period
// for what never ends on its own.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>

#include <chrono>
#include <string_view>

#include "parley/engine/engine.hpp"
#include "parley/store/store.hpp"

namespace parley::cli {

// How long a shutdown waits for stopped generations to be recorded, and for the loop to run out.
inline constexpr auto kShutdownGrace = std::chrono::seconds(5);

// Stops every generation with `reason`, then waits until no drive is queued or running (a stop can
// wake a caller whose drive starts a new generation, which is stopped in turn), at most
// kShutdownGrace.
boost::asio::awaitable<void> stop_all_drives(engine::engine& eng, store& log, std::string_view reason);

// Runs the loop until nothing is left to run, or, once the shutdown is done, until kShutdownGrace
// has passed for clients that never close; false when it gave up on them.
bool run_until_shut_down(boost::asio::io_context& io, const bool& shutdown_done);

}  // namespace parley::cli

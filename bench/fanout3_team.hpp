// The Parley side of the fanout-3 workload, shared by `parley-bench fanout3` and `parley-bench
// soak`: the throwaway team (a lead that delegates with tellaskSessionless, a worker with the
// bench-only lookup tool) against the mock, the store it runs on, and one task end to end.
#pragma once

#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>

#include "parley/core/result.hpp"
#include "parley/engine/engine.hpp"
#include "parley/store/store.hpp"
#include "parley/tools/tool.hpp"

namespace parley::bench::fanout3 {

// Named by team.yaml as the provider's key; the mock ignores keys.
constexpr const char* kKeyVariable = "PARLEY_BENCH_MOCK_KEY";

// Writes `dir`/team.yaml and its workspace. `all_dialog_tools`: every member is offered all its
// dialog tools (no `dialog_tools` key); otherwise each gets only what the workload uses.
void write_team(const std::filesystem::path& dir, const std::string& mock, bool stream, bool all_dialog_tools);

// The builtin tools and the peers' lookup(key) → "v_<key>".
tools::tool_registry tools_with_lookup();

// `sync`: full or normal (the SQLite store in `dir`/data), or memory (no store I/O).
result<std::unique_ptr<store>> open_store(const std::filesystem::path& dir, const std::string& sync,
                                          std::chrono::milliseconds projection_lag);

// One root task: a root dialog of `lead` created with the task as its first message, then the whole
// hierarchy settled; the value is the lead's final saying.
boost::asio::awaitable<result<std::string>> run_task(engine::engine& eng, std::string task_id);

}  // namespace parley::bench::fanout3

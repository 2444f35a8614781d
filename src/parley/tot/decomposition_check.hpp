// What the orchestrator makes of the decomposer's answer before the search (seed 003): its
// `depth_estimate` ("预估树深度") becomes the search's max_depth unless the caller fixed the depth,
// and its `constraints` ("任务约束") go into every generate_thoughts request. A depth outside 1–10
// or two constraints that say opposite things is the seed's INVALID_FORMAT error, not recoverable.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "parley/tot/explorer.hpp"
#include "parley/tot/protocol.hpp"

namespace parley::tot {

// The first pair of constraints of which one is the other negated ("use each number once" / "do
// not use each number once", "必须使用所有数字" / "不能使用所有数字"), compared without case,
// surrounding blanks and a leading "must"/"必须"; nullopt when none.
std::optional<std::pair<std::string, std::string>> contradictory_constraints(
    const std::vector<std::string>& constraints);

// The decomposition checked; an error names the field and the problem.
std::optional<protocol_error> check_decomposition(const decomposition_result& decomposition);

// Applies a checked decomposition to the search: max_depth (unless `depth_given`) and constraints.
void apply_decomposition(explorer_options& options, const decomposition_result& decomposition, bool depth_given);

}  // namespace parley::tot

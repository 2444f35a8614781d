// The declarative form of a flow agent (seed 004 without C++): a folder laid out as §10.1 says —
//   ArticleCreationAgent.yaml            the main agent: its phases and their StateHandlers
//   prompt/<phase>_system_prompt.md      the system prompt of every phase answered by the model
//   outline_drafting/OutlineDraftingAgent.yaml          a sub-thread agent: Starters, Responsors
//   outline_drafting/outline_review/OutlineReviewAgent.yaml   a nested one, to any depth
// Everything is checked when the folder is loaded: unknown keys, phases that are not snake_case, a
// `next` that names no phase, a cycle of phases with no way to `completed`, a missing prompt file
// or sub-thread folder, prepare_subthread without execute_subthread (or the reverse) — each an
// errc::config_error naming the file, the key and the problem. docs/flows.md describes the format.
#pragma once

#include <filesystem>
#include <memory>

#include "parley/core/result.hpp"
#include "parley/flow/flow_runner.hpp"

namespace parley::flow {

struct yaml_agent_spec;  // the checked definition, opaque here

class yaml_flow {
 public:
  static result<yaml_flow> load(const std::filesystem::path& folder);

  // Builds the main agent for a thread whose settings are `settings`.
  main_agent_factory factory(std::string member_id) const;
  const std::string& agent_name() const;

 private:
  explicit yaml_flow(std::shared_ptr<const yaml_agent_spec> root) : root_(std::move(root)) {}
  std::shared_ptr<const yaml_agent_spec> root_;
};

}  // namespace parley::flow

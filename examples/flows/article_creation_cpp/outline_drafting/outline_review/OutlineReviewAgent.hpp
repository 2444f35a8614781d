// The nested review sub-thread agent.
#pragma once

#include <filesystem>

#include "OutlineReviewInteractionUnits.hpp"
#include "OutlineReviewStateHandlers.hpp"
#include "parley/flow/flow.hpp"

namespace article_creation {

class OutlineReviewAgent final : public parley::flow::sub_thread_agent {
 public:
  OutlineReviewAgent(parley::flow::agent_metadata who, parley::flow::thread_settings initial,
                     std::filesystem::path promptDir)
      : sub_thread_agent(std::move(who), std::move(initial)), promptDir_(std::move(promptDir)) {}

 protected:
  parley::result<void> initialize_interaction_units() override {
    auto prompt = readSystemPrompt(promptDir_, "outline_reviewing");
    if (!prompt) return std::move(prompt).err();
    auto reviewing = std::make_shared<OutlineReviewingHandler>(std::move(*prompt));
    interaction_units["initial_phase"] =
        std::make_shared<ReviewRequestStarter>(parley::flow::phase_config{"initial_phase", "completed"}, reviewing);
    return parley::ok();
  }

 private:
  std::filesystem::path promptDir_;
};

}  // namespace article_creation

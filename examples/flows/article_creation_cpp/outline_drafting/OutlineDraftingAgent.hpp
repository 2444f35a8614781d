// The outline sub-thread agent, initialized in §9's order: StateHandlers, then the Responsors that
// hold them, then the Starter.
#pragma once

#include "OutlineDraftingInteractionUnits.hpp"
#include "OutlineDraftingStateHandlers.hpp"

namespace article_creation {

class OutlineDraftingAgent final : public parley::flow::sub_thread_agent {
 public:
  OutlineDraftingAgent(parley::flow::agent_metadata who, parley::flow::thread_settings initial,
                       std::filesystem::path promptDir)
      : sub_thread_agent(std::move(who), std::move(initial)), promptDir_(std::move(promptDir)) {}

 protected:
  parley::result<void> initialize_interaction_units() override {
    auto prompt = readSystemPrompt(promptDir_, "outline_drafting");
    if (!prompt) return std::move(prompt).err();
    auto draftingHandler = std::make_shared<OutlineDraftingHandler>(std::move(*prompt));
    auto reviewHandler = std::make_shared<OutlineReviewHandler>(promptDir_);

    auto draftingResponsor = std::make_shared<OutlineDraftingResponsor>(
        parley::flow::phase_config{"outline_drafting", "outline_review"}, draftingHandler);
    auto reviewResponsor = std::make_shared<OutlineReviewResponsor>(
        parley::flow::phase_config{"outline_review", "completed"}, reviewHandler);

    interaction_units["initial_phase"] = std::make_shared<OutlineRequestStarter>(
        parley::flow::phase_config{"initial_phase", "outline_review"}, draftingResponsor);
    interaction_units["outline_review"] = reviewResponsor;
    return parley::ok();
  }

  // The outline and the review notes both go back to the main thread.
  parley::flow::response summarize_results(const parley::flow::flow_thread& sub) override {
    std::string all;
    for (const auto& message : sub.messages) {
      if (message.sender == "bot") all += (all.empty() ? "" : "\n\n") + message.text;
    }
    return parley::flow::response(std::move(all));
  }

 private:
  std::filesystem::path promptDir_;
};

}  // namespace article_creation

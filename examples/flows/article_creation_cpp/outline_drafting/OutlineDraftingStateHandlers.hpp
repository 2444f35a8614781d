// The outline sub-thread's StateHandlers: drafting by the model, and the review that opens the
// nested sub-thread (§8.2).
#pragma once

#include <filesystem>

#include "../ModelAnswerHandler.hpp"
#include "../PromptFiles.hpp"
#include "outline_review/OutlineReviewAgent.hpp"

namespace article_creation {

class OutlineDraftingHandler final : public ModelAnswerHandler {
 public:
  explicit OutlineDraftingHandler(std::string systemPrompt)
      : ModelAnswerHandler({"outline_drafting", "outline_review"}, std::move(systemPrompt), false) {}
};

class OutlineReviewHandler final : public parley::flow::nested_sub_thread_handler {
 public:
  explicit OutlineReviewHandler(std::filesystem::path promptDir)
      : nested_sub_thread_handler(
            {"outline_review", "completed"}, "Reviewing the outline…",
            [promptDir](const parley::flow::agent_metadata& parent, const parley::flow::thread_settings& settings)
                -> parley::result<std::unique_ptr<parley::flow::base_agent>> {
              auto metadata = parent;
              metadata.name = "OutlineReviewAgent";
              auto agent = parley::flow::base_agent::create<OutlineReviewAgent>(metadata, settings, promptDir);
              if (!agent) return std::move(agent).err();
              return std::unique_ptr<parley::flow::base_agent>(std::move(*agent));
            }) {}
};

}  // namespace article_creation

// The main agent's StateHandlers: ask for topic and audience, the two-step sub-thread start of
// §8.1 (both phases, as the seed insists), and the writing.
#pragma once

#include "ModelAnswerHandler.hpp"
#include "outline_drafting/OutlineDraftingAgent.hpp"

namespace article_creation {

class TopicClarificationHandler final : public ModelAnswerHandler {
 public:
  explicit TopicClarificationHandler(std::string systemPrompt)
      : ModelAnswerHandler({"initial_phase", "prepare_subthread"}, std::move(systemPrompt), true) {}
};

class OutlinePreparationHandler final : public parley::flow::sub_thread_preparation_handler {
 public:
  OutlinePreparationHandler()
      : sub_thread_preparation_handler({"prepare_subthread", "execute_subthread"}, "Drafting the outline…") {}
};

class OutlineExecutionHandler final : public parley::flow::sub_thread_execution_handler {
 public:
  explicit OutlineExecutionHandler(std::filesystem::path promptDir)
      : sub_thread_execution_handler(
            {"execute_subthread", "article_writing"},
            [promptDir](const parley::flow::agent_metadata& parent, const parley::flow::thread_settings& settings)
                -> parley::result<std::unique_ptr<parley::flow::base_agent>> {
              auto metadata = parent;
              metadata.name = "OutlineDraftingAgent";
              auto agent = parley::flow::base_agent::create<OutlineDraftingAgent>(metadata, settings, promptDir);
              if (!agent) return std::move(agent).err();
              return std::unique_ptr<parley::flow::base_agent>(std::move(*agent));
            }) {}
};

class ArticleWritingHandler final : public ModelAnswerHandler {
 public:
  explicit ArticleWritingHandler(std::string systemPrompt)
      : ModelAnswerHandler({"article_writing", "completed"}, std::move(systemPrompt), true) {}
};

}  // namespace article_creation

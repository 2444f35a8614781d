// ArticleCreationAgent: the main agent (BaseAgent) of the article flow of issue 22, the C++ twin of
// examples/flows/article_creation/ArticleCreationAgent.yaml.
#pragma once

#include "ArticleCreationStateHandlers.hpp"

namespace article_creation {

class ArticleCreationAgent final : public parley::flow::base_agent {
 public:
  ArticleCreationAgent(parley::flow::agent_metadata who, parley::flow::thread_settings initial,
                       std::filesystem::path promptDir)
      : base_agent(std::move(who), std::move(initial)), promptDir_(std::move(promptDir)) {}

 protected:
  parley::result<void> initialize_state_handlers() override {
    auto asking = readSystemPrompt(promptDir_, "initial_phase");
    if (!asking) return std::move(asking).err();
    auto writing = readSystemPrompt(promptDir_, "article_writing");
    if (!writing) return std::move(writing).err();
    state_handlers["initial_phase"] = std::make_shared<TopicClarificationHandler>(std::move(*asking));
    state_handlers["prepare_subthread"] = std::make_shared<OutlinePreparationHandler>();
    state_handlers["execute_subthread"] = std::make_shared<OutlineExecutionHandler>(promptDir_);
    state_handlers["article_writing"] = std::make_shared<ArticleWritingHandler>(std::move(*writing));
    return parley::ok();
  }

 private:
  std::filesystem::path promptDir_;
};

}  // namespace article_creation

// The nested review sub-thread's StateHandler.
#pragma once

#include "../../ModelAnswerHandler.hpp"

namespace article_creation {

class OutlineReviewingHandler final : public ModelAnswerHandler {
 public:
  explicit OutlineReviewingHandler(std::string systemPrompt)
      : ModelAnswerHandler({"outline_reviewing", "completed"}, std::move(systemPrompt), false) {}
};

}  // namespace article_creation

// Response (seed 004 §6): what an agent, a StateHandler or an InteractionUnit returns — the text
// of a bot message, its meta, the tasks to run next, and `skipBotMessageCreation` when the
// component already wrote (or updated) the message itself.
#pragma once

#include <boost/json/object.hpp>

#include <string>
#include <utility>
#include <vector>

#include "parley/flow/task.hpp"

namespace parley::flow {

class response {
 public:
  response() = default;
  explicit response(std::string text) : text_(std::move(text)) {}

  // getFullMessage
  const std::string& full_message() const { return text_; }
  void set_text(std::string text) { text_ = std::move(text); }

  boost::json::object meta;

  // addNextTask: run after this one, before the flow waits for the user again.
  void add_next_task(task next) { next_tasks_.push_back(std::move(next)); }
  const std::vector<task>& next_tasks() const { return next_tasks_; }

  // meta.skipBotMessageCreation
  bool skip_bot_message_creation() const {
    const auto* flag = meta.if_contains("skipBotMessageCreation");
    return flag != nullptr && flag->is_bool() && flag->get_bool();
  }
  void set_skip_bot_message_creation(bool skip = true) { meta["skipBotMessageCreation"] = skip; }

 private:
  std::string text_;
  std::vector<task> next_tasks_;
};

}  // namespace parley::flow

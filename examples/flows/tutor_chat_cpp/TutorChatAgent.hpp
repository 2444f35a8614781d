// TutorChatAgent: a main agent (BaseAgent) with the seed's extra tasks (§2.1): `loadOperations`
// lists them, `executeTask` routes them by task name before the phase's StateHandler gets the rest.
//   chatPair     — `return new Response(task.meta.bot)`: the client hands over a user/bot exchange
//                  (its message and the bot's answer), recorded without asking the model.
//   amendAnswer  — replaces the text of the last bot answer with the task's message, through the
//                  Response's messageUpdate (no new message; no user message either).
#pragma once

#include "TutorChatStateHandlers.hpp"

namespace tutor_chat {

class TutorChatAgent final : public parley::flow::base_agent {
 public:
  TutorChatAgent(parley::flow::agent_metadata who, parley::flow::thread_settings initial,
                 std::filesystem::path promptDir)
      : base_agent(std::move(who), std::move(initial)), promptDir_(std::move(promptDir)) {}

  std::vector<parley::flow::flow_operation> load_operations() const override {
    return {{"chatPair", "Record a user message and the bot's answer (task.meta.bot) as given", true},
            {"amendAnswer", "Replace the text of the last bot answer with the task's message", false}};
  }

  boost::asio::awaitable<parley::result<parley::flow::response>> execute_task(
      parley::flow::task& task, parley::flow::flow_thread& thread) override {
    if (task.name == "chatPair") {
      const auto* bot = task.meta.if_contains("bot");
      if (bot == nullptr || !bot->is_string() || bot->get_string().empty()) {
        co_return parley::make_error(parley::errc::invalid_argument,
                                     "chatPair: task.meta.bot: expected the bot's answer as a non-empty string");
      }
      co_return parley::flow::response(std::string(bot->get_string()));
    }
    if (task.name == "amendAnswer") co_return amendLastAnswer(task, thread);
    co_return co_await handle_message_processing(task, thread);
  }

 protected:
  parley::result<void> initialize_state_handlers() override {
    auto prompt = readSystemPrompt(promptDir_, "initial_phase");
    if (!prompt) return std::move(prompt).err();
    state_handlers["initial_phase"] = std::make_shared<TutoringHandler>(std::move(*prompt));
    return parley::ok();
  }

 private:
  // task.meta.messageId names the message to amend (the last bot message when absent).
  static parley::result<parley::flow::response> amendLastAnswer(const parley::flow::task& task,
                                                                const parley::flow::flow_thread& thread) {
    if (task.message.empty()) {
      return parley::make_error(parley::errc::invalid_argument, "amendAnswer: message: the new text is empty");
    }
    std::string target;
    if (const auto* named = task.meta.if_contains("messageId")) {
      if (!named->is_string()) {
        return parley::make_error(parley::errc::invalid_argument,
                                  "amendAnswer: task.meta.messageId: expected a string");
      }
      target = std::string(named->get_string());
    } else {
      for (const auto& message : thread.messages) {
        if (message.sender == "bot") target = message.id;
      }
    }
    if (target.empty()) return parley::make_error(parley::errc::invalid_argument, "amendAnswer: no bot answer yet");
    parley::flow::response response(task.message);
    response.set_message_update({target, std::nullopt, boost::json::object{{"amended", true}}});
    return response;
  }

  std::filesystem::path promptDir_;
};

}  // namespace tutor_chat

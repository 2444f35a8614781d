// The one StateHandler shape this agent needs at every level: answer with the phase's system
// prompt over the served thread's first-level messages (through the AIAdapter), streaming only in
// the main thread. Business handlers below derive from it and name the phase they serve.
#pragma once

#include "parley/flow/flow.hpp"

namespace article_creation {

class ModelAnswerHandler : public parley::flow::state_handler {
 public:
  ModelAnswerHandler(parley::flow::phase_config config, std::string systemPrompt, bool suggestsItself)
      : state_handler(std::move(config)), systemPrompt_(std::move(systemPrompt)), suggestsItself_(suggestsItself) {}

  boost::asio::awaitable<parley::result<parley::flow::response>> handle(parley::flow::task& task,
                                                                        parley::flow::flow_thread& thread,
                                                                        parley::flow::base_agent& agent) override {
    auto served = parley::flow::served_thread(task, thread);
    if (!served) co_return std::move(served).err();
    parley::flow::chat_options options{systemPrompt_, task.sub_thread_path().empty(), thread.id};
    auto text = co_await task.host_utils->ai.chat((*served)->messages, options);
    if (!text) co_return std::move(text).err();
    if (suggestsItself_) PARLEY_CO_TRY(co_await suggest_phase_update(task, thread, agent));
    co_return parley::flow::response(std::move(*text));
  }

 private:
  std::string systemPrompt_;
  bool suggestsItself_;
};

}  // namespace article_creation

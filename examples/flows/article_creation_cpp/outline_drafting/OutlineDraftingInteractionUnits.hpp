// The outline sub-thread's Starter and Responsors (§7.6's two scenarios).
#pragma once

#include "parley/flow/flow.hpp"

namespace article_creation {

// Scenario 1: a question starts the flow — the brief goes to the drafting Responsor.
class OutlineRequestStarter final : public parley::flow::starter {
 public:
  using starter::starter;

 protected:
  boost::asio::awaitable<parley::result<std::string>> generate_initial_user_message(
      parley::flow::task& /*task*/, parley::flow::flow_thread& thread, parley::flow::base_agent& /*agent*/) override {
    std::string brief;
    for (const auto& message : thread.messages) {
      if (message.sender == "user") brief = message.text;
    }
    co_return "Draft an outline for an article. The brief: " + brief;
  }
};

// Scenario 2: the AI's output is judged and the next step asked for.
class OutlineDraftingResponsor final : public parley::flow::responsor {
 public:
  using responsor::responsor;

 protected:
  boost::asio::awaitable<parley::result<std::string>> generate_user_message(
      const parley::flow::thread_message& botMessage, parley::flow::task& /*task*/,
      parley::flow::flow_thread& /*thread*/, parley::flow::base_agent& /*agent*/) override {
    if (botMessage.text.find('?') != std::string::npos) {
      co_return std::string("Do not ask; assume what is most likely and give the outline.");
    }
    co_return std::string("Good. Now have the outline reviewed.");
  }
};

class OutlineReviewResponsor final : public parley::flow::responsor {
 public:
  using responsor::responsor;

 protected:
  // Its next phase is `completed`, so no user message follows the review (§7.4.2).
  boost::asio::awaitable<parley::result<std::string>> generate_user_message(
      const parley::flow::thread_message& /*botMessage*/, parley::flow::task& /*task*/,
      parley::flow::flow_thread& /*thread*/, parley::flow::base_agent& /*agent*/) override {
    co_return std::string();
  }
};

}  // namespace article_creation

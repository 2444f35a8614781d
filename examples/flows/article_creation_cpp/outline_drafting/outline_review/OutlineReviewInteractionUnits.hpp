// The nested review sub-thread's Starter: it holds a StateHandler (§7.5.3, the simple case).
#pragma once

#include "parley/flow/flow.hpp"

namespace article_creation {

class ReviewRequestStarter final : public parley::flow::starter {
 public:
  using starter::starter;

 protected:
  boost::asio::awaitable<parley::result<std::string>> generate_initial_user_message(
      parley::flow::task& task, parley::flow::flow_thread& thread, parley::flow::base_agent& /*agent*/) override {
    // The outline is the last real bot message of the thread that holds this one.
    auto path = parley::flow::served_path(task);
    if (!path) co_return std::move(path).err();
    auto parent = parley::flow::get_sub_thread_by_path(thread, path->parent());
    if (!parent) co_return std::move(parent).err();
    std::string outline;
    for (const auto& message : (*parent)->messages) {
      if (message.sender == "bot" && !message.sub_thread) outline = message.text;
    }
    co_return "Review this outline. Name what is missing.\n\n" + outline;
  }
};

}  // namespace article_creation

// The StateHandler of TutorChatAgent (§10.2.2): one phase, whose answer streams into the main
// thread — the seed's §2.2 pattern `response.setStream(agent.createStream(stream))`.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "parley/flow/flow.hpp"

namespace tutor_chat {

inline parley::result<std::string> readSystemPrompt(const std::filesystem::path& promptDir, const std::string& phase) {
  const auto file = promptDir / (phase + "_system_prompt.md");
  std::ifstream in(file);
  if (!in) return parley::make_error(parley::errc::config_error, "cannot read prompt file " + file.string());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Answers the learner through the AIAdapter as a stream: the handler returns at once, and the host
// shows the answer growing in its bot message, which it saves when the stream ends.
class TutoringHandler final : public parley::flow::state_handler {
 public:
  explicit TutoringHandler(std::string systemPrompt)
      : state_handler({"initial_phase", ""}), systemPrompt_(std::move(systemPrompt)) {}

  boost::asio::awaitable<parley::result<parley::flow::response>> handle(parley::flow::task& task,
                                                                        parley::flow::flow_thread& thread,
                                                                        parley::flow::base_agent& agent) override {
    auto served = parley::flow::served_thread(task, thread);
    if (!served) co_return std::move(served).err();
    // The seed's `thread.messages.filter(msg => !msg.isVirtual)`: the adapter leaves those out.
    parley::flow::chat_options options{systemPrompt_, true, thread.id};
    auto stream = task.host_utils->ai.open_stream((*served)->messages, options);
    parley::flow::response response("");
    response.set_stream(agent.create_stream(std::move(stream)));
    co_return response;
  }

 private:
  std::string systemPrompt_;
};

}  // namespace tutor_chat

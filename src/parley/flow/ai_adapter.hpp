// AIAdapter (seed 004 §2.2, §6.1): every model call of a flow goes through here, to one of
// Parley's providers. It sends only the first-level messages of the thread it is given — never a
// sub-thread (`meta._thread`) and never a virtual message (`isVirtual`) — converted to the
// provider-neutral form ("user" → user, "bot" → assistant). Main threads stream (each saying chunk
// goes to the stream observer as it arrives); sub-threads take the complete response (§6.1).
#pragma once

#include <boost/asio/awaitable.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/flow/flow_thread.hpp"
#include "parley/flow/response.hpp"
#include "parley/llm/provider.hpp"

namespace parley::flow {

struct chat_options {
  std::string system_message;  // systemMessage
  bool stream = false;
  std::string thread_id;  // for the provider's request (dialog_id) and error messages
};

class ai_adapter {
 public:
  ai_adapter(std::shared_ptr<llm::provider> provider, std::string member_id, std::string model)
      : provider_(std::move(provider)), member_id_(std::move(member_id)), model_(std::move(model)) {}

  // chat(messages, {systemMessage, stream}): the bot's answer text. A provider failure is
  // errc::provider_error.
  boost::asio::awaitable<result<std::string>> chat(const std::vector<thread_message>& messages,
                                                   const chat_options& options);

  // chat(messages, {stream: true}) for `response.setStream(agent.createStream(stream))`: the
  // messages are converted now (the caller's thread may change before the host runs the stream);
  // the model is called when the stream runs, each saying chunk going to its `on_chunk`.
  answer_stream open_stream(const std::vector<thread_message>& messages, const chat_options& options);

  // Tells the stream observer a saying chunk of the main thread `thread_id` (the host, for a
  // response's stream whatever made it).
  void tell_chunk(std::string_view thread_id, std::string_view chunk) const {
    if (observer_) observer_(thread_id, chunk);
  }

  // What the model is sent for `messages`: first level only, virtual messages left out.
  static std::vector<llm::chat_message> to_model_messages(const std::vector<thread_message>& messages);

  // Receives the saying chunks of streamed (main-thread) calls, with the thread they are for.
  using stream_observer = std::function<void(std::string_view thread_id, std::string_view chunk)>;
  void set_stream_observer(stream_observer observer) { observer_ = std::move(observer); }
  std::int64_t calls() const { return calls_; }
  // Called before every model call (chat and streams): the runner sends the repository's held
  // writes there, so what a flow did before waiting on its model is in the log while it waits.
  void set_before_call(std::function<void()> hook) { before_call_ = std::move(hook); }

 private:
  llm::model_request request_for(const std::vector<thread_message>& messages, const chat_options& options) const;
  boost::asio::awaitable<result<std::string>> call_streaming(llm::model_request request,
                                                             answer_stream::chunk_fn on_chunk);

  std::shared_ptr<llm::provider> provider_;
  std::string member_id_;
  std::string model_;
  stream_observer observer_;
  std::function<void()> before_call_;
  std::int64_t calls_ = 0;
};

}  // namespace parley::flow

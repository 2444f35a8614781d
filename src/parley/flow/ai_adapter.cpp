#include "parley/flow/ai_adapter.hpp"

namespace parley::flow {

namespace {

// Forwards saying chunks of a main-thread call; a sub-thread call gets the plain sink (nothing).
class chunk_sink final : public llm::stream_sink {
 public:
  chunk_sink(const ai_adapter::stream_observer* observer, std::string_view thread_id)
      : observer_(observer), thread_id_(thread_id) {}
  void on_saying_chunk(std::string_view text) override {
    if (observer_ != nullptr && *observer_) (*observer_)(thread_id_, text);
  }

 private:
  const ai_adapter::stream_observer* observer_;
  std::string_view thread_id_;
};

// Hands every saying chunk of a response's stream to the host's callback.
class stream_chunk_sink final : public llm::stream_sink {
 public:
  explicit stream_chunk_sink(answer_stream::chunk_fn on_chunk) : on_chunk_(std::move(on_chunk)) {}
  void on_saying_chunk(std::string_view text) override {
    if (on_chunk_) on_chunk_(text);
  }

 private:
  answer_stream::chunk_fn on_chunk_;
};

}  // namespace

std::vector<llm::chat_message> ai_adapter::to_model_messages(const std::vector<thread_message>& messages) {
  std::vector<llm::chat_message> out;
  out.reserve(messages.size());
  for (const auto& message : messages) {
    if (message.is_virtual) continue;
    llm::chat_message converted;
    converted.role = message.sender == "bot" ? llm::role::assistant : llm::role::user;
    converted.content = message.text;  // the text only: a sub-thread in meta._thread stays behind
    out.push_back(std::move(converted));
  }
  return out;
}

llm::model_request ai_adapter::request_for(const std::vector<thread_message>& messages,
                                           const chat_options& options) const {
  llm::model_request request;
  request.member_id = member_id_;
  request.model = model_;
  request.system_prompt = options.system_message;
  request.messages = to_model_messages(messages);
  request.dialog_id = options.thread_id;
  request.stream = options.stream;
  return request;
}

answer_stream ai_adapter::open_stream(const std::vector<thread_message>& messages, const chat_options& options) {
  auto request = request_for(messages, options);
  request.stream = true;
  answer_stream out;
  // Not a coroutine lambda: the frame of call_streaming owns its copies, whatever becomes of this.
  out.run = [this, request = std::move(request)](answer_stream::chunk_fn on_chunk) {
    return call_streaming(request, std::move(on_chunk));
  };
  return out;
}

boost::asio::awaitable<result<std::string>> ai_adapter::call_streaming(llm::model_request request,
                                                                       answer_stream::chunk_fn on_chunk) {
  ++calls_;
  if (before_call_) before_call_();
  stream_chunk_sink sink(std::move(on_chunk));
  llm::generation_control control;
  auto answer = co_await provider_->stream(request, sink, control);
  if (!answer) co_return make_error(errc::provider_error, "model call failed: " + answer.err().message);
  co_return std::move(answer->saying);
}

boost::asio::awaitable<result<std::string>> ai_adapter::chat(const std::vector<thread_message>& messages,
                                                             const chat_options& options) {
  const auto request = request_for(messages, options);
  ++calls_;
  if (before_call_) before_call_();
  chunk_sink sink(options.stream ? &observer_ : nullptr, options.thread_id);
  llm::generation_control control;
  auto answer = co_await provider_->stream(request, sink, control);
  if (!answer) {
    co_return make_error(errc::provider_error, "model call failed: " + answer.err().message);
  }
  co_return std::move(answer->saying);
}

}  // namespace parley::flow

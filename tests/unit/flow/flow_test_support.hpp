// Shared by the flow tests: a coroutine runner, a model fake that records what it is told, and a
// store-backed host (repository + adapter) to run agents against.
#pragma once

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "parley/flow/ai_adapter.hpp"
#include "parley/flow/host_utils.hpp"
#include "parley/flow/thread_repository.hpp"
#include "parley/store/store.hpp"

namespace parley::flow::test {

template <class T>
T run_on(boost::asio::io_context& io, boost::asio::awaitable<T> work) {
  std::optional<T> out;
  // co_spawn wants a default-constructible value; T (a result<>) is not, so a void wrapper stores it.
  auto wrapper = [](boost::asio::awaitable<T> inner, std::optional<T>& slot) -> boost::asio::awaitable<void> {
    slot.emplace(co_await std::move(inner));
  };
  boost::asio::co_spawn(io, wrapper(std::move(work), out), [](std::exception_ptr failed) {
    if (failed) std::rethrow_exception(failed);
  });
  io.restart();
  io.run();
  return std::move(*out);
}

struct recorded_call {
  llm::model_request request;
  bool streamed_chunks = false;
};

// Answers with `answer(request)`; streams the answer in two chunks when the request streams.
class recording_model final : public llm::provider {
 public:
  using answer_fn = std::function<result<std::string>(const llm::model_request&)>;
  explicit recording_model(answer_fn answer) : answer_(std::move(answer)) {}

  boost::asio::awaitable<result<llm::model_response>> stream(const llm::model_request& request, llm::stream_sink& sink,
                                                             llm::generation_control& /*control*/) override {
    calls.push_back({request, false});
    auto text = answer_(request);
    if (!text) co_return std::move(text).err();
    if (request.stream) {
      sink.on_saying_start();
      const auto half = text->size() / 2;
      sink.on_saying_chunk(std::string_view(*text).substr(0, half));
      sink.on_saying_chunk(std::string_view(*text).substr(half));
      sink.on_saying_finish();
      calls.back().streamed_chunks = true;
    }
    llm::model_response response;
    response.saying = std::move(*text);
    response.finish_reason = "stop";
    co_return response;
  }
  std::string_view kind() const override { return "recording"; }

  std::vector<recorded_call> calls;

 private:
  answer_fn answer_;
};

struct host_fixture {
  explicit host_fixture(recording_model::answer_fn answer)
      : model(std::make_shared<recording_model>(std::move(answer))),
        log(make_memory_store()),
        repository(*log, io.get_executor()),
        ai(model, "writer", "test-model"),
        host{repository, ai} {}

  boost::asio::io_context io;
  std::shared_ptr<recording_model> model;
  std::unique_ptr<store> log;
  thread_repository repository;
  ai_adapter ai;
  host_utils host;

  std::vector<std::string> event_types(const std::string& thread_id) {
    std::vector<std::string> out;
    for (const auto& ev : log->read_events(thread_id).value()) out.emplace_back(ev.type());
    return out;
  }
};

}  // namespace parley::flow::test

// Shared by the scripted-provider tests: a sink that records every event, request builders and a
// way to run one stream call to completion on an io_context.
#pragma once

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>

#include <gtest/gtest.h>

#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "parley/llm/scripted/scripted_provider.hpp"

namespace parley::llm::testing {

class recording_sink final : public stream_sink {
 public:
  void on_thinking_start() override { events.emplace_back("thinking_start"); }
  void on_thinking_chunk(std::string_view text) override { events.push_back("thinking:" + std::string(text)); }
  void on_thinking_finish() override { events.emplace_back("thinking_finish"); }
  void on_saying_start() override { events.emplace_back("saying_start"); }
  void on_saying_chunk(std::string_view text) override { events.push_back("saying:" + std::string(text)); }
  void on_saying_finish() override { events.emplace_back("saying_finish"); }
  void on_tool_call(const tool_call& call) override {
    events.push_back("tool_call:" + call.id + ":" + call.name + ":" + call.arguments);
  }

  std::vector<std::string> events;
};

inline chat_message message(role r, std::string content) {
  chat_message m;
  m.role = r;
  m.content = std::move(content);
  return m;
}

inline model_request request_for(std::string member, std::vector<chat_message> messages, std::int64_t round = 1) {
  model_request r;
  r.member_id = std::move(member);
  r.messages = std::move(messages);
  r.round = round;
  return r;
}

inline std::shared_ptr<const scripted_script> must_parse(std::string_view yaml) {
  auto script = parse_scripted_script(yaml, "test.yaml");
  if (!script) {
    ADD_FAILURE() << script.err().message;
    return nullptr;
  }
  return std::move(script).value();
}

// Runs provider.stream to completion on `io` (which the caller may also use for timers).
inline result<model_response> run_stream(boost::asio::io_context& io, provider& p, const model_request& request,
                                         stream_sink& sink, generation_control& control) {
  std::optional<result<model_response>> out;
  // Wrapped in a void coroutine: co_spawn's handler form needs a default-constructible result.
  auto call = [&]() -> boost::asio::awaitable<void> { out.emplace(co_await p.stream(request, sink, control)); };
  boost::asio::co_spawn(io, call(), [](std::exception_ptr failure) {
    if (failure) std::rethrow_exception(failure);
  });
  io.run();
  io.restart();
  if (!out) return make_error(errc::internal, "the stream did not complete");
  return std::move(*out);
}

inline result<model_response> run_stream(provider& p, const model_request& request, stream_sink& sink) {
  boost::asio::io_context io;
  generation_control control;
  return run_stream(io, p, request, sink, control);
}

}  // namespace parley::llm::testing

// Scripted-model scripts (llm/scripted): an input is a script.yaml.
//  - Loading never throws; an error names the script (`fuzz.yaml:LINE:COLUMN: ...`) in UTF-8.
//  - A loaded script answers requests (several members, rounds, with and without a tool result,
//    text outside ASCII for captures and placeholders to work on) holding to the stream order
//    contract; what it streams is UTF-8 and is what the response holds; a finished answer ends
//    with stop or tool_calls, the latter exactly when it made calls; usage is never negative.
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>

#include <cstdint>
#include <exception>
#include <optional>
#include <string>

#include "checking_sink.hpp"
#include "fuzz_support.hpp"
#include "parley/core/utf8.hpp"
#include "parley/llm/scripted/script.hpp"
#include "parley/llm/scripted/scripted_provider.hpp"

namespace {

using namespace parley;
using parley::fuzz::as_text;

llm::chat_message message(llm::role role, std::string content) {
  llm::chat_message m;
  m.role = role;
  m.content = std::move(content);
  return m;
}

std::vector<llm::model_request> requests() {
  std::vector<llm::model_request> out;
  llm::model_request first;
  first.member_id = "lead";
  first.system_prompt = "You lead the team. 你负责团队。";
  first.messages = {message(llm::role::user, "请审查 PR #42 😀 and say hello to @bob, then read docs/a.md")};
  first.round = 1;
  out.push_back(first);

  llm::model_request second = first;
  second.round = 2;
  llm::chat_message assistant = message(llm::role::assistant, "Reading it.");
  assistant.tool_calls.push_back({"call_1_1", "read_file", R"({"path":"docs/a.md"})"});
  second.messages.push_back(assistant);
  llm::chat_message tool = message(llm::role::tool, "# Título\nliñe two — ünïcödé\n");
  tool.tool_call_id = "call_1_1";
  tool.name = "read_file";
  second.messages.push_back(tool);
  out.push_back(second);

  llm::model_request other = first;
  other.member_id = "bob";
  other.messages = {message(llm::role::user, "x")};
  out.push_back(other);
  return out;
}

void run(const llm::scripted_script& script, std::shared_ptr<const llm::scripted_script> shared) {
  // A delay makes the provider wait on a timer per chunk: real time the fuzzer does not have.
  if (script.delay_ms > 0) return;
  llm::scripted_provider provider(std::move(shared));
  for (const auto& request : requests()) {
    boost::asio::io_context io;
    fuzz::checking_sink sink;
    llm::generation_control control;
    std::optional<result<llm::model_response>> answer;
    auto stream = [&]() -> boost::asio::awaitable<void> {
      answer.emplace(co_await provider.stream(request, sink, control));
    };
    boost::asio::co_spawn(io, stream(), [](std::exception_ptr failure) {
      if (failure) std::rethrow_exception(failure);
    });
    io.run();
    FUZZ_CHECK(answer.has_value(), "the stream never finished");
    if (!*answer) {
      FUZZ_CHECK(is_valid_utf8((*answer).err().message), "an error that is not UTF-8");
      continue;
    }
    const llm::model_response& response = **answer;
    sink.check_response(response);
    FUZZ_CHECK(response.finish_reason == (response.tool_calls.empty() ? "stop" : "tool_calls"),
               "finish_reason " + response.finish_reason);
    FUZZ_CHECK(response.usage.input_tokens >= 0 && response.usage.output_tokens >= 0 &&
                   response.usage.cached_tokens >= 0 && response.usage.reasoning_tokens >= 0,
               "negative usage");
    for (const auto& call : response.tool_calls) {
      FUZZ_CHECK(!call.name.empty(), "a tool call without a name");
      FUZZ_CHECK(!call.id.empty(), "a tool call without an id");
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto script = llm::parse_scripted_script(as_text(data, size), "fuzz.yaml");
  if (!script) {
    const std::string& message = script.err().message;
    FUZZ_CHECK(message.rfind("fuzz.yaml", 0) == 0, "the error does not name the script: " + message);
    FUZZ_CHECK(is_valid_utf8(message), "the error message is not UTF-8: " + message);
    return 0;
  }
  run(**script, *script);
  return 0;
}

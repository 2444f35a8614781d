// Runs TutorChatAgent on the scripted model and an in-memory log: a streamed answer, a chatPair
// task, an amendAnswer task (messageUpdate); prints the chunks seen and the thread.
// usage: parley_flow_tutor_chat_example PROMPT_DIR SCRIPT
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/json/serialize.hpp>

#include <cstdio>

#include "TutorChatAgent.hpp"
#include "parley/llm/scripted/scripted_provider.hpp"

namespace {

int fail(const parley::error& failure) {
  std::fprintf(stderr, "%s\n", failure.message.c_str());
  return 1;
}

boost::asio::awaitable<int> converse(parley::flow::flow_runner& runner) {
  auto first = co_await runner.start("What is a prime number?");
  if (!first) co_return fail(first.err());
  parley::flow::task_request pair{"chatPair", "Is 2 prime?", {{"bot", "Yes: 2 is the only even prime."}}};
  auto paired = co_await runner.run_task(first->id, std::move(pair));
  if (!paired) co_return fail(paired.err());
  parley::flow::task_request amend{"amendAnswer", "Yes: 2 is prime, and the only even one.", {}};
  auto amended = co_await runner.run_task(first->id, std::move(amend));
  if (!amended) co_return fail(amended.err());
  std::printf("%s\n", boost::json::serialize(parley::flow::to_json(*amended)).c_str());
  co_return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s PROMPT_DIR SCRIPT\n", argv[0]);
    return 2;
  }
  const std::filesystem::path promptDir = argv[1];
  auto script = parley::llm::load_scripted_script(argv[2]);
  if (!script) return fail(script.err());
  auto log = parley::make_memory_store();
  boost::asio::io_context io;
  parley::flow::thread_repository repository(*log, io.get_executor());
  parley::flow::ai_adapter ai(std::make_shared<parley::llm::scripted_provider>(*script), "tutor", "scripted");
  int chunks = 0;
  ai.set_stream_observer([&chunks](std::string_view, std::string_view) { ++chunks; });
  parley::flow::flow_runner runner(
      repository, ai,
      [promptDir](
          const parley::flow::thread_settings& settings) -> parley::result<std::unique_ptr<parley::flow::base_agent>> {
        auto agent = parley::flow::base_agent::create<tutor_chat::TutorChatAgent>(
            parley::flow::agent_metadata{"TutorChatAgent", "tutor", {}}, settings, promptDir);
        if (!agent) return std::move(agent).err();
        return std::unique_ptr<parley::flow::base_agent>(std::move(*agent));
      },
      "tutor");
  int status = 1;
  boost::asio::co_spawn(io, converse(runner),
                        [&status](std::exception_ptr failed, int code) { status = failed ? 1 : code; });
  io.run();
  std::printf("streamed chunks: %d\n", chunks);
  return status;
}

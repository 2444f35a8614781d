// Runs ArticleCreationAgent on the scripted model and an in-memory log, and prints the thread.
// usage: parley_flow_article_example PROMPT_DIR SCRIPT
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/json/serialize.hpp>

#include <cstdio>

#include "ArticleCreationAgent.hpp"
#include "parley/llm/scripted/scripted_provider.hpp"

namespace {

boost::asio::awaitable<int> converse(parley::flow::flow_runner& runner) {
  auto first = co_await runner.start("Write me an article");
  if (!first) {
    std::fprintf(stderr, "%s\n", first.err().message.c_str());
    co_return 1;
  }
  auto done = co_await runner.say(first->id, "Tea, for beginners");
  if (!done) {
    std::fprintf(stderr, "%s\n", done.err().message.c_str());
    co_return 1;
  }
  std::printf("%s\n", boost::json::serialize(parley::flow::to_json(*done)).c_str());
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
  if (!script) {
    std::fprintf(stderr, "%s\n", script.err().message.c_str());
    return 2;
  }
  auto log = parley::make_memory_store();
  boost::asio::io_context io;
  parley::flow::thread_repository repository(*log, io.get_executor());
  parley::flow::ai_adapter ai(std::make_shared<parley::llm::scripted_provider>(*script), "article_writer", "scripted");
  parley::flow::flow_runner runner(
      repository, ai,
      [promptDir](
          const parley::flow::thread_settings& settings) -> parley::result<std::unique_ptr<parley::flow::base_agent>> {
        auto agent = parley::flow::base_agent::create<article_creation::ArticleCreationAgent>(
            parley::flow::agent_metadata{"ArticleCreationAgent", "article_writer", {}}, settings, promptDir);
        if (!agent) return std::move(agent).err();
        return std::unique_ptr<parley::flow::base_agent>(std::move(*agent));
      },
      "article_writer");
  int status = 1;
  boost::asio::co_spawn(io, converse(runner),
                        [&status](std::exception_ptr failed, int code) { status = failed ? 1 : code; });
  io.run();
  return status;
}

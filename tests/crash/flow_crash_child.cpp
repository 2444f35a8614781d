// The process the flow crash test kills: runs the YAML article flow (examples/flows/
// article_creation) on a SQLite store with a slow scripted model. On a store that already holds
// the flow (a restart) it continues from what the log says: resume pending tasks, or answer the
// question the flow waits on. Prints "CALL <the system prompt's first line>" as each model call
// starts (so the test can kill inside a chosen call) and "DONE" once the article is written.
// usage: parley_flow_crash_child AGENT_FOLDER SCRIPT DATA_DIR
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

#include "parley/flow/flow_runner.hpp"
#include "parley/flow/yaml_agent.hpp"
#include "parley/llm/scripted/scripted_provider.hpp"

namespace {

using namespace parley;

// Says on stdout which call starts before handing it to the scripted model; flushed at once, since
// the test kills the process on reading it.
class announcing_provider final : public llm::provider {
 public:
  explicit announcing_provider(std::shared_ptr<llm::provider> inner) : inner_(std::move(inner)) {}

  boost::asio::awaitable<result<llm::model_response>> stream(const llm::model_request& request, llm::stream_sink& sink,
                                                             llm::generation_control& control) override {
    const std::string_view prompt = request.system_prompt;
    std::printf("CALL %.*s\n", static_cast<int>(prompt.substr(0, prompt.find('\n')).size()), prompt.data());
    std::fflush(stdout);
    co_return co_await inner_->stream(request, sink, control);
  }
  std::string_view kind() const override { return inner_->kind(); }

 private:
  std::shared_ptr<llm::provider> inner_;
};

boost::asio::awaitable<int> drive(flow::flow_runner& runner, flow::thread_repository& repository, store& log) {
  dialog_filter roots;
  roots.roots_only = true;
  auto rows = log.list_dialogs(roots);
  if (!rows) co_return 1;
  std::string id;
  if (rows->empty()) {
    auto started = co_await runner.start("Write me an article");
    if (!started) co_return 1;
    id = started->id;
  } else {
    id = rows->front().id;
  }
  for (int step = 0; step < 8; ++step) {
    auto main = repository.load_thread(id);
    if (!main) {
      std::fprintf(stderr, "%s\n", main.err().message.c_str());
      co_return 1;
    }
    const auto& settings = main->settings;
    if (!settings.pending_tasks.empty()) {
      auto resumed = co_await runner.resume(id);
      if (!resumed) co_return 1;
      continue;
    }
    const auto suggested = settings.phase_update_suggestion ? settings.phase_update_suggestion->phase : "";
    if (suggested == flow::kCompletedPhase || settings.phase == flow::kCompletedPhase) {
      std::printf("DONE\n");
      co_return 0;
    }
    auto said = co_await runner.say(id, "Tea, for beginners");
    if (!said) co_return 1;
  }
  co_return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) return 2;
  auto agent = flow::yaml_flow::load(argv[1]);
  auto script = llm::load_scripted_script(argv[2]);
  auto log = open_sqlite_store(argv[3]);
  if (!agent || !script || !log) return 2;
  boost::asio::io_context io;
  flow::thread_repository repository(**log, io.get_executor());
  flow::ai_adapter ai(std::make_shared<announcing_provider>(std::make_shared<llm::scripted_provider>(*script)),
                      "article_writer", "scripted");
  flow::flow_runner runner(repository, ai, agent->factory("article_writer"), "article_writer");
  int status = 1;
  boost::asio::co_spawn(io, drive(runner, repository, **log),
                        [&status](std::exception_ptr failed, int code) { status = failed ? 1 : code; });
  io.run();
  (*log)->flush();
  return status;
}

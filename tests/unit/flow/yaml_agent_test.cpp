// The YAML form of a flow agent: the article example runs end to end on the scripted model, and
// every bad definition of issue 22's list is refused at load time with the file and the problem.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "flow_test_support.hpp"
#include "parley/flow/yaml_agent.hpp"
#include "parley/llm/scripted/scripted_provider.hpp"

namespace parley::flow {
namespace {

namespace fs = std::filesystem;

const fs::path kExample = fs::path(PARLEY_SOURCE_DIR) / "examples/flows/article_creation";

// A copy of the example to break one thing in.
struct example_copy {
  example_copy() {
    std::random_device device;
    dir = fs::temp_directory_path() / ("parley-flow-yaml-" + std::to_string(device()));
    fs::copy(kExample, dir, fs::copy_options::recursive);
  }
  ~example_copy() {
    std::error_code ignored;
    fs::remove_all(dir, ignored);
  }
  example_copy(const example_copy&) = delete;
  example_copy& operator=(const example_copy&) = delete;
  void write(const std::string& relative, const std::string& text) const { std::ofstream(dir / relative) << text; }
  std::string read(const std::string& relative) const {
    std::ifstream in(dir / relative);
    return {std::istreambuf_iterator<char>(in), {}};
  }
  void replace(const std::string& relative, const std::string& from, const std::string& to) const {
    auto text = read(relative);
    const auto at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
    write(relative, text);
  }
  fs::path dir;
};

std::string load_error(const fs::path& dir) {
  auto loaded = yaml_flow::load(dir);
  if (loaded) return "(loaded)";
  EXPECT_EQ(loaded.err().code, errc::config_error);
  return loaded.err().message;
}

struct yaml_agent_fixture : ::testing::Test {};
using YamlAgent = yaml_agent_fixture;

TEST_F(YamlAgent, TheArticleExampleRunsOnTheScriptedModel) {
  auto flow = yaml_flow::load(kExample);
  ASSERT_TRUE(flow) << flow.err().message;
  EXPECT_EQ(flow->agent_name(), "ArticleCreationAgent");
  auto script = llm::load_scripted_script(kExample / "script.yaml");
  ASSERT_TRUE(script) << script.err().message;
  test::host_fixture host([](const llm::model_request&) -> result<std::string> { return std::string(); });
  ai_adapter ai(std::make_shared<llm::scripted_provider>(*script), "article_writer", "scripted");
  flow_runner runner(host.repository, ai, flow->factory("article_writer"), "article_writer");

  auto first = test::run_on(host.io, runner.start("Write me an article"));
  ASSERT_TRUE(first) << first.err().message;
  EXPECT_EQ(first->messages.back().text, "What topic should the article cover, and who will read it?");
  auto done = test::run_on(host.io, runner.say(first->id, "Tea, for beginners"));
  ASSERT_TRUE(done) << done.err().message;
  ASSERT_EQ(done->messages.size(), 5U);
  EXPECT_EQ(done->messages[4].text, "Tea for beginners. Tea matters because ... (the article)");
  // The placeholder holds the outline and the review (summary: all_bots).
  EXPECT_NE(done->messages[3].text.find("2. Choosing leaves"), std::string::npos);
  EXPECT_NE(done->messages[3].text.find("Missing: a closing summary"), std::string::npos);
  const auto& outline = *done->messages[3].sub_thread;
  EXPECT_EQ(outline.messages[0].text, "Draft an outline for an article. The brief: Tea, for beginners");
  EXPECT_EQ(outline.messages[2].text, "Good. Now have the outline reviewed.");
  const auto& review = *outline.messages[3].sub_thread;
  // {{parent.last_bot}}: the outline, not the review's own placeholder.
  EXPECT_NE(review.messages[0].text.find("1. Why tea matters"), std::string::npos) << review.messages[0].text;
  EXPECT_EQ(review.settings.phase, "completed");
}

TEST_F(YamlAgent, AMissingPromptFileIsNamed) {
  example_copy copy;
  fs::remove(copy.dir / "prompt/outline_reviewing_system_prompt.md");
  const auto message = load_error(copy.dir);
  EXPECT_NE(message.find("OutlineReviewAgent.yaml"), std::string::npos) << message;
  EXPECT_NE(message.find("phase \"outline_reviewing\" is answered by the model but its prompt file"), std::string::npos)
      << message;
  EXPECT_NE(message.find("prompt/outline_reviewing_system_prompt.md cannot be read"), std::string::npos) << message;
}

TEST_F(YamlAgent, ACycleWithNoExitIsNamed) {
  example_copy copy;
  copy.replace("ArticleCreationAgent.yaml", "next: completed", "next: initial_phase");
  const auto message = load_error(copy.dir);
  EXPECT_NE(message.find("form a cycle with no way to completed"), std::string::npos) << message;
  EXPECT_NE(message.find("article_writing → initial_phase → prepare_subthread → execute_subthread → article_writing"),
            std::string::npos)
      << message;
}

TEST_F(YamlAgent, ANextThatNamesNoPhaseIsNamed) {
  example_copy copy;
  copy.replace("ArticleCreationAgent.yaml", "next: article_writing", "next: article_writting");
  const auto message = load_error(copy.dir);
  EXPECT_NE(message.find("phase \"execute_subthread\": next \"article_writting\" is not a phase of this agent"),
            std::string::npos)
      << message;
}

TEST_F(YamlAgent, PrepareWithoutExecuteIsRefused) {
  example_copy copy;
  copy.replace(
      "ArticleCreationAgent.yaml",
      "  execute_subthread:                  # §8.1 step two: the sub-thread, its result into the placeholder\n"
      "    kind: execute_subthread\n    subthread: outline_drafting\n    next: article_writing\n",
      "");
  copy.replace("ArticleCreationAgent.yaml", "next: execute_subthread", "next: article_writing");
  const auto message = load_error(copy.dir);
  EXPECT_NE(message.find("prepare_subthread and execute_subthread go together"), std::string::npos) << message;
}

TEST_F(YamlAgent, UnknownKeysPlaceholdersAndFoldersAreNamed) {
  {
    example_copy copy;
    copy.replace("ArticleCreationAgent.yaml", "kind: model\n    next: completed",
                 "kind: model\n    nxt: completed\n    next: completed");
    const auto message = load_error(copy.dir);
    EXPECT_NE(message.find("nxt"), std::string::npos) << message;
  }
  {
    example_copy copy;
    copy.replace("outline_drafting/OutlineDraftingAgent.yaml", "{{main.last_user}}", "{{main.topic}}");
    const auto message = load_error(copy.dir);
    EXPECT_NE(message.find("unknown placeholder {{main.topic}}"), std::string::npos) << message;
  }
  {
    example_copy copy;
    fs::remove_all(copy.dir / "outline_drafting/outline_review");
    const auto message = load_error(copy.dir);
    EXPECT_NE(message.find("outline_review: no such agent folder"), std::string::npos) << message;
  }
  {
    example_copy copy;
    copy.replace("ArticleCreationAgent.yaml", "  article_writing:", "  ArticleWriting:");
    const auto message = load_error(copy.dir);
    EXPECT_NE(message.find("is not snake_case"), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace parley::flow

#include <gtest/gtest.h>

#include <set>

#include "parley/tot/explorer.hpp"
#include "parley/tot/game24/game24_task.hpp"
#include "parley/tot/game24/noisy_model.hpp"
#include "parley/tot/game24/paper_bfs.hpp"
#include "parley/tot/game24/paper_prompts.hpp"
#include "parley/tot/model_agents.hpp"
#include "parley/tot/task_defaults.hpp"
#include "run_sync.hpp"

namespace parley::tot {
namespace {

using testing::run_sync;

std::string ask(llm::provider& model, std::string prompt, json::object params = {}) {
  llm::model_request request;
  request.messages.push_back({llm::role::user, std::move(prompt)});
  request.params = std::move(params);
  llm::stream_sink sink;
  llm::generation_control control;
  auto response = run_sync(model.stream(request, sink, control));
  EXPECT_TRUE(response);
  return response->saying;
}

TEST(TotNoisyModel, WithoutNoiseItProposesOnlyCorrectStepsAndValuesTruthfully) {
  game24::noisy_model model({});
  const auto proposal = ask(model, game24::propose_prompt("4 9 10 13"));
  EXPECT_NE(proposal.find("(left: "), std::string::npos);
  auto start = game24::state::from_puzzle("4 9 10 13");
  int lines = 0;
  for (std::size_t at = 0; at < proposal.size(); at = proposal.find('\n', at) + 1) {
    auto step = game24::parse_step(std::string_view(proposal).substr(at));
    ASSERT_TRUE(step);
    EXPECT_TRUE(start->apply(*step)) << proposal;
    ++lines;
  }
  EXPECT_EQ(lines, 8);
  EXPECT_EQ(ask(model, game24::value_prompt("4 6")).substr(ask(model, game24::value_prompt("4 6")).rfind('\n') + 1),
            "sure");
  EXPECT_NE(ask(model, game24::value_prompt("1 1 1")).find("impossible"), std::string::npos);
}

TEST(TotNoisyModel, TheSameQuestionGetsTheSameAnswerAndTheSeedParameterDrawsAnother) {
  game24::noise_settings noise;
  noise.misvalue_rate = 0.5;
  noise.arithmetic_error_rate = 0.5;
  game24::noisy_model a(noise);
  game24::noisy_model b(noise);
  EXPECT_EQ(ask(a, game24::propose_prompt("4 9 10 13")), ask(b, game24::propose_prompt("4 9 10 13")));
  std::set<std::string> answers;
  for (int sample = 0; sample < 8; ++sample) answers.insert(ask(a, game24::value_prompt("2 3 4"), {{"seed", sample}}));
  EXPECT_EQ(answers.size(), 2u);  // both judgements occur over eight samples at 50 %
}

explorer_options noisy_math_options() {
  const auto& d = defaults_for(task_type::math_reasoning);
  return {d.config, d.generation, d.evaluation, d.num_candidates};
}

TEST(TotNoisyModel, ParleysSearchSolvesThroughTheProviderInterface) {
  provider_channel channel(std::make_shared<game24::noisy_model>(game24::noise_settings{}), "noisy24");
  model_generator generator(channel, {});
  model_evaluator evaluator(channel, {});
  game24::game24_task task;
  explorer search(task, generator, evaluator, noisy_math_options());
  auto outcome = run_sync(search.run("t", "4 9 10 13", task_type::math_reasoning));
  EXPECT_TRUE(outcome.solved);
  EXPECT_EQ(outcome.complete.stats.llm_calls, channel.meter().calls);
  EXPECT_GT(channel.meter().calls, 1);
}

TEST(TotNoisyModel, ProseRepliesAreSentBackWithTheParseErrorThenBecomeInvalidFormat) {
  game24::noise_settings noise;
  noise.format_error_rate = 1.0;
  provider_channel channel(std::make_shared<game24::noisy_model>(noise), "noisy24");
  model_generator generator(channel, {});
  model_evaluator evaluator(channel, {});
  game24::game24_task task;
  explorer search(task, generator, evaluator, noisy_math_options());
  auto outcome = run_sync(search.run("t", "4 9 10 13", task_type::math_reasoning));
  ASSERT_TRUE(outcome.failure);
  EXPECT_EQ(outcome.failure->code, error_code::invalid_format);
  EXPECT_NE(outcome.failure->message.find("no valid generated_thoughts after 3 replies"), std::string::npos)
      << outcome.failure->message;
  EXPECT_EQ(channel.meter().calls, 3);
}

TEST(TotNoisyModel, ACallThatOutlivesItsTimeBecomesEvaluationTimeout) {
  game24::noise_settings noise;
  noise.delay_ms = 2000;
  provider_channel channel(std::make_shared<game24::noisy_model>(noise), "noisy24", std::chrono::milliseconds(20));
  model_generator generator(channel, {});
  auto answer = run_sync(generator.generate(generate_thoughts{
      thought_node{"root", std::nullopt, {}, 0, "4 9 10 13", "", std::nullopt, node_status::pending, {}},
      generation_strategy::sequential_proposal,
      5,
      {"4 9 10 13", "24", {}}}));
  ASSERT_TRUE(std::holds_alternative<protocol_error>(answer));
  EXPECT_EQ(std::get<protocol_error>(answer).code, error_code::evaluation_timeout);
  EXPECT_TRUE(std::get<protocol_error>(answer).recoverable);
}

TEST(TotNoisyModel, ThePapersSearchSolvesWithAnAccurateModelAndCountsItsCalls) {
  provider_channel channel(std::make_shared<game24::noisy_model>(game24::noise_settings{}), "noisy24");
  game24::paper_bfs search(channel);
  auto result = run_sync(search.solve("4 9 10 13"));
  EXPECT_TRUE(result.solved);
  EXPECT_EQ(result.model_calls, channel.meter().calls);
  EXPECT_GT(result.model_calls, result.prompts);
}

}  // namespace
}  // namespace parley::tot

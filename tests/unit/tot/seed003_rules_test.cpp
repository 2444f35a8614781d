// Seed 003's rules, each checked on a whole run through Parley's engine. The six roles are played
// by the offline Game of 24 model behind a wrapper that can wrap its replies (plain JSON, a ```json
// fence, prose around the JSON), delay them by an amount that depends on the reply (so concurrent
// calls come back in a different order per wrapping), or replace a role's reply. Each test quotes
// the rule it checks.
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/serialize.hpp>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "parley/engine/assembly.hpp"
#include "parley/engine/engine.hpp"
#include "parley/store/memory_store.hpp"
#include "parley/tot/game24/noisy_model.hpp"
#include "parley/tot/protocol_json.hpp"
#include "parley/tot/run_log.hpp"
#include "parley/tot/tot_run.hpp"
#include "parley/tot/tot_team.hpp"

namespace parley::tot {
namespace {

namespace fs = std::filesystem;

enum class wrapping { plain, fence, prose };

// Replaces a role's reply: given the request message and the model's reply, the reply to send.
using reply_hook = std::function<std::string(const message& asked, std::string reply)>;

class wrapping_model final : public llm::provider {
 public:
  wrapping_model(wrapping wrap, reply_hook hook)
      : inner_(std::make_shared<game24::noisy_model>(game24::noise_settings{})), wrap_(wrap), hook_(std::move(hook)) {}

  boost::asio::awaitable<result<llm::model_response>> stream(const llm::model_request& request, llm::stream_sink& sink,
                                                             llm::generation_control& control) override {
    auto answer = co_await inner_->stream(request, sink, control);
    if (!answer) co_return answer;
    std::string reply = answer->saying;
    if (hook_) {
      for (auto it = request.messages.rbegin(); it != request.messages.rend(); ++it) {
        auto asked = parse_message(it->content);
        if (it->role != llm::role::user || !asked) continue;
        reply = hook_(*asked, std::move(reply));
        break;
      }
    }
    if (wrap_ == wrapping::fence) reply = "```json\n" + reply + "\n```";
    if (wrap_ == wrapping::prose) reply = "Here is my answer, as asked:\n" + reply + "\nI hope it helps.";
    // How long a reply takes depends on its text, as a real model's does: concurrent calls come
    // back in an order that differs per wrapping.
    const auto pause_ms = std::hash<std::string>{}(reply) % 4;
    boost::asio::steady_timer pause(co_await boost::asio::this_coro::executor, std::chrono::milliseconds(pause_ms));
    co_await pause.async_wait(boost::asio::use_awaitable);
    answer->saying = std::move(reply);
    co_return answer;
  }
  std::string_view kind() const override { return "scripted"; }

 private:
  std::shared_ptr<game24::noisy_model> inner_;
  wrapping wrap_;
  reply_hook hook_;
};

std::string s3_read_text(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<log_entry> s3_entries_of(const fs::path& file) {
  std::vector<log_entry> out;
  std::istringstream text(s3_read_text(file));
  for (std::string line; std::getline(text, line);) {
    if (auto entry = read_json_line(line)) out.push_back(std::move(*entry));
  }
  return out;
}

std::vector<std::string> s3_names_in(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& item : fs::directory_iterator(dir)) names.push_back(item.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// Every request message the run's log holds for `role` (the files' `data.request`).
std::vector<message> s3_requests_to(const fs::path& dir, std::string_view role) {
  std::vector<message> out;
  for (const auto& name : s3_names_in(dir)) {
    if (!name.ends_with(".log") || name.starts_with("99-")) continue;
    for (const auto& entry : s3_entries_of(dir / name)) {
      const auto* r = entry.data.if_contains("role");
      const auto* text = entry.data.if_contains("request");
      if (r == nullptr || text == nullptr || r->as_string() != role || !entry.data.contains("reply")) continue;
      auto read = parse_message(text->as_string());
      if (read) out.push_back(std::move(*read));
    }
  }
  return out;
}

// The first entry of a file whose data holds `key`.
std::optional<log_entry> s3_entry_with(const fs::path& file, std::string_view key) {
  for (auto& entry : s3_entries_of(file)) {
    if (entry.data.contains(key)) return entry;
  }
  return std::nullopt;
}

std::string s3_decomposition_text(std::int64_t depth, std::vector<std::string> constraints) {
  decomposition_result d{"equation", {"Step 1", "Step 2"}, depth, std::move(constraints), "equals 24"};
  return to_text(message{agent_role::decomposer, "orchestrator", d, "", std::nullopt});
}

// A reply that breaks the protocol's bounds is written as text by hand (to_text would not make one).
std::string s3_decomposition_with_depth(std::int64_t depth) {
  return R"({"type":"decomposition_result","payload":{"thought_granularity":"equation","intermediate_steps":["a"],)"
         R"("depth_estimate":)" +
         std::to_string(depth) + R"(,"constraints":[],"success_criteria":"24"}})";
}

class seed003_fixture : public ::testing::Test {
 protected:
  void SetUp() override {
    data_dir_ = fs::temp_directory_path() / ("parley-tot-seed003-" + std::to_string(::getpid()) + "-" +
                                             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(data_dir_);
    fs::create_directories(data_dir_);
  }
  void TearDown() override { fs::remove_all(data_dir_); }

  result<tot_outcome> run(tot_request request, reply_hook hook = {}, wrapping wrap = wrapping::plain,
                          std::string language = "en", tot_progress* progress = nullptr) {
    boost::asio::io_context io;
    config::team_config team;
    team.workspace = data_dir_;
    team.language = std::move(language);
    add_tot_members(team, task_type::math_reasoning, "wrapped", "wrapped");
    engine::provider_map providers;
    providers.emplace("wrapped", std::make_shared<wrapping_model>(wrap, std::move(hook)));
    log_ = make_memory_store();
    auto made =
        engine::engine::create(io.get_executor(), *log_, team, std::move(providers), engine::build_builtin_tools());
    EXPECT_TRUE(made) << made.err().message;
    engine_ = std::move(*made);
    tot_runner runner(*engine_, run_logs::in(data_dir_ / "logs"), progress);
    std::optional<result<tot_outcome>> out;
    boost::asio::co_spawn(
        io, [&]() -> boost::asio::awaitable<void> { out = co_await runner.run(request); }, boost::asio::detached);
    io.run();
    return std::move(*out);
  }

  fs::path data_dir_;
  std::unique_ptr<store> log_;
  std::unique_ptr<engine::engine> engine_;
};
using TotSeed003 = seed003_fixture;

// 'depth_estimate: 预估树深度' — the decomposer's estimate is the search's depth.
TEST_F(TotSeed003, TheDecomposersDepthEstimateSetsTheSearchDepth) {
  const reply_hook depth_two = [](const message& asked, std::string reply) {
    return std::holds_alternative<decompose_task>(asked.payload) ? s3_decomposition_text(2, {}) : reply;
  };
  auto outcome = run({.problem = "4 9 10 13"}, depth_two);
  ASSERT_TRUE(outcome) << outcome.err().message;
  ASSERT_TRUE(outcome->tree);
  EXPECT_EQ(outcome->tree->search_config.max_depth, 2);
  for (const auto& [id, node] : outcome->nodes) EXPECT_LE(node.depth, 2) << id;
  auto info = parse_json(s3_read_text(outcome->log_dir / "00-task-info.json"));
  ASSERT_TRUE(info);
  EXPECT_EQ(info->at("search_config").at("max_depth").as_int64(), 2);
  // A depth the caller gave stands.
  auto fixed = run({.problem = "4 9 10 13", .depth = 3}, depth_two);
  ASSERT_TRUE(fixed) << fixed.err().message;
  EXPECT_EQ(fixed->tree->search_config.max_depth, 3);
  EXPECT_TRUE(fixed->solved);
}

// 'constraints: 任务约束' go into generate_thoughts' 'context: {problem, goal, constraints}', and
// every message carries the run's 'task_id'.
TEST_F(TotSeed003, TheDecomposersConstraintsAndTheTaskIdAreInEveryRequest) {
  const std::vector<std::string> constraints{"use each number exactly once", "only + - * /"};
  const reply_hook decomposer = [&](const message& asked, std::string reply) {
    return std::holds_alternative<decompose_task>(asked.payload) ? s3_decomposition_text(3, constraints) : reply;
  };
  auto outcome = run({.problem = "4 9 10 13"}, decomposer);
  ASSERT_TRUE(outcome) << outcome.err().message;
  EXPECT_TRUE(outcome->solved);
  const auto generated = s3_requests_to(outcome->log_dir, "generator");
  ASSERT_FALSE(generated.empty());
  for (const auto& m : generated) {
    EXPECT_EQ(m.task_id, outcome->task_id);
    const auto& context = std::get<generate_thoughts>(m.payload).context;
    ASSERT_GE(context.constraints.size(), 2u);
    EXPECT_EQ(context.constraints[0], constraints[0]);
    EXPECT_EQ(context.constraints[1], constraints[1]);
  }
  for (const char* role : {"evaluator", "decomposer", "synthesizer"}) {
    const auto asked = s3_requests_to(outcome->log_dir, role);
    EXPECT_FALSE(asked.empty()) << role;
    for (const auto& m : asked) EXPECT_EQ(m.task_id, outcome->task_id) << role;
  }
}

// '"depth_estimate": "number" // 预估树深度' within the search's 1–10, and 'error {code, message,
// recoverable}': a decomposition outside it ends the run with INVALID_FORMAT, logged by the orchestrator.
TEST_F(TotSeed003, ADepthEstimateOutsideOneToTenEndsTheRunWithInvalidFormat) {
  const reply_hook too_deep = [](const message& asked, std::string reply) {
    return std::holds_alternative<decompose_task>(asked.payload) ? s3_decomposition_with_depth(11) : reply;
  };
  auto outcome = run({.problem = "4 9 10 13"}, too_deep);
  ASSERT_TRUE(outcome) << outcome.err().message;
  EXPECT_FALSE(outcome->solved);
  ASSERT_TRUE(outcome->error);
  EXPECT_EQ(outcome->error->code, error_code::invalid_format);
  EXPECT_NE(outcome->error->message.find("depth_estimate"), std::string::npos) << outcome->error->message;
  const auto logged = s3_entry_with(outcome->log_dir / "01-orchestrator.log", "error");
  ASSERT_TRUE(logged);
  EXPECT_EQ(logged->level, "error");
  EXPECT_EQ(logged->data.at("error").at("code").as_string(), "INVALID_FORMAT");
  EXPECT_FALSE(fs::exists(outcome->log_dir / "03-explorer.log")) << "no search";
}

// 'constraints: 任务约束' that contradict each other leave no thought that keeps them: an error.
TEST_F(TotSeed003, ContradictoryConstraintsEndTheRunWithAnErrorNamingThem) {
  const reply_hook contradicting = [](const message& asked, std::string reply) {
    return std::holds_alternative<decompose_task>(asked.payload)
               ? s3_decomposition_text(3, {"Use each number exactly once", "do not use each number exactly once."})
               : reply;
  };
  auto outcome = run({.problem = "4 9 10 13"}, contradicting);
  ASSERT_TRUE(outcome) << outcome.err().message;
  ASSERT_TRUE(outcome->error);
  EXPECT_EQ(outcome->error->code, error_code::invalid_format);
  EXPECT_FALSE(outcome->error->recoverable);
  EXPECT_NE(outcome->error->message.find("contradict"), std::string::npos) << outcome->error->message;
  const auto logged = s3_entry_with(outcome->log_dir / "01-orchestrator.log", "error");
  ASSERT_TRUE(logged);
  EXPECT_NE(logged->msg.find("constraints"), std::string::npos) << logged->msg;
}

// '4. Orchestrator ↔ Explorer: initialize_search → search_complete', exchanged and logged.
TEST_F(TotSeed003, InitializeSearchAndSearchCompleteAreExchangedAndLogged) {
  auto outcome = run({.problem = "4 9 10 13"});
  ASSERT_TRUE(outcome) << outcome.err().message;
  ASSERT_TRUE(outcome->solved);
  const auto sent = s3_entry_with(outcome->log_dir / "01-orchestrator.log", "message");
  ASSERT_TRUE(sent);
  const auto& init = sent->data.at("message").as_object();
  EXPECT_EQ(init.at("type").as_string(), "initialize_search");
  EXPECT_EQ(init.at("to").as_string(), "explorer");
  EXPECT_EQ(init.at("task_id").as_string(), outcome->task_id);
  EXPECT_EQ(init.at("payload").at("decomposition_result").at("depth_estimate").as_int64(), 3);
  const auto explorer_entries = s3_entries_of(outcome->log_dir / "03-explorer.log");
  ASSERT_GE(explorer_entries.size(), 2u);
  EXPECT_EQ(explorer_entries.front().data.at("message").at("type").as_string(), "initialize_search");
  const auto& done = explorer_entries.back().data.at("message").as_object();
  EXPECT_EQ(done.at("type").as_string(), "search_complete");
  EXPECT_EQ(done.at("payload").at("stats").at("total_nodes").as_int64(), outcome->stats.total_nodes);
  EXPECT_EQ(done.at("payload").at("best_path").as_array().size(), outcome->best_path.size());
  auto read = parse_message(json::serialize(done));
  EXPECT_TRUE(read) << "search_complete reads back as the protocol's message: " << read.err().message;
  bool received = false;
  for (const auto& entry : s3_entries_of(outcome->log_dir / "01-orchestrator.log")) {
    if (const auto* type = entry.data.if_contains("type"))
      received = received || type->as_string() == "search_complete";
  }
  EXPECT_TRUE(received);
}

std::string s3_role_error(std::string_view type, std::string_view code, bool recoverable) {
  return R"({"type":")" + std::string(type) + R"(","error":{"code":")" + std::string(code) +
         R"(","message":"the role says no","recoverable":)" + (recoverable ? "true" : "false") + "}}";
}

// '"recoverable": "boolean"' — a recoverable error from a role is asked again.
TEST_F(TotSeed003, ARecoverableErrorFromARoleIsRetriedAndLogged) {
  int generator_calls = 0;
  const reply_hook busy_once = [&](const message& asked, std::string reply) {
    if (!std::holds_alternative<generate_thoughts>(asked.payload) || generator_calls++ > 0) return reply;
    return s3_role_error("generated_thoughts", "GENERATION_FAILED", true);
  };
  auto outcome = run({.problem = "4 9 10 13"}, busy_once);
  ASSERT_TRUE(outcome) << outcome.err().message;
  EXPECT_TRUE(outcome->solved);
  EXPECT_FALSE(outcome->error);
  const auto logged = s3_entry_with(outcome->log_dir / "04-generator-round1.log", "error");
  ASSERT_TRUE(logged);
  EXPECT_EQ(logged->data.at("error").at("code").as_string(), "GENERATION_FAILED");
  EXPECT_EQ(logged->data.at("error").at("recoverable").as_bool(), true);
  const auto explorer_saw = s3_entry_with(outcome->log_dir / "03-explorer.log", "error");
  ASSERT_TRUE(explorer_saw);
  EXPECT_EQ(explorer_saw->data.at("attempt").as_int64(), 1);
}

// A role's error that is not recoverable ends the run with that code.
TEST_F(TotSeed003, ANonRecoverableErrorFromARoleEndsTheRunWithItsCode) {
  const reply_hook refuse = [](const message& asked, std::string reply) {
    if (!std::holds_alternative<evaluate_thoughts>(asked.payload)) return reply;
    return s3_role_error("evaluation_results", "EVALUATION_TIMEOUT", false);
  };
  auto outcome = run({.problem = "4 9 10 13"}, refuse);
  ASSERT_TRUE(outcome) << outcome.err().message;
  EXPECT_FALSE(outcome->solved);
  ASSERT_TRUE(outcome->error);
  EXPECT_EQ(outcome->error->code, error_code::evaluation_timeout);
  ASSERT_FALSE(outcome->solution.verification.validation_errors.empty());
  EXPECT_EQ(outcome->solution.verification.validation_errors[0].rfind("EVALUATION_TIMEOUT", 0), 0u);
  bool logged = false;
  for (const auto& entry : s3_entries_of(outcome->log_dir / "01-orchestrator.log")) {
    if (const auto* error = entry.data.if_contains("error"))
      logged = logged || error->at("code").as_string() == "EVALUATION_TIMEOUT";
  }
  EXPECT_TRUE(logged);
}

// '"metadata": {}' of a generated candidate stays on its ThoughtNode.
TEST_F(TotSeed003, ACandidatesMetadataIsKeptOnItsNode) {
  const reply_hook tag = [](const message& asked, std::string reply) {
    if (!std::holds_alternative<generate_thoughts>(asked.payload)) return reply;
    auto thoughts = parse_reply<generated_thoughts>(reply);
    if (!thoughts) return reply;
    for (auto& c : thoughts->candidates) c.metadata["proposed_by"] = "test-model";
    return to_text(message{agent_role::generator, "explorer", *thoughts, "", std::nullopt});
  };
  auto outcome = run({.problem = "4 9 10 13"}, tag);
  ASSERT_TRUE(outcome) << outcome.err().message;
  int tagged = 0;
  for (const auto& [id, node] : outcome->nodes) {
    if (!node.parent_id) continue;
    EXPECT_EQ(node.metadata.at("proposed_by").as_string(), "test-model") << id;
    EXPECT_TRUE(node.metadata.contains("numbers") || node.status == node_status::pruned) << id;
    ++tagged;
  }
  EXPECT_GT(tagged, 0);
}

// '10. Explorer → Synthesizer 传递最佳路径; 11. Synthesizer → Explorer → Orchestrator 返回最终答案'
// — for Game of 24 too, in its own file without a round ('08-synthesizer.log').
TEST_F(TotSeed003, GameOf24AsksTheSynthesizerAndVerifiesItsAnswer) {
  auto outcome = run({.problem = "4 9 10 13"});
  ASSERT_TRUE(outcome) << outcome.err().message;
  EXPECT_TRUE(outcome->solved);
  EXPECT_TRUE(outcome->solution.verification.is_valid);
  EXPECT_EQ(s3_requests_to(outcome->log_dir, "synthesizer").size(), 1u);
  const auto names = s3_names_in(outcome->log_dir);
  EXPECT_EQ(
      std::count_if(names.begin(), names.end(), [](const std::string& n) { return n.ends_with("-synthesizer.log"); }),
      1);
}

// A wrong synthesis is an error the run reports, never replaced by an answer written in code.
TEST_F(TotSeed003, AWrongSynthesisIsReportedNotReplaced) {
  const reply_hook wrong = [](const message& asked, std::string reply) {
    if (!std::holds_alternative<synthesize_solution>(asked.payload)) return reply;
    final_solution lie;
    lie.answer = "(4 + 9) + (10 + 13) = 24";
    lie.confidence = 1;
    lie.verification.is_valid = true;
    return to_text(message{agent_role::synthesizer, "explorer", lie, "", std::nullopt});
  };
  auto outcome = run({.problem = "4 9 10 13"}, wrong);
  ASSERT_TRUE(outcome) << outcome.err().message;
  EXPECT_FALSE(outcome->solved);
  EXPECT_EQ(outcome->solution.answer, "(4 + 9) + (10 + 13) = 24");
  EXPECT_FALSE(outcome->solution.verification.is_valid);
  ASSERT_TRUE(outcome->error);
  EXPECT_NE(outcome->error->message.find("does not check"), std::string::npos) << outcome->error->message;
  auto info = s3_read_text(outcome->log_dir / "00-task-info.json");
  EXPECT_NE(info.find("\"status\":\"failed\""), std::string::npos);
}

// '{序号}-{agent名称}-{可选轮次}.log … 轮次: 如果同一个 agent 被多次调用,添加 round1, round2' and
// the ThoughtTree's 'search_state: {current_depth, frontier, best_path}' in the folder.
TEST_F(TotSeed003, TheLogFolderHasOneFilePerAgentAndRoundAndTheThoughtTree) {
  auto outcome = run({.problem = "4 9 10 13"});
  ASSERT_TRUE(outcome) << outcome.err().message;
  const auto names = s3_names_in(outcome->log_dir);
  const std::vector<std::string> head{"00-task-info.json", "01-orchestrator.log",     "02-decomposer.log",
                                      "03-explorer.log",   "04-generator-round1.log", "05-evaluator-round1.log"};
  ASSERT_GT(names.size(), head.size());
  EXPECT_EQ(std::vector<std::string>(names.begin(), names.begin() + 6), head);
  EXPECT_EQ(names[names.size() - 2], kThoughtTreeFile);
  EXPECT_EQ(names.back(), "99-merged-timeline.log");
  int generator_rounds = 0;
  for (const auto& n : names) generator_rounds += n.find("-generator-round") != std::string::npos ? 1 : 0;
  EXPECT_EQ(generator_rounds, 3) << "a file per round of the three levels, not per call";
  EXPECT_LT(names.size(), static_cast<std::size_t>(outcome->stats.llm_calls));
  auto tree = parse_json(s3_read_text(outcome->log_dir / kThoughtTreeFile));
  ASSERT_TRUE(tree);
  auto read = read_thought_tree(*tree);
  ASSERT_TRUE(read) << read.err().message;
  EXPECT_EQ(read->search_state.best_path, outcome->best_path);
  EXPECT_EQ(read->nodes.size(), outcome->nodes.size());
  EXPECT_EQ(read->task_id, outcome->task_id);
}

// An agent called in one round only has no round in its name.
TEST_F(TotSeed003, AnAgentCalledInOneRoundOnlyHasNoRoundInItsName) {
  auto outcome = run({.problem = "4 9 10 13", .depth = 1});
  ASSERT_TRUE(outcome) << outcome.err().message;
  const auto names = s3_names_in(outcome->log_dir);
  EXPECT_NE(std::find(names.begin(), names.end(), "04-generator.log"), names.end()) << names.size();
  for (const auto& n : names) EXPECT_EQ(n.find("-round1"), std::string::npos) << n;
}

// docs/tot.md: the search is deterministic given its replies — whatever their wrapping.
TEST_F(TotSeed003, TheSamePuzzleThroughTheSameRepliesWrappedDifferentlyGivesTheSameAnswer) {
  std::vector<tot_outcome> outcomes;
  for (const wrapping wrap : {wrapping::plain, wrapping::fence, wrapping::prose}) {
    auto outcome = run({.problem = "1 1 4 6"}, {}, wrap);
    ASSERT_TRUE(outcome) << outcome.err().message;
    ASSERT_TRUE(outcome->solved);
    outcomes.push_back(std::move(*outcome));
  }
  for (std::size_t i = 1; i < outcomes.size(); ++i) {
    EXPECT_EQ(outcomes[i].solution.answer, outcomes[0].solution.answer) << "wrapping " << i;
    EXPECT_EQ(outcomes[i].best_path, outcomes[0].best_path) << "wrapping " << i;
    ASSERT_EQ(outcomes[i].nodes.size(), outcomes[0].nodes.size()) << "wrapping " << i;
    for (const auto& [id, node] : outcomes[0].nodes) {
      EXPECT_EQ(json::serialize(to_json(outcomes[i].nodes.at(id))), json::serialize(to_json(node))) << id;
    }
  }
}

class collected_lines final : public tot_progress {
 public:
  void on_log(std::string_view, const std::string& msg) override { lines.push_back(msg); }
  std::vector<std::string> lines;
};

// Progress lines follow the team's `language` (en | zh), as the runtime's other text.
TEST_F(TotSeed003, ProgressLinesFollowTheTeamsLanguage) {
  collected_lines english;
  ASSERT_TRUE(run({.problem = "4 9 10 13"}, {}, wrapping::plain, "en", &english));
  ASSERT_FALSE(english.lines.empty());
  for (const auto& line : english.lines) EXPECT_EQ(line.find("层"), std::string::npos) << line;
  EXPECT_NE(english.lines.front().find("initialized"), std::string::npos) << english.lines.front();
  collected_lines chinese;
  auto zh = run({.problem = "4 9 10 13"}, {}, wrapping::plain, "zh", &chinese);
  ASSERT_TRUE(zh);
  ASSERT_FALSE(chinese.lines.empty());
  EXPECT_NE(chinese.lines.front().find("初始化完成"), std::string::npos) << chinese.lines.front();
  EXPECT_NE(s3_read_text(zh->log_dir / "01-orchestrator.log").find("问题类型"), std::string::npos);
}

// 'generation_strategy: independent_sampling|sequential_proposal', 'evaluation_strategy:
// independent_scoring|comparative_voting' — chosen by the caller, sent as named.
TEST_F(TotSeed003, TheCallersGenerationAndEvaluationStrategiesAreSent) {
  tot_request request{.problem = "4 9 10 13"};
  request.generation = "independent_sampling";
  request.evaluation = "comparative_voting";
  auto outcome = run(request);
  ASSERT_TRUE(outcome) << outcome.err().message;
  const auto generated = s3_requests_to(outcome->log_dir, "generator");
  ASSERT_FALSE(generated.empty());
  for (const auto& m : generated) {
    const auto& g = std::get<generate_thoughts>(m.payload);
    EXPECT_EQ(g.generation_strategy, generation_strategy::independent_sampling);
    EXPECT_EQ(g.num_candidates, 1);
  }
  for (const auto& m : s3_requests_to(outcome->log_dir, "evaluator"))
    EXPECT_EQ(std::get<evaluate_thoughts>(m.payload).evaluation_strategy, evaluation_strategy::comparative_voting);
  tot_request bad{.problem = "4 9 10 13"};
  bad.generation = "guessing";
  auto refused = check_request(bad);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.err().message.rfind("generation_strategy: 'guessing' is not one of", 0), 0u)
      << refused.err().message;
}

}  // namespace
}  // namespace parley::tot

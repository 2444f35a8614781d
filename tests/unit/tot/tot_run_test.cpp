// A whole ToT run through Parley's engine, the six roles played by the offline noisy model:
// the seed's log folder, each agent call a subdialog of the run's root, what the members are
// told, how failures end the run, and --resume.
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <boost/json/serialize.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "parley/engine/assembly.hpp"
#include "parley/engine/engine.hpp"
#include "parley/llm/scripted/scripted_provider.hpp"
#include "parley/store/memory_store.hpp"
#include "parley/tot/durable_run.hpp"
#include "parley/tot/engine_channel.hpp"
#include "parley/tot/game24/noisy_model.hpp"
#include "parley/tot/protocol_json.hpp"
#include "parley/tot/run_log.hpp"
#include "parley/tot/tot_run.hpp"
#include "parley/tot/tot_team.hpp"
#include "parley/tot/tot_tool.hpp"
#include "run_sync.hpp"

namespace parley::tot {
namespace {

namespace fs = std::filesystem;

std::string read_text(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

class tot_run_fixture : public ::testing::Test {
 protected:
  void SetUp() override {
    data_dir_ = fs::temp_directory_path() / ("parley-tot-" + std::to_string(::getpid()) + "-" +
                                             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(data_dir_);
    fs::create_directories(data_dir_);
  }
  void TearDown() override { fs::remove_all(data_dir_); }

  // Runs `request` on a fresh engine over `log_` with the noisy model set to `noise`.
  result<tot_outcome> run(tot_request request, game24::noise_settings noise = {},
                          std::optional<std::string> resume_id = std::nullopt) {
    boost::asio::io_context io;
    config::team_config team;
    team.workspace = data_dir_;
    add_tot_members(team, task_type::math_reasoning, "noisy24", "noisy24");
    engine::provider_map providers;
    providers.emplace("noisy24", std::make_shared<game24::noisy_model>(noise));
    auto made =
        engine::engine::create(io.get_executor(), *log_, team, std::move(providers), engine::build_builtin_tools());
    EXPECT_TRUE(made) << made.err().message;
    engine_ = std::move(*made);
    tot_runner runner(*engine_, logs());
    std::optional<result<tot_outcome>> out;
    boost::asio::co_spawn(
        io,
        [&]() -> boost::asio::awaitable<void> {
          if (resume_id) {
            std::string id = *resume_id;
            out = co_await runner.resume(std::move(id), request);
          } else {
            out = co_await runner.run(request);
          }
        },
        boost::asio::detached);
    io.run();
    return std::move(*out);
  }

  std::vector<dialog_row> subdialogs_of(const std::string& root) {
    dialog_filter filter;
    filter.root_id = root;
    std::vector<dialog_row> subs;
    for (auto& row : log_->list_dialogs(filter).value()) {
      if (!row.parent_id.empty()) subs.push_back(row);
    }
    return subs;
  }

  // The workspace is the data directory here, so the seed's logs/ is DATA/logs too.
  run_logs logs() const { return run_logs::of(data_dir_, data_dir_); }
  fs::path data_dir_;
  std::unique_ptr<store> log_ = make_memory_store();
  std::unique_ptr<engine::engine> engine_;
};
using TotRun = tot_run_fixture;

TEST_F(TotRun, SolvesAndWritesTheSeedsLogFolder) {
  auto outcome = run({.problem = "4 9 10 13"});
  ASSERT_TRUE(outcome) << outcome.err().message;
  EXPECT_TRUE(outcome->solved);
  EXPECT_TRUE(outcome->solution.verification.is_valid) << outcome->solution.answer;
  EXPECT_TRUE(std::regex_match(outcome->task_id, std::regex("tot-\\d{8}-\\d{6}-[a-z0-9]{6}")));
  EXPECT_EQ(outcome->log_dir, data_dir_ / "logs" / outcome->task_id);

  auto info = parse_json(read_text(outcome->log_dir / "00-task-info.json"));
  ASSERT_TRUE(info);
  for (const char* key :
       {"task_id", "problem", "task_type", "start_time", "end_time", "duration_ms", "search_config", "final_stats"}) {
    EXPECT_TRUE(info->as_object().contains(key)) << key;
  }
  EXPECT_EQ(json_int_or(*json_object_at(info->as_object(), "final_stats"), "llm_calls"), outcome->stats.llm_calls);

  std::vector<std::string> names;
  for (const auto& item : fs::directory_iterator(outcome->log_dir)) names.push_back(item.path().filename().string());
  std::sort(names.begin(), names.end());
  ASSERT_GE(names.size(), 6u);
  EXPECT_EQ(names[0], "00-task-info.json");
  EXPECT_EQ(names[1], "01-orchestrator.log");
  EXPECT_EQ(names[2], "02-decomposer.log");
  EXPECT_EQ(names[3], "03-explorer.log");
  EXPECT_EQ(names[4], "04-generator-round1.log");
  EXPECT_EQ(names.back(), "99-merged-timeline.log");
  std::size_t lines = 0;
  for (const auto& name : names) {
    if (name.ends_with(".json") || name == "99-merged-timeline.log") continue;  // also 98-thought-tree.json
    EXPECT_TRUE(std::regex_match(name, std::regex("\\d{2,}-(orchestrator|decomposer|explorer|generator|evaluator|"
                                                  "synthesizer)(-round\\d+)?\\.log")))
        << name;
    std::istringstream text(read_text(outcome->log_dir / name));
    std::int64_t expected_seq = 1;
    for (std::string line; std::getline(text, line);) {
      auto entry = read_json_line(line);
      ASSERT_TRUE(entry) << name << ": " << line;
      EXPECT_EQ(entry->seq, expected_seq++);
      EXPECT_TRUE(entry->level == "info" || entry->level == "progress" || entry->level == "warning" ||
                  entry->level == "error");
      ++lines;
    }
  }
  const auto timeline = read_text(outcome->log_dir / "99-merged-timeline.log");
  EXPECT_EQ(timeline.rfind("# ToT 执行时间线\n\n任务 ID: " + outcome->task_id + "\n问题: 4 9 10 13\n", 0), 0u);
  EXPECT_NE(timeline.find("统计信息:\n- 总日志条目: " + std::to_string(lines) +
                          " 条\n- Agent 调用次数: " + std::to_string(names.size() - 3) +
                          "\n- LLM 调用次数: " + std::to_string(outcome->stats.llm_calls) + " 次\n"),
            std::string::npos)
      << timeline.substr(timeline.size() - 200);
  EXPECT_TRUE(
      std::regex_search(timeline, std::regex("\\n\\[\\d{2}:\\d{2}:\\d{2}\\.\\d{3}\\] \\[01-orchestrator\\] 📋")));
}

TEST_F(TotRun, EachAgentCallIsASubdialogOfTheRunsRootHeldByItsRoleMember) {
  auto outcome = run({.problem = "4 9 10 13"});
  ASSERT_TRUE(outcome) << outcome.err().message;
  const auto subs = subdialogs_of(outcome->root_dialog);
  EXPECT_EQ(static_cast<std::int64_t>(subs.size()), outcome->stats.llm_calls);
  std::set<std::string> members;
  for (const auto& sub : subs) {
    EXPECT_EQ(sub.parent_id, outcome->root_dialog);
    EXPECT_EQ(sub.call_kind, events::call_kind::tot);
    members.insert(sub.member_id);
  }
  EXPECT_EQ(members, (std::set<std::string>{"tot-decomposer", "tot-generator", "tot-evaluator", "tot-synthesizer"}));
}

TEST_F(TotRun, TheGeneratorIsToldItsRoleAndTheProtocolRequest) {
  auto outcome = run({.problem = "4 9 10 13"});
  ASSERT_TRUE(outcome) << outcome.err().message;
  for (const auto& sub : subdialogs_of(outcome->root_dialog)) {
    if (sub.member_id != "tot-generator") continue;
    auto loaded = engine_->dialogs().load(sub.id);
    ASSERT_TRUE(loaded);
    auto request = engine_->members().model_request_for(**loaded);
    ASSERT_TRUE(request) << request.err().message;
    EXPECT_NE(request->system_prompt.find("You are the generator"), std::string::npos);
    EXPECT_NE(request->system_prompt.find("Reply with exactly one JSON object"), std::string::npos);
    EXPECT_TRUE(request->tools == nullptr || request->tools->empty());
    ASSERT_FALSE(request->messages.empty());
    auto asked = parse_message(request->messages.front().content);
    ASSERT_TRUE(asked) << asked.err().message;
    const auto* generate = std::get_if<generate_thoughts>(&asked->payload);
    ASSERT_NE(generate, nullptr);
    EXPECT_EQ(generate->generation_strategy, generation_strategy::sequential_proposal);
    EXPECT_EQ(generate->context.problem, "4 9 10 13");
    return;
  }
  FAIL() << "no generator call";
}

TEST_F(TotRun, ProseRepliesAreCorrectedThenTheRunEndsWithAFinalSolutionSayingInvalidFormat) {
  game24::noise_settings noise;
  noise.format_error_rate = 1.0;
  auto outcome = run({.problem = "4 9 10 13"}, noise);
  ASSERT_TRUE(outcome) << outcome.err().message;
  EXPECT_FALSE(outcome->solved);
  ASSERT_FALSE(outcome->solution.verification.validation_errors.empty());
  EXPECT_EQ(outcome->solution.verification.validation_errors[0].rfind(
                "INVALID_FORMAT: generator: no valid generated_thoughts after 3 replies", 0),
            0u)
      << outcome->solution.verification.validation_errors[0];
  const auto subs = subdialogs_of(outcome->root_dialog);
  ASSERT_EQ(subs.size(), 2u);  // the decomposer's, and the generator's three replies in one conversation
  const auto& generator = subs[0].member_id == "tot-generator" ? subs[0] : subs[1];
  const auto said = log_->messages(generator.id, 1).value();
  ASSERT_EQ(said.size(), 6u);
  EXPECT_NE(said[2].content.find("Your reply is not a valid generated_thoughts message: invalid JSON"),
            std::string::npos)
      << said[2].content;
  const auto info = read_text(outcome->log_dir / "00-task-info.json");
  EXPECT_NE(info.find("\"status\":\"failed\""), std::string::npos);
}

TEST_F(TotRun, ACallThatOutlivesItsTimeEndsTheRunWithEvaluationTimeout) {
  game24::noise_settings noise;
  noise.delay_ms = 5000;
  tot_request request{.problem = "4 9 10 13"};
  request.call_timeout = std::chrono::milliseconds(30);
  auto outcome = run(request, noise);
  ASSERT_TRUE(outcome) << outcome.err().message;
  EXPECT_FALSE(outcome->solved);
  ASSERT_FALSE(outcome->solution.verification.validation_errors.empty());
  EXPECT_EQ(outcome->solution.verification.validation_errors[0].rfind("EVALUATION_TIMEOUT", 0), 0u)
      << outcome->solution.verification.validation_errors[0];
}

TEST_F(TotRun, BadRequestsAreRefusedNamingTheFieldAndWriteNothing) {
  const std::pair<tot_request, std::string> cases[] = {
      {{.problem = ""}, "problem: must not be empty"},
      {{.problem = std::string(kMaxProblemBytes + 1, '7')}, "problem: 8193 bytes is more than 8192"},
      {{.problem = "4 9 10 13", .task_type = "poetry"}, "task_type: 'poetry' is not one of math_reasoning"},
      {{.problem = "4 9 10 13", .strategy = "A*"}, "strategy: 'A*' is not one of BFS, DFS"},
      {{.problem = "4 9 10 13", .depth = 0}, "depth: 0 is outside 1–10"},
      {{.problem = "4 9 10 13", .depth = 11}, "depth: 11 is outside 1–10"},
      {{.problem = "4 9 10 13", .breadth = 21}, "breadth: 21 is outside 1–20"},
      {{.problem = "4 9 10 13", .threshold = 10.5}, "threshold: must be a number 0–10"},
      {{.problem = "4 9 10 13", .threshold = -1}, "threshold: must be a number 0–10"},
  };
  for (const auto& [request, expected] : cases) {
    auto outcome = run(request);
    ASSERT_FALSE(outcome) << expected;
    EXPECT_EQ(outcome.err().code, errc::invalid_argument);
    EXPECT_EQ(outcome.err().message.rfind(expected, 0), 0u) << outcome.err().message;
  }
  EXPECT_FALSE(fs::exists(data_dir_ / "logs"));
  EXPECT_TRUE(log_->list_dialogs({}).value().empty());
}

TEST_F(TotRun, AResumedRunAnswersTheLoggedCallsFromTheLogAndGoesOnLive) {
  auto first = run({.problem = "4 9 10 13"});
  ASSERT_TRUE(first) << first.err().message;
  ASSERT_TRUE(first->solved);
  // As if the process died after the first round (files 04 and 05): later rounds, the
  // orchestrator's and explorer's files and the timeline were never written.
  for (const auto& item : fs::directory_iterator(first->log_dir)) {
    const auto name = item.path().filename().string();
    const int seq = std::atoi(name.c_str());
    if (seq > 5 || name.starts_with("01-") || name.starts_with("03-")) fs::remove(item.path());
  }
  auto resumed = run({}, {}, first->task_id);
  ASSERT_TRUE(resumed) << resumed.err().message;
  EXPECT_TRUE(resumed->solved);
  EXPECT_EQ(resumed->solution.answer, first->solution.answer);
  EXPECT_GT(resumed->replayed_calls, 0);
  EXPECT_EQ(resumed->stats.llm_calls + resumed->replayed_calls, first->stats.llm_calls);
  EXPECT_TRUE(fs::exists(first->log_dir / "99-merged-timeline.log"));
  EXPECT_NE(read_text(first->log_dir / "00-task-info.json").find("\"resumed_at\""), std::string::npos);
}

// The nodes of a tree as JSON texts by id, to compare two trees whole.
std::map<std::string, std::string> tree_text(const std::map<std::string, thought_node>& nodes) {
  std::map<std::string, std::string> out;
  for (const auto& [id, node] : nodes) out[id] = json::serialize(to_json(node));
  return out;
}

TEST_F(TotRun, AFinishedRunReadBackFromItsFolderHasTheSameTreeBestPathAndAnswer) {
  auto first = run({.problem = "4 9 10 13"});
  ASSERT_TRUE(first) << first.err().message;
  ASSERT_TRUE(first->solved);
  ASSERT_FALSE(first->nodes.empty());
  auto read = testing::run_sync(read_durable_run(logs(), first->task_id));
  ASSERT_TRUE(read) << read.err().message;
  EXPECT_EQ(read->status, run_status::solved);
  EXPECT_EQ(tree_text(read->nodes), tree_text(first->nodes));
  EXPECT_EQ(read->best_path, first->best_path);
  ASSERT_TRUE(read->final_solution);
  EXPECT_EQ(read->final_solution->at("answer"), first->solution.answer.c_str());
  EXPECT_EQ(read->root_dialogs, std::vector<std::string>{first->root_dialog});
  EXPECT_EQ(index_run_roots(logs()).at(first->root_dialog), first->task_id);
}

TEST_F(TotRun, ARunCutOffMidSearchReadsAsInterruptedAndOnceResumedAsItsResumedTreeUnderBothRoots) {
  auto first = run({.problem = "4 9 10 13"});
  ASSERT_TRUE(first) << first.err().message;
  // As if the process died after the first round: the task info still says running.
  for (const auto& item : fs::directory_iterator(first->log_dir)) {
    const auto name = item.path().filename().string();
    const int seq = std::atoi(name.c_str());
    if (seq > 5 || name.starts_with("01-") || name.starts_with("03-") || name.starts_with("99-"))
      fs::remove(item.path());
  }
  auto info = logs().open(first->task_id)->read_task_info();
  ASSERT_TRUE(info);
  info->erase("end_time");
  info->erase("final_stats");
  (*info)["status"] = "running";
  ASSERT_TRUE(logs().open(first->task_id)->write_task_info(*info));

  auto cut = testing::run_sync(read_durable_run(logs(), first->task_id));
  ASSERT_TRUE(cut) << cut.err().message;
  EXPECT_EQ(cut->status, run_status::interrupted);
  EXPECT_FALSE(cut->final_solution);
  EXPECT_TRUE(cut->best_path.empty());
  EXPECT_GT(cut->nodes.size(), 1U) << "the thoughts of the logged calls";
  EXPECT_LT(cut->nodes.size(), first->nodes.size());
  for (const auto& [id, node] : cut->nodes) EXPECT_TRUE(first->nodes.contains(id)) << id;

  auto resumed = run({}, {}, first->task_id);
  ASSERT_TRUE(resumed) << resumed.err().message;
  ASSERT_TRUE(resumed->solved);
  // The folder now holds the replayed calls twice (the first run's and the resume's copies): each
  // reply is still replayed once.
  auto read = testing::run_sync(read_durable_run(logs(), first->task_id));
  ASSERT_TRUE(read) << read.err().message;
  EXPECT_EQ(read->status, run_status::solved);
  EXPECT_EQ(tree_text(read->nodes), tree_text(resumed->nodes));
  EXPECT_EQ(read->best_path, resumed->best_path);
  EXPECT_EQ(read->root_dialogs, (std::vector<std::string>{first->root_dialog, resumed->root_dialog}));
  const auto roots = index_run_roots(logs());
  EXPECT_EQ(roots.at(first->root_dialog), first->task_id);
  EXPECT_EQ(roots.at(resumed->root_dialog), first->task_id);
}

TEST_F(TotRun, ResumeRefusesARunThatDoesNotExist) {
  auto outcome = run({}, {}, std::string("tot-20250101-000000-abcdef"));
  ASSERT_FALSE(outcome);
  EXPECT_EQ(outcome.err().code, errc::not_found);
  auto malformed = run({}, {}, std::string("../etc"));
  ASSERT_FALSE(malformed);
  EXPECT_EQ(malformed.err().message.rfind("resume: '../etc' is not a run id", 0), 0u);
}

}  // namespace
}  // namespace parley::tot

namespace parley::tot {
namespace {

TEST(TotTool, AMemberGivenTreeOfThoughtsRunsASearchAndReadsTheFinalSolution) {
  const auto data_dir = fs::temp_directory_path() / ("parley-tot-tool-" + std::to_string(::getpid()));
  fs::remove_all(data_dir);
  auto script = llm::parse_scripted_script(
      "members:\n  lead:\n"
      "    - when: {last_tool: 'solved'}\n      emit: [{saying: 'The search answered.'}]\n"
      "    - emit: [{tool_call: {name: tree_of_thoughts, arguments: {problem: '4 9 10 13', breadth: 3}}}]\n",
      "script.yaml");
  ASSERT_TRUE(script) << script.err().message;
  config::team_config team;
  team.workspace = data_dir;
  config::member_config lead;
  lead.id = "lead";
  lead.persona = "You lead.";
  lead.provider = "script";
  lead.model = "m";
  lead.tools = {"tree_of_thoughts"};
  team.members.push_back(lead);
  team.default_member = "lead";
  add_tot_members(team, std::nullopt, "noisy24", "noisy24");  // declared: the tool keeps them
  engine::provider_map providers;
  providers.emplace("script", std::make_shared<llm::scripted_provider>(*script));
  providers.emplace("noisy24", std::make_shared<game24::noisy_model>(game24::noise_settings{}));
  auto tools = engine::build_builtin_tools();
  auto binding = std::make_shared<tot_tool_binding>();
  binding->logs = run_logs::of(team.workspace, data_dir);
  offer_tree_of_thoughts(team, tools, binding);
  ASSERT_NE(tools.find("tree_of_thoughts"), nullptr);
  EXPECT_EQ(tools.find("tree_of_thoughts")->spec().parameters.at("required").as_array().at(0).as_string(), "problem");

  boost::asio::io_context io;
  auto log = make_memory_store();
  auto made = engine::engine::create(io.get_executor(), *log, team, std::move(providers), std::move(tools));
  ASSERT_TRUE(made) << made.err().message;
  auto& eng = **made;
  binding->engine = &eng;
  std::string lead_dialog;
  boost::asio::co_spawn(
      io,
      [&]() -> boost::asio::awaitable<void> {
        engine::new_dialog spec;
        spec.member_id = "lead";
        spec.first_message = "Make 24 from 4 9 10 13.";
        auto id = co_await eng.create_root_dialog(std::move(spec));
        if (!id) co_return;
        lead_dialog = *id;
        co_await eng.runs().wait_until_settled(*id);
      },
      boost::asio::detached);
  io.run();
  ASSERT_FALSE(lead_dialog.empty());
  const auto said = log->messages(lead_dialog, 1).value();
  ASSERT_EQ(said.size(), 4u);
  EXPECT_EQ(said[2].role, parley::events::message_role::tool);
  EXPECT_NE(said[2].content.find("\"solved\":true"), std::string::npos) << said[2].content;
  EXPECT_EQ(said[3].content, "The search answered.");
  dialog_filter roots;
  roots.roots_only = true;
  bool found_run = false;
  for (const auto& row : log->list_dialogs(roots).value()) found_run = found_run || row.member_id == "tot-orchestrator";
  EXPECT_TRUE(found_run);
  EXPECT_TRUE(fs::exists(data_dir / "logs"));
  fs::remove_all(data_dir);
}

}  // namespace
}  // namespace parley::tot

// A replay driven by the engine (docs/fork.md "Replay"): a fork of a tree run again under another
// persona, its tool calls answered from the origin's record when they are the same call, run for
// real in a scratch copy of the workspace when they differ, and its questions to the human
// answered from the record when the origin's human answered the same text.
#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>

#include <fstream>
#include <sstream>

#include "engine_test_support.hpp"
#include "parley/core/time.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/engine/engine.hpp"
#include "parley/engine/replay_oracle.hpp"
#include "parley/engine/replay_team.hpp"
#include "parley/engine/unavailable_provider.hpp"
#include "parley/store/fork_history.hpp"
#include "parley/tools/function_tool.hpp"

namespace parley::engine {
namespace {

namespace asio = boost::asio;
using testing::temp_team;

constexpr const char* kReplayTeam =
    "version: 1\nproviders:\n  offline: {kind: scripted, script: script.yaml}\n"
    "members:\n  lead: {persona: \"You lead.\", provider: offline, model: m, tools: [stamp]}\n";

// The origin's lead stamps {a:1,b:2} and asks "what color?"; a persona with SAME makes the same
// call with its keys in another order; one with OTHER stamps {a:9}; one with ASKOTHER asks
// another question.
constexpr const char* kReplayScript =
    "members:\n"
    "  lead:\n"
    "    - when: {last_tool: blue}\n"
    "      emit: [{saying: \"done: {{last_tool}}\"}]\n"
    "    - when: {last_tool: stamped, system: ASKOTHER}\n"
    "      emit: [{tool_call: {name: askHuman, arguments: {tellaskContent: \"what size?\"}}}]\n"
    "    - when: {last_tool: stamped}\n"
    "      emit: [{tool_call: {name: askHuman, arguments: {tellaskContent: \"what color?\"}}}]\n"
    "    - when: {system: SAME}\n"
    "      emit: [{tool_call: {name: stamp, arguments: {b: 2, a: 1}}}]\n"
    "    - when: {system: OTHER}\n"
    "      emit: [{tool_call: {name: stamp, arguments: {a: 9}}}]\n"
    "    - emit: [{tool_call: {name: stamp, arguments: {a: 1, b: 2}}}]\n";

std::string file_text(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

class EngineReplay : public ::testing::Test {
 protected:
  // Runs `work` on an engine of `team` (with the replay's record of `replay_root`, if any).
  template <class Work>
  void on_engine(const config::team_config& team, const std::string& replay_root, Work work) {
    asio::io_context io;
    auto providers = build_providers(team);
    ASSERT_TRUE(providers.has_value());
    if (provider_down_) {  // as if the provider could not be reached
      for (auto& [id, provider] : *providers) provider = make_unavailable_provider(id, "connection refused");
    }
    auto registry = build_builtin_tools();
    llm::tool_spec spec{"stamp", "stamps", boost::json::object{{"type", "object"}}};
    registry.add(std::make_unique<tools::function_tool>(
        std::move(spec),
        [this](const boost::json::object&, const tools::tool_context& ctx) {
          ++stamps_run_;
          std::ofstream(ctx.workspace / "stamps.txt", std::ios::app) << "stamp\n";
          return tools::tool_outcome{true, "stamped in " + ctx.workspace.string()};
        },
        tools::function_tool::effects::outside_log));
    auto eng = engine::create(io.get_executor(), *log_, team, std::move(*providers), std::move(registry));
    ASSERT_TRUE(eng.has_value()) << eng.err().message;
    std::optional<replay_oracle> oracle;
    if (!replay_root.empty()) {
      auto loaded = replay_oracle::load(*log_, replay_root);
      ASSERT_TRUE(loaded && *loaded);
      oracle = std::move(**loaded);
      (*eng)->drives().set_replay(&*oracle);
    }
    asio::co_spawn(io, work(**eng), asio::detached);
    io.run();
    log_->flush();
  }

  // The origin: stamps, asks "what color?", is answered "blue" and says so.
  std::string run_origin() {
    std::string root;
    on_engine(files_.load(), {}, [&](engine& eng) -> asio::awaitable<void> {
      new_dialog spec;
      spec.first_message = "go";
      auto created = co_await eng.create_root_dialog(std::move(spec));
      if (!created) co_return;
      root = *created;
      co_await eng.runs().wait_until_idle(root);
      auto open = eng.questions().open_questions();
      if (!open || open->size() != 1) co_return;
      user_answer answer{root, "blue", {}, open->front().question.id, "answer", "ann"};
      (void)co_await eng.questions().answer_question(std::move(answer));
      co_await eng.runs().wait_until_idle(root);
    });
    return root;
  }

  // Resumes `fork` on an engine of its replay's team and record.
  void resume_replay(const std::string& fork, const events::replay_started& spec) {
    auto team = replay_team(files_.load(), spec);
    ASSERT_TRUE(team) << team.err().message;
    on_engine(*team, fork, [&](engine& eng) -> asio::awaitable<void> {
      auto resumed = co_await eng.runs().resume(fork);
      EXPECT_TRUE(resumed) << resumed.err().message;
      co_await eng.runs().wait_until_idle(fork);
    });
  }

  // A replay of `root` from its first generation with the lead's persona replaced; its fork id.
  std::string replay(const std::string& root, const std::string& persona) {
    events::replay_started spec;
    spec.personas.push_back({"lead", persona});
    auto plan = plan_replay(*log_, root, fork_point{std::nullopt, 1}, spec, files_.dir() / "replays", now_ms());
    EXPECT_TRUE(plan) << plan.err().message;
    if (!plan) return {};
    EXPECT_TRUE(copy_replay_workspace(files_.load().workspace, spec.workspace, files_.dir() / "replays"));
    std::optional<result<void>> appended;
    log_->append(std::move(plan->batch), [&](result<void> r) { appended = std::move(r); });
    log_->flush();
    EXPECT_TRUE(appended && *appended);
    const std::string fork = plan->fork_root_id;
    resume_replay(fork, spec);
    spec_ = spec;
    return fork;
  }

  std::vector<events::call_replayed> markers_of(const std::string& dialog) {
    std::vector<events::call_replayed> out;
    for (const auto& ev : log_->read_events(dialog).value()) {
      if (const auto* marker = ev.as<events::call_replayed>()) out.push_back(*marker);
    }
    return out;
  }

  temp_team files_{kReplayTeam, kReplayScript};
  std::unique_ptr<store> log_ = make_memory_store();
  int stamps_run_ = 0;
  bool provider_down_ = false;
  events::replay_started spec_;  // the latest replay's
};

TEST_F(EngineReplay, TheSameCallGetsTheRecordedResultAndTheSameQuestionTheRecordedAnswer) {
  const std::string root = run_origin();
  ASSERT_FALSE(root.empty());
  ASSERT_EQ(stamps_run_, 1);
  const std::string origin_workspace = files_.load().workspace.string();

  const std::string fork = replay(root, "You lead. SAME");
  ASSERT_FALSE(fork.empty());
  EXPECT_EQ(stamps_run_, 1) << "the same call (keys in another order) is not run again";
  const auto markers = markers_of(fork);
  ASSERT_EQ(markers.size(), 2U);
  EXPECT_EQ(markers[0].name, "stamp");
  EXPECT_EQ(markers[0].origin_dialog_id, root);
  EXPECT_EQ(markers[1].name, "askHuman");
  const auto messages = read_dialog_messages(*log_, fork, 0).value();
  ASSERT_FALSE(messages.empty());
  EXPECT_EQ(messages.back().content, "done: blue") << "the recorded answer let the replay finish";
  bool recorded_result_seen = false;
  for (const auto& msg : messages) recorded_result_seen |= msg.content == "stamped in " + origin_workspace;
  EXPECT_TRUE(recorded_result_seen);
  EXPECT_EQ(file_text(files_.dir() / "replays" / fork / "workspace" / "stamps.txt"), "stamp\n")
      << "the scratch copy holds the origin's stamp, and no new one";
  EXPECT_EQ(log_->get_dialog(fork).value()->open_questions, 0);
}

TEST_F(EngineReplay, ADifferentCallRunsInTheScratchWorkspaceAndADifferentQuestionWaitsForTheHuman) {
  const std::string root = run_origin();
  ASSERT_FALSE(root.empty());
  const auto origin_stamps = file_text(files_.load().workspace / "stamps.txt");
  ASSERT_EQ(origin_stamps, "stamp\n");

  const std::string fork = replay(root, "You lead. OTHER ASKOTHER");
  ASSERT_FALSE(fork.empty());
  EXPECT_EQ(stamps_run_, 2) << "a call with other arguments runs for real";
  EXPECT_EQ(file_text(files_.dir() / "replays" / fork / "workspace" / "stamps.txt"), "stamp\nstamp\n")
      << "in the scratch copy of the workspace";
  EXPECT_EQ(file_text(files_.load().workspace / "stamps.txt"), origin_stamps) << "the original is untouched";
  EXPECT_TRUE(markers_of(fork).empty());
  const auto row = log_->get_dialog(fork).value();
  ASSERT_TRUE(row);
  EXPECT_EQ(row->open_questions, 1) << "a question the origin did not ask waits for the human";
}

TEST_F(EngineReplay, AReplayWhoseProviderIsDownIsKeptFailedAndGoesOnAsAReplayWhenResumed) {
  const std::string root = run_origin();
  ASSERT_FALSE(root.empty());
  provider_down_ = true;
  const std::string fork = replay(root, "You lead. SAME");
  ASSERT_FALSE(fork.empty());
  auto row = log_->get_dialog(fork).value();
  ASSERT_TRUE(row) << "the fork is kept";
  EXPECT_NE(row->last_error.find("connection refused"), std::string::npos) << row->last_error;
  EXPECT_TRUE(markers_of(fork).empty());

  provider_down_ = false;  // the provider is back
  resume_replay(fork, spec_);
  EXPECT_EQ(stamps_run_, 1) << "the resumed replay still answers the same call from the record";
  EXPECT_EQ(markers_of(fork).size(), 2U);
  const auto messages = read_dialog_messages(*log_, fork, 0).value();
  ASSERT_FALSE(messages.empty());
  EXPECT_EQ(messages.back().content, "done: blue");
}

TEST_F(EngineReplay, AnEngineWithoutTheReplaysRecordRefusesToDriveIt) {
  const std::string root = run_origin();
  ASSERT_FALSE(root.empty());
  provider_down_ = true;
  const std::string fork = replay(root, "You lead. SAME");
  ASSERT_FALSE(fork.empty());
  provider_down_ = false;
  // The served team's engine (as `parley serve`'s recovery or `parley resume --all` would be).
  on_engine(files_.load(), {}, [&](engine& eng) -> asio::awaitable<void> {
    (void)co_await eng.runs().resume(fork);
    co_await eng.runs().wait_until_idle(fork);
  });
  const auto row = log_->get_dialog(fork).value();
  ASSERT_TRUE(row);
  EXPECT_NE(row->last_error.find("runs only with its change and record"), std::string::npos) << row->last_error;
  EXPECT_EQ(stamps_run_, 1) << "nothing ran in the origin's workspace";
}

TEST(ReplayArguments, TheSameJsonInAnotherOrderOrSpacingIsTheSameCall) {
  EXPECT_TRUE(same_call_arguments(R"({"a":1,"b":{"c":[1,2]}})", R"({ "b": {"c": [1, 2]}, "a": 1 })"));
  EXPECT_FALSE(same_call_arguments(R"({"a":1})", R"({"a":2})"));
  EXPECT_FALSE(same_call_arguments(R"({"a":[1,2]})", R"({"a":[2,1]})"));
  EXPECT_TRUE(same_call_arguments("not json", "not json"));
}

}  // namespace
}  // namespace parley::engine

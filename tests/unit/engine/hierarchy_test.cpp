// Engine behaviour of the hierarchy that scenarios cannot see: observer notices, the tools each
// kind of dialog is offered, and recovery that keeps suspended dialogs suspended.
#include <gtest/gtest.h>

#include <algorithm>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include "engine_test_support.hpp"
#include "parley/core/time.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/engine/context_builder.hpp"
#include "parley/engine/dialog_tools.hpp"
#include "parley/engine/engine.hpp"
#include "support/typed_events.hpp"

namespace parley::engine {
namespace {

namespace asio = boost::asio;
using testing::temp_team;

const char* kHierarchyTeam =
    "version: 1\nproviders:\n  offline: {kind: scripted, script: script.yaml}\n"
    "members:\n  lead: {persona: \"You lead.\", provider: offline, model: m, toolsets: [basic]}\n";

class question_counter final : public engine_observer {
 public:
  std::vector<std::pair<std::int64_t, std::int64_t>> updates;
  void on_questions_count(const questions_count_update& update) override {
    updates.emplace_back(update.previous_count, update.question_count);
  }
};

// Records the event types of each batch it is given, and keeps them in a memory store.
class batch_recorder final : public testing::forwarding_store {
 public:
  std::vector<std::vector<std::string>> batches;

  void append(std::vector<event> batch, append_callback on_durable) override {
    auto& types = batches.emplace_back();
    for (const auto& ev : batch) types.emplace_back(ev.type());
    forwarding_store::append(std::move(batch), std::move(on_durable));
  }
};

// A round that only Tellasks acts on the log alone: the generation, the Tellask and the subdialog
// it creates are one commit; a round that calls a tool with effects is durable before it runs.
TEST(Hierarchy, ARoundThatOnlyTellasksIsCommittedWithTheSubdialogItCreates) {
  temp_team files(
      "version: 1\nproviders:\n  offline: {kind: scripted, script: script.yaml}\n"
      "members:\n  lead: {persona: \"You lead.\", provider: offline, model: m, toolsets: [basic]}\n"
      "  helper: {persona: \"You help.\", provider: offline, model: m, toolsets: [workspace]}\n",
      "members:\n  lead:\n"
      "    - when: {last_tool: \"4\"}\n      emit: [{saying: \"done\"}]\n"
      "    - emit: [{tool_call: {name: tellaskSessionless, arguments: {targetAgentId: helper, tellaskContent: "
      "\"sum\"}}}]\n"
      "  helper:\n"
      "    - when: {last_tool: \"created\"}\n      emit: [{saying: \"4\"}]\n"
      "    - emit: [{tool_call: {name: write_file, arguments: {path: sum.txt, content: \"4\"}}}]\n");
  batch_recorder log;
  asio::io_context io;
  auto eng = engine::create(io.get_executor(), log, files.load(), build_providers(files.load()).value(),
                            build_builtin_tools());
  ASSERT_TRUE(eng.has_value());
  std::string answer;
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        engine& e = **eng;
        new_dialog spec{"lead", "", ""};
        spec.first_message = "add two and two";
        const auto id = (co_await e.create_root_dialog(std::move(spec))).value();
        co_await e.runs().wait_until_settled(id);
        answer = e.find(id)->messages().back().content;
      },
      asio::detached);
  io.run();
  EXPECT_EQ(answer, "done");
  auto has = [](const std::vector<std::string>& types, std::string_view type) {
    return std::find(types.begin(), types.end(), type) != types.end();
  };
  bool tellask_round_whole = false;
  bool write_round_alone = false;  // a batch of the helper's round alone, before any tool result
  for (const auto& types : log.batches) {
    if (has(types, event_type::tool_result)) break;
    if (has(types, event_type::tellask_called)) {
      tellask_round_whole = has(types, event_type::generation_finished) && has(types, event_type::dialog_created);
    } else if (has(types, event_type::generation_finished)) {
      write_round_alone = true;
    }
  }
  EXPECT_TRUE(tellask_round_whole);
  EXPECT_TRUE(write_round_alone);
}

TEST(Hierarchy, AskingAndAnsweringAQuestionEmitsQuestionsCountUpdates) {
  temp_team files(
      kHierarchyTeam,
      "members:\n  lead:\n"
      "    - when: {last_tool: blue}\n      emit: [{saying: \"blue it is\"}]\n"
      "    - emit: [{tool_call: {name: askHuman, arguments: {tellaskContent: \"Colour?\\nPick one.\"}}}]\n");
  auto log = make_memory_store();
  asio::io_context io;
  auto eng = engine::create(io.get_executor(), *log, files.load(), build_providers(files.load()).value(),
                            build_builtin_tools());
  ASSERT_TRUE(eng.has_value());
  question_counter counter;
  (*eng)->add_observer(&counter);
  std::string id;
  std::string headline;
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        engine& e = **eng;
        // Named first: g++ 12 miscompiles aggregate temporaries inside co_await expressions.
        new_dialog spec{"lead", "", ""};
        id = (co_await e.create_root_dialog(std::move(spec))).value();
        (void)co_await e.post_user_message(id, "pick a colour");
        co_await e.runs().wait_until_settled(id);
        const auto& questions = e.find(id)->state().questions;
        if (questions.size() != 1) co_return;
        headline = questions[0].mention_list;
        user_answer answer{id, "blue", "", questions[0].id, "answer"};
        (void)co_await e.questions().answer_question(std::move(answer));
        co_await e.runs().wait_until_settled(id);
      },
      asio::detached);
  io.run();
  EXPECT_EQ(headline, "Colour?");
  EXPECT_EQ(counter.updates, (std::vector<std::pair<std::int64_t, std::int64_t>>{{0, 1}, {1, 0}}));
  EXPECT_EQ((*eng)->find(id)->messages().back().content, "blue it is");
}

TEST(Hierarchy, RootsSubdialogsAndFbrAreOfferedTheirOwnDialogTools) {
  temp_team files(kHierarchyTeam, "members: {lead: [{emit: [{saying: ok}]}]}\n");
  const auto team = files.load();
  auto names_for = [&](boost::json::object created) {
    auto dialog = dialog_runtime::replay({test::typed_event("d", "r", 1, event_type::dialog_created, created, 0)});
    auto request = build_model_request(**dialog, *team.find_member("lead"), {}, 1, prompt_setting{});
    return std::make_pair(std::move(request.system_prompt), (*dialog)->is_fbr());
  };
  const auto root = names_for({{"memberId", "lead"}, {"kind", "root"}});
  const auto fbr = names_for({{"memberId", "lead"}, {"kind", "sub"}, {"callKind", "freshBootsReasoning"}});
  EXPECT_FALSE(root.second);
  EXPECT_TRUE(fbr.second);
  EXPECT_EQ(root.first.find("sideline"), std::string::npos);
  EXPECT_NE(fbr.first.find("Fresh Boots Reasoning sideline dialog: you have no tools"), std::string::npos);

  const auto& root_tools = dialog_tool_specs(dialog_place::root, false);
  const auto& sub_tools = dialog_tool_specs(dialog_place::sub, false);
  auto has = [](const std::vector<llm::tool_spec>& specs, std::string_view name) {
    return std::any_of(specs.begin(), specs.end(), [&](const llm::tool_spec& s) { return s.name == name; });
  };
  EXPECT_TRUE(has(root_tools, "change_mind"));
  EXPECT_FALSE(has(root_tools, "tellaskBack"));
  EXPECT_TRUE(has(sub_tools, "tellaskBack"));
  EXPECT_FALSE(has(sub_tools, "change_mind"));
  EXPECT_TRUE(dialog_tool_specs(dialog_place::fbr, false).empty());
  EXPECT_FALSE(has(dialog_tool_specs(dialog_place::root, true), "tellask"));
}

TEST(Hierarchy, RecoveryKeepsADialogWithAnOpenQuestionSuspended) {
  temp_team files(kHierarchyTeam, "members: {lead: [{emit: [{saying: ok}]}]}\n");
  auto log = make_memory_store();
  const auto at = now_ms();
  std::vector<event> batch{
      test::typed_event("d1", "d1", 1, event_type::dialog_created, {{"memberId", "lead"}, {"kind", "root"}}, at),
      test::typed_event("d1", "d1", 2, event_type::user_message, {{"course", 1}, {"content", "hi"}}, at),
      test::typed_event("d1", "d1", 3, event_type::generation_started, {{"course", 1}, {"genseq", 1}}, at),
      test::typed_event("d1", "d1", 4, event_type::generation_finished,
                        {{"course", 1},
                         {"genseq", 1},
                         {"toolCalls", boost::json::array{boost::json::object{
                                           {"id", "c1"}, {"name", "askHuman"}, {"arguments", "{}"}}}}},
                        at),
      test::typed_event("d1", "d1", 5, event_type::question_asked, {{"callId", "c1"}, {"questionId", "q1"}}, at)};
  std::optional<result<void>> appended;
  log->append(std::move(batch), [&](result<void> r) { appended = std::move(r); });
  log->flush();
  ASSERT_TRUE(appended && appended->has_value());
  asio::io_context io;
  auto eng = engine::create(io.get_executor(), *log, files.load(), build_providers(files.load()).value(),
                            build_builtin_tools());
  ASSERT_TRUE(eng.has_value());
  EXPECT_EQ((*eng)->runs().recover_all().value(), 0U);
  io.run();
  EXPECT_EQ(log->read_events("d1").value().size(), 5U) << "a suspended dialog must not be driven";
  EXPECT_TRUE((*eng)->find("d1")->unanswered_tool_calls().empty()) << "the askHuman call waits, it is not owed";
}

TEST(Hierarchy, AGenerationCutByACrashKeepsItsLastCheckpointMarkedAndRunsAgain) {
  temp_team files(kHierarchyTeam, "members: {lead: [{emit: [{saying: \"the whole answer\"}]}]}\n");
  auto log = make_memory_store();
  const auto at = now_ms();
  std::vector<event> batch{
      test::typed_event("d1", "d1", 1, event_type::dialog_created, {{"memberId", "lead"}, {"kind", "root"}}, at),
      test::typed_event("d1", "d1", 2, event_type::user_message, {{"course", 1}, {"content", "hi"}}, at),
      test::typed_event("d1", "d1", 3, event_type::generation_started, {{"course", 1}, {"genseq", 1}}, at),
      test::typed_event("d1", "d1", 4, event_type::generation_progress,
                        {{"course", 1}, {"genseq", 1}, {"thinking", "hmm"}, {"saying", "the who"}}, at)};
  std::optional<result<void>> appended;
  log->append(std::move(batch), [&](result<void> r) { appended = std::move(r); });
  log->flush();
  ASSERT_TRUE(appended && appended->has_value());
  asio::io_context io;
  auto eng = engine::create(io.get_executor(), *log, files.load(), build_providers(files.load()).value(),
                            build_builtin_tools());
  ASSERT_TRUE(eng.has_value());
  EXPECT_EQ((*eng)->runs().recover_all().value(), 1U);
  io.run();
  log->flush();
  const auto messages = log->messages("d1", 1).value();
  ASSERT_EQ(messages.size(), 3U);
  EXPECT_EQ(messages[1].content, "the who");
  EXPECT_EQ(messages[1].thinking, "hmm");
  EXPECT_TRUE(messages[1].interrupted);
  EXPECT_EQ(messages[2].content, "the whole answer");
  EXPECT_FALSE(messages[2].interrupted);
}

}  // namespace
}  // namespace parley::engine

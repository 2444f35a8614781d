// The engine's collaborators (engine.hpp) each tested alone: built by hand over the in-memory store
// and the scripted model, with only the collaborators each one names, not through the façade.
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "engine_test_support.hpp"
#include "parley/core/ids.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/engine/dialog_host.hpp"
#include "parley/engine/dialog_titles.hpp"
#include "parley/engine/drive_control.hpp"
#include "parley/engine/drive_loop.hpp"
#include "parley/engine/human_questions.hpp"
#include "parley/engine/input_checks.hpp"
#include "parley/engine/member_roster.hpp"
#include "parley/engine/record_writes.hpp"
#include "parley/engine/root_lifecycle.hpp"
#include "parley/engine/tellask_router.hpp"
#include "parley/engine/title_writer.hpp"
#include "parley/engine/working_memory.hpp"
#include "support/run_awaitable.hpp"

namespace parley::engine {
namespace {

namespace asio = boost::asio;
using parley::testing::run_awaitable;
using testing::temp_team;

// The parts each test may take: a team, the in-memory store and the dialog host every
// collaborator works through. Roots are made by hand, as the engine's façade would make them.
class engine_collaborators : public ::testing::Test {
 protected:
  // A root of `lead`, committed; with a first message when `first_message` is not empty.
  dialog_runtime& add_root(const std::string& first_message = {}) {
    const std::string id = new_dialog_id();
    auto runtime = dialog_runtime::empty();
    events::dialog_created created;
    created.member_id = "lead";
    created.kind = events::dialog_kind::root;
    EXPECT_TRUE(runtime->stage(std::move(created), id, id));
    auto& root = dialogs.cache().add(std::move(runtime));
    dialogs.cache().add_new_tree(id);
    if (!first_message.empty()) {
      events::user_message input;
      input.course = root.row().course;
      input.content = first_message;
      input.msg_id = new_uuid();
      input.origin = events::message_origin::user;
      EXPECT_TRUE(dialogs.stage(root, std::move(input)));
    }
    EXPECT_TRUE(run_awaitable(io, dialogs.commit(root)));
    return root;
  }

  std::vector<std::string> logged_types(const std::string& dialog_id) {
    std::vector<std::string> types;
    for (const auto& ev : log->read_events(dialog_id, 0).value()) types.emplace_back(ev.type());
    return types;
  }

  temp_team files{testing::kOneMemberTeam, "members:\n  lead:\n    - emit: [{saying: \"hello back\"}]\n"};
  config::team_config team = files.load();
  std::unique_ptr<store> log = make_memory_store();
  asio::io_context io;
  dialog_host dialogs{io.get_executor(), *log};
};

using EngineCollaborators = engine_collaborators;

TEST_F(EngineCollaborators, MemberRosterKnowsEachMembersProviderAndTools) {
  member_roster members(team, build_providers(team).value(), build_builtin_tools());
  ASSERT_TRUE(members.prepare());
  const auto* lead = members.find("lead");
  ASSERT_NE(lead, nullptr);
  EXPECT_EQ(members.provider_kind_of("lead"), "scripted");
  EXPECT_EQ(members.provider_of("lead"), lead->provider);
  EXPECT_FALSE(lead->tools.empty()) << "the basic toolset";
  EXPECT_NE(members.dialog_spec("tellask"), nullptr);
  EXPECT_EQ(members.find("ghost"), nullptr);
  EXPECT_EQ(members.provider_of("ghost"), nullptr);
  auto request = members.model_request_for(add_root("hi"));
  ASSERT_TRUE(request) << request.err().message;
  EXPECT_TRUE(std::any_of(request->messages.begin(), request->messages.end(),
                          [](const llm::chat_message& m) { return m.content == "hi"; }));
  EXPECT_NE(request->tools, nullptr);
}

TEST_F(EngineCollaborators, MemberRosterRefusesAMemberWhoseProviderIsNotConfigured) {
  member_roster members(team, provider_map{}, build_builtin_tools());
  auto prepared = members.prepare();
  ASSERT_FALSE(prepared);
  EXPECT_EQ(prepared.err().code, errc::config_error);
  EXPECT_NE(prepared.err().message.find("provider 'offline'"), std::string::npos) << prepared.err().message;
}

TEST_F(EngineCollaborators, DialogHostStagesCommitsLoadsAndTellsOfAPoisonedDialog) {
  auto& root = add_root("hi");
  EXPECT_EQ(logged_types(root.id()), (std::vector<std::string>{"dialog_created", "user_message"}));
  EXPECT_EQ(dialogs.find(root.id()), &root);
  auto missing = run_awaitable(io, dialogs.load_async("no-such-dialog"));
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.err().code, errc::not_found);
  std::vector<std::string> poisoned;
  dialogs.on_poisoned([&](dialog_runtime& dialog) { poisoned.push_back(dialog.id()); });
  dialogs.mark_poisoned(root, "disk full");
  EXPECT_TRUE(root.poisoned);
  EXPECT_EQ(poisoned, std::vector<std::string>{root.id()});
}

TEST_F(EngineCollaborators, InputChecksRefuseBadContentAndFindNoRetryForANewId) {
  const input_checks inputs(team, dialogs);
  EXPECT_EQ(inputs.check_user_message("").err().code, errc::invalid_argument);
  EXPECT_TRUE(inputs.check_user_message("", /*with_attachment=*/true));
  EXPECT_EQ(inputs.check_user_message("\xff").err().code, errc::invalid_argument);
  const std::string too_long(static_cast<std::size_t>(team.limits.max_message_bytes) + 1, 'x');
  EXPECT_EQ(inputs.check_user_message(too_long).err().code, errc::limit_exceeded);
  input_checks checks(team, dialogs);
  const std::string msg_id = "m-1";
  const std::string content = "hi";
  const sent_input sent{.msg_id = msg_id, .content = content};
  auto retried = run_awaitable(io, checks.dialog_of_retry(sent));
  ASSERT_TRUE(retried) << retried.err().message;
  EXPECT_FALSE(retried->has_value());
}

TEST_F(EngineCollaborators, RootLifecycleChangesARootAtRestAndRefusesTheSameStatusTwice) {
  root_lifecycle lifecycle(dialogs);
  auto& root = add_root();
  EXPECT_TRUE(lifecycle.work_in_flight(root).empty());
  EXPECT_TRUE(lifecycle.check_tree_running(root));
  ASSERT_TRUE(run_awaitable(io, lifecycle.set_root_status(root.id(), events::dialog_status::completed)));
  EXPECT_EQ(root.row().status, events::dialog_status::completed);
  auto again = run_awaitable(io, lifecycle.set_root_status(root.id(), events::dialog_status::completed));
  ASSERT_FALSE(again);
  EXPECT_EQ(again.err().code, errc::conflict);
  EXPECT_EQ(lifecycle.check_tree_running(root).err().code, errc::conflict) << "input waits for a reopen";
}

TEST_F(EngineCollaborators, RecordWritesAppendOnlyRecordsEventsAndKeepTheWindows) {
  record_writes records(dialogs);
  records.set_windows(60'000, 30'000);
  EXPECT_EQ(records.windows().turn_window_ms, 60'000);
  auto& root = add_root();
  ASSERT_TRUE(run_awaitable(io, records.expire_turn_window(root.id(), "turn-1")));
  EXPECT_EQ(logged_types(root.id()).back(), "turn_window_expired");
  auto refused = run_awaitable(
      io, records.append_record_write(root.id(), events::reminder_added{"not a record"}, [] { return ok(); }));
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.err().code, errc::invalid_argument);
}

TEST_F(EngineCollaborators, WorkingMemoryStagesReminders) {
  const record_windows windows;
  tellask_router router(dialogs.cache(), team, dialogs.observers(), windows);
  working_memory memory(team, dialogs, router);
  auto& root = add_root();
  const llm::tool_call add{"c1", "add_reminder", R"({"content":"water the plants"})"};
  auto added = memory.edit_reminders(root, add, boost::json::object{{"content", "water the plants"}});
  ASSERT_TRUE(added);
  ASSERT_TRUE(added->has_value());
  EXPECT_TRUE((*added)->ok);
  EXPECT_EQ(root.state().reminders, std::vector<std::string>{"water the plants"});
  const llm::tool_call drop{"c2", "delete_reminder", R"({"reminder_no":2})"};
  auto missing = memory.edit_reminders(root, drop, boost::json::object{{"reminder_no", 2}});
  ASSERT_TRUE(missing);
  EXPECT_FALSE((*missing)->ok) << "there is one reminder";
  EXPECT_FALSE(memory.context_stayed_critical(root));
}

// The drive loop, run control and the questions for the human, over every part they name.
class engine_driving : public engine_collaborators {
 protected:
  void SetUp() override { ASSERT_TRUE(members.prepare()); }

  member_roster members{team, build_providers(team).value(), build_builtin_tools()};
  record_windows windows;
  tellask_router router{dialogs.cache(), team, dialogs.observers(), windows};
  working_memory memory{team, dialogs, router};
  drive_loop drives{io.get_executor(), team, dialogs, members, router, memory};
  drive_control runs{dialogs, drives};
  input_checks inputs{team, dialogs};
  human_questions questions{dialogs, router, inputs, drives};
};

using EngineDriving = engine_driving;

TEST_F(EngineDriving, DriveLoopAnswersAScheduledDialogWithTheScriptedModel) {
  auto& root = add_root("hi");
  drives.schedule_drive(root);
  run_awaitable(io, [&]() -> asio::awaitable<bool> {
    co_await runs.wait_until_settled(root.id());
    co_return true;
  }());
  ASSERT_FALSE(root.messages().empty());
  EXPECT_EQ(root.messages().back().content, "hello back");
  EXPECT_EQ(logged_types(root.id()).back(), "generation_finished");
  EXPECT_TRUE(runs.running_dialogs().empty());
}

TEST_F(EngineDriving, DriveControlFindsNothingToResumeInAnAnsweredDialog) {
  auto& root = add_root("hi");
  drives.schedule_drive(root);
  run_awaitable(io, [&]() -> asio::awaitable<bool> {
    co_await runs.wait_until_idle(root.id());
    co_return true;
  }());
  EXPECT_TRUE(runs.resumable_dialogs(/*search_store=*/true).empty());
  auto resumed = run_awaitable(io, runs.resume(root.id()));
  ASSERT_FALSE(resumed);
  EXPECT_EQ(resumed.err().code, errc::conflict);
  EXPECT_EQ(runs.stop(root.id()).err().code, errc::conflict) << "nothing is generating";
}

TEST_F(EngineDriving, HumanQuestionsListNoneAndRefuseAnAnswerToAnUnaskedQuestion) {
  auto open = questions.open_questions();
  ASSERT_TRUE(open);
  EXPECT_TRUE(open->empty());
  auto& root = add_root();
  user_answer answer{root.id(), "blue", "", "q-1", "answer"};
  auto answered = run_awaitable(io, questions.answer_question(std::move(answer)));
  ASSERT_FALSE(answered);
  EXPECT_EQ(answered.err().code, errc::not_found);
  user_answer wrong_kind{root.id(), "blue", "", "q-1", "comment"};
  auto refused = run_awaitable(io, questions.answer_question(std::move(wrong_kind)));
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.err().code, errc::invalid_argument);
  auto not_a_sub = run_awaitable(io, questions.declare_subdialog_dead(root.id(), ""));
  ASSERT_FALSE(not_a_sub);
  EXPECT_EQ(not_a_sub.err().code, errc::invalid_argument);
}

// Issue 43: a human's title is taken as given (trimmed); the model's is written once, and never
// after a human's, so a restart or a late summary cannot replace what a person chose.
TEST_F(EngineCollaborators, DialogTitlesTakeAHumansTitleAndNeverReplaceItWithTheModels) {
  dialog_titles titles(dialogs);
  auto& root = add_root("Plan the quarterly budget review");
  auto by_model = run_awaitable(io, titles.set_by_model(root.id(), "Quarterly budget"));
  ASSERT_TRUE(by_model) << by_model.err().message;
  EXPECT_TRUE(*by_model);
  EXPECT_EQ(root.row().title, "Quarterly budget");
  auto asked_again = run_awaitable(io, titles.set_by_model(root.id(), "Something else"));
  ASSERT_TRUE(asked_again);
  EXPECT_FALSE(*asked_again) << "the model titles a dialog once";
  auto given = run_awaitable(io, titles.set_by_user(root.id(), "  Budget Q3  "));
  ASSERT_TRUE(given) << given.err().message;
  EXPECT_EQ(*given, "Budget Q3");
  auto late = run_awaitable(io, titles.set_by_model(root.id(), "The model's again"));
  ASSERT_TRUE(late);
  EXPECT_FALSE(*late);
  EXPECT_EQ(log->get_dialog(root.id()).value()->title, "Budget Q3");
  // A refused title changes nothing, in the row or in the log.
  const auto before = logged_types(root.id());
  auto refused = run_awaitable(io, titles.set_by_user(root.id(), "two\nlines"));
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.err().code, errc::invalid_argument);
  EXPECT_EQ(logged_types(root.id()), before);
  EXPECT_EQ(std::count(before.begin(), before.end(), "title_changed"), 2);
  EXPECT_EQ(log->get_dialog(root.id()).value()->title, "Budget Q3");
}

TEST(DialogTitles, ATitleIsRefusedEmptyTooLongOrWithAControlCharacterNamingTheField) {
  for (const std::string& bad : {std::string(), std::string("  \t "), std::string(201, 'x'), std::string("a\nb"),
                                 std::string("red \x1b[31m"), std::string("nul\0x", 5)}) {
    auto checked = checked_title(bad);
    ASSERT_FALSE(checked) << bad;
    EXPECT_EQ(checked.err().code, errc::invalid_argument);
    EXPECT_EQ(checked.err().message.rfind("title: ", 0), 0U) << checked.err().message;
  }
  std::string chinese;
  for (int i = 0; i < 200; ++i) chinese += "计";
  EXPECT_EQ(checked_title(chinese).value(), chinese) << "200 characters, 600 bytes";
  EXPECT_FALSE(checked_title(chinese + "计"));
  EXPECT_EQ(checked_title(" Budget review ").value(), "Budget review");
}

TEST(TitleWriter, AsksInTheTeamsLanguageAndTakesTheFirstLineOfTheReplyUnquoted) {
  config::member_config member;
  member.id = "lead";
  member.model = "m";
  const auto en = title_request(member, "en", "Plan the launch", "Here is a plan.");
  EXPECT_FALSE(en.stream);
  EXPECT_EQ(en.tools, nullptr);
  ASSERT_EQ(en.messages.size(), 1U);
  EXPECT_NE(en.messages[0].content.find("title"), std::string::npos);
  EXPECT_NE(en.messages[0].content.find("Plan the launch"), std::string::npos);
  const auto zh = title_request(member, "zh", "计划发布", "这是计划。");
  EXPECT_NE(zh.messages[0].content.find("标题"), std::string::npos);
  EXPECT_EQ(title_from_reply("\"Quarterly budget review.\"\nA second line"), "Quarterly budget review");
  EXPECT_EQ(title_from_reply("「预算评审」"), "预算评审");
  EXPECT_EQ(title_from_reply("  \n"), "");
}

}  // namespace
}  // namespace parley::engine

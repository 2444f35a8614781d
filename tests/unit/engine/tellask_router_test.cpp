// The Tellask router on its own (seed 001's flowchart), over dialogs staged in memory, with no
// model and no drive: which dialog a call reaches (Type A/B/C, FBR), what the root's registry
// resolves a slug to, who is told `superseded`, what a subdialog is told when it is called, where
// a final saying goes, and what a Q4H tells observers.
#include "parley/engine/tellask_router.hpp"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <boost/json/parse.hpp>

#include <memory>
#include <string>
#include <vector>

#include "engine_test_support.hpp"
#include "parley/engine/prompts.hpp"
#include "parley/store/store.hpp"

namespace parley::engine {
namespace {

using testing::temp_team;

constexpr const char* kRouterTeam =
    "version: 1\nproviders:\n  offline: {kind: scripted, script: script.yaml}\n"
    "members:\n"
    "  lead: {persona: L, provider: offline, model: m}\n"
    "  researcher: {persona: R, provider: offline, model: m, max_tellask_depth: 1}\n"
    "  writer: {persona: W, provider: offline, model: m}\n";

struct questions_seen : engine_observer {
  std::vector<questions_count_update> updates;
  void on_questions_count(const questions_count_update& update) override { updates.push_back(update); }
};

class tellask_router_fixture : public ::testing::Test {
 protected:
  tellask_router_fixture() { observers.push_back(&questions); }

  dialog_runtime& make_root(const std::string& id) {
    auto runtime = dialog_runtime::empty();
    events::dialog_created created;
    created.member_id = "lead";
    created.kind = events::dialog_kind::root;
    EXPECT_TRUE(runtime->stage(std::move(created), id, id));
    auto& added = dialogs.add(std::move(runtime));
    dialogs.add_new_tree(id);
    return added;
  }

  // A model's call of `name` from `caller`, its arguments as the model wrote them.
  result<tool_reply> call(dialog_runtime& caller, std::string name, std::string call_id, const std::string& arguments) {
    llm::tool_call model_call;
    model_call.id = std::move(call_id);
    model_call.name = std::move(name);
    model_call.arguments = arguments;
    const auto args = boost::json::parse(arguments).as_object();
    return router.route(caller, model_call, args, fx);
  }

  // The subdialog the caller's last call went to (its tellask_called names it).
  dialog_runtime& callee_of(const dialog_runtime& caller) {
    const auto* called = caller.last_staged().as<events::tellask_called>();
    EXPECT_NE(called, nullptr) << "the caller's last event is " << caller.last_staged().type();
    auto* found = dialogs.find(called == nullptr ? std::string_view{} : called->subdialog_id);
    EXPECT_NE(found, nullptr);
    return *found;
  }

  // The replies staged on `dialog` since the last look.
  static std::vector<events::reply_received> replies_to(dialog_runtime& dialog) {
    std::vector<events::reply_received> out;
    for (const auto& ev : dialog.take_staged()) {
      if (const auto* reply = ev.as<events::reply_received>()) out.push_back(*reply);
    }
    return out;
  }

  temp_team files{kRouterTeam, ""};
  config::team_config team = files.load();
  std::unique_ptr<store> log = make_memory_store();
  boost::asio::io_context io;
  dialog_cache dialogs{io.get_executor(), *log};
  questions_seen questions;
  std::vector<engine_observer*> observers;
  record_windows windows;
  tellask_router router{dialogs, team, observers, windows};
  round_effects fx;
};
using TellaskRouter = tellask_router_fixture;

TEST_F(TellaskRouter, ATypeBCallWithASlugInTheRegistryReachesThatSessionAndCreatesNoOther) {
  auto& root = make_root("r1");
  auto first = call(root, "tellask", "c1",
                    R"({"targetAgentId":"researcher","sessionSlug":"market","tellaskContent":"Size the market."})");
  ASSERT_TRUE(first);
  EXPECT_FALSE(first->has_value());  // the caller waits for the session's reply
  auto& session = callee_of(root);
  EXPECT_EQ(session.row().member_id, "researcher");
  EXPECT_EQ(session.row().session_slug, "market");
  auto entries = router.registry("r1");
  ASSERT_TRUE(entries);
  ASSERT_EQ(entries->size(), 1U);
  EXPECT_EQ((*entries)[0].key, "researcher!market");
  EXPECT_EQ((*entries)[0].subdialog_id, session.id());

  auto again = call(root, "tellask", "c2",
                    R"({"targetAgentId":"researcher","sessionSlug":"market","tellaskContent":"And in Europe?"})");
  ASSERT_TRUE(again);
  EXPECT_EQ(&callee_of(root), &session);
  EXPECT_EQ(dialogs.size(), 2U);
  ASSERT_TRUE(session.state().assigned);
  EXPECT_EQ(session.state().assigned->call_id, "c2");
  // The same caller again: the session is told the new request as it was written, no header.
  EXPECT_EQ(session.messages().back().content, "And in Europe?");

  ASSERT_TRUE(call(root, "tellask", "c3",
                   R"({"targetAgentId":"researcher","sessionSlug":"pricing","tellaskContent":"Price it."})"));
  EXPECT_NE(&callee_of(root), &session);
  EXPECT_EQ(router.registry("r1")->size(), 2U);
}

TEST_F(TellaskRouter, ASessionTellaskedByANewCallerTellsTheEarlierWaitingCallerItWasSuperseded) {
  auto& root = make_root("r1");
  ASSERT_TRUE(call(root, "tellask", "c1",
                   R"({"targetAgentId":"researcher","sessionSlug":"market","tellaskContent":"Size it."})"));
  auto& session = callee_of(root);
  ASSERT_TRUE(call(root, "tellaskSessionless", "c2", R"({"targetAgentId":"writer","tellaskContent":"Draft it."})"));
  auto& writer = callee_of(root);
  (void)replies_to(root);
  (void)replies_to(writer);

  ASSERT_TRUE(call(writer, "tellask", "w1",
                   R"({"targetAgentId":"researcher","sessionSlug":"market","tellaskContent":"Numbers, please."})"));
  EXPECT_EQ(&callee_of(writer), &session);
  const auto told = replies_to(root);
  ASSERT_EQ(told.size(), 1U);
  EXPECT_EQ(told[0].kind, events::reply_kind::superseded);
  EXPECT_EQ(told[0].call_id, "c1");
  EXPECT_TRUE(told[0].awaited);
  EXPECT_FALSE(told[0].ok);
  EXPECT_EQ(told[0].from_dialog_id, session.id());
  EXPECT_TRUE(replies_to(writer).empty());  // the new caller waits for the reply itself
  EXPECT_EQ(session.state().assigned->caller_id, writer.id());
  // A caller the session has not heard from gets the role header naming it.
  EXPECT_EQ(session.messages().back().content, course_header(team.language, "writer", false) + "\n\nNumbers, please.");
  EXPECT_NE(std::find(fx.to_drive.begin(), fx.to_drive.end(), &root), fx.to_drive.end());
}

TEST_F(TellaskRouter, ATypeCCallAlwaysMakesANewUnregisteredSubdialogThatIsToldWhoAsks) {
  auto& root = make_root("r1");
  ASSERT_TRUE(call(root, "tellaskSessionless", "c1", R"({"targetAgentId":"writer","tellaskContent":"One."})"));
  auto& first = callee_of(root);
  ASSERT_TRUE(call(root, "tellaskSessionless", "c2", R"({"targetAgentId":"writer","tellaskContent":"Two."})"));
  auto& second = callee_of(root);
  EXPECT_NE(&first, &second);
  EXPECT_TRUE(router.registry("r1")->empty());
  EXPECT_EQ(second.messages().back().content, course_header(team.language, "lead", false) + "\n\nTwo.");
  EXPECT_EQ(second.row().call_kind, events::call_kind::tellask_sessionless);
}

TEST_F(TellaskRouter, ASubdialogsSessionlessCallToItsTellaskersMemberIsATypeATellaskBack) {
  auto& root = make_root("r1");
  ASSERT_TRUE(call(root, "tellaskSessionless", "c1", R"({"targetAgentId":"writer","tellaskContent":"Draft."})"));
  auto& sub = callee_of(root);
  (void)replies_to(root);
  ASSERT_TRUE(call(sub, "tellaskSessionless", "s1", R"({"targetAgentId":"lead","tellaskContent":"Which tone?"})"));
  EXPECT_EQ(dialogs.size(), 2U);  // no subdialog of the lead: the question goes back up
  const auto told = replies_to(root);
  ASSERT_EQ(told.size(), 1U);
  EXPECT_EQ(told[0].kind, events::reply_kind::tellask_back);
  EXPECT_EQ(told[0].call_id, "c1");  // it answers the call the tellasker waits on
  EXPECT_EQ(told[0].content, with_marker(kTellaskBackMarker, "Which tone?"));
  EXPECT_EQ(told[0].back_call_id, "s1");

  // The tellasker's next final saying answers the tellaskBack it owes, not its own assignment.
  ASSERT_TRUE(router.deliver_final_saying(root, "Friendly.", false, fx));
  const auto answered = replies_to(sub);
  ASSERT_EQ(answered.size(), 1U);
  EXPECT_EQ(answered[0].kind, events::reply_kind::answer);
  EXPECT_EQ(answered[0].call_id, "s1");
  EXPECT_EQ(answered[0].content, "Friendly.");
}

TEST_F(TellaskRouter, FreshBootsReasoningIsAToolLessSubdialogOfTheCallersOwnMemberWithItsOwnHeader) {
  auto& root = make_root("r1");
  ASSERT_TRUE(call(root, "freshBootsReasoning", "c1", R"({"tellaskContent":"Think it over."})"));
  auto& fbr = callee_of(root);
  EXPECT_EQ(fbr.row().member_id, "lead");
  EXPECT_TRUE(fbr.is_fbr());
  EXPECT_EQ(fbr.messages().back().content, course_header(team.language, "lead", true) + "\n\nThink it over.");
  EXPECT_TRUE(router.registry("r1")->empty());
}

TEST_F(TellaskRouter, AFinalSayingRepliesToTheCallerAndCompletesAOneOffButNotASession) {
  auto& root = make_root("r1");
  ASSERT_TRUE(call(root, "tellaskSessionless", "c1", R"({"targetAgentId":"writer","tellaskContent":"Draft."})"));
  auto& one_off = callee_of(root);
  ASSERT_TRUE(
      call(root, "tellask", "c2", R"({"targetAgentId":"researcher","sessionSlug":"market","tellaskContent":"Size."})"));
  auto& session = callee_of(root);
  (void)replies_to(root);

  ASSERT_TRUE(router.deliver_final_saying(one_off, "Here it is.", true, fx));
  ASSERT_TRUE(router.deliver_final_saying(session, "Big.", true, fx));
  const auto told = replies_to(root);
  ASSERT_EQ(told.size(), 2U);
  EXPECT_EQ(told[0].kind, events::reply_kind::final_saying);
  EXPECT_EQ(told[0].call_id, "c1");
  EXPECT_EQ(told[0].content, with_delivery_marker("Here it is.", false));
  EXPECT_EQ(told[1].call_id, "c2");
  EXPECT_EQ(one_off.row().status, events::dialog_status::completed);
  EXPECT_EQ(session.row().status, events::dialog_status::running);  // a registered session stays for the next call
}

TEST_F(TellaskRouter, AQuestionForTheHumanIsIndexedAndObserversHearTheCount) {
  auto& root = make_root("r1");
  auto asked = call(root, "askHuman", "c1", R"({"tellaskContent":"Which market?\nEurope or Asia."})");
  ASSERT_TRUE(asked);
  EXPECT_FALSE(asked->has_value());
  ASSERT_EQ(root.state().questions.size(), 1U);
  EXPECT_EQ(root.state().questions[0].mention_list, "Which market?");
  EXPECT_EQ(root.state().questions[0].call_id, "c1");
  ASSERT_EQ(questions.updates.size(), 1U);
  EXPECT_EQ(questions.updates[0].previous_count, 0);
  EXPECT_EQ(questions.updates[0].question_count, 1);
}

TEST_F(TellaskRouter, ADeadSessionLeavesTheRegistryItsCallerIsToldAndItsSlugStartsAfresh) {
  auto& root = make_root("r1");
  ASSERT_TRUE(
      call(root, "tellask", "c1", R"({"targetAgentId":"researcher","sessionSlug":"market","tellaskContent":"Size."})"));
  auto& session = callee_of(root);
  (void)replies_to(root);
  ASSERT_TRUE(session.stage(events::declared_dead{"stuck"}));
  ASSERT_TRUE(router.forget_dead_subdialog(session, "stuck", fx));
  EXPECT_TRUE(router.registry("r1")->empty());
  const auto told = replies_to(root);
  ASSERT_EQ(told.size(), 1U);
  EXPECT_EQ(told[0].kind, events::reply_kind::dead);
  EXPECT_EQ(told[0].call_id, "c1");

  ASSERT_TRUE(call(root, "tellask", "c2",
                   R"({"targetAgentId":"researcher","sessionSlug":"market","tellaskContent":"Again."})"));
  EXPECT_NE(&callee_of(root), &session);
}

TEST_F(TellaskRouter, ACallPastTheCallersDepthLimitIsRefusedAndStagesNothing) {
  auto& root = make_root("r1");
  ASSERT_TRUE(call(root, "tellaskSessionless", "c1", R"({"targetAgentId":"researcher","tellaskContent":"Dig."})"));
  auto& researcher = callee_of(root);  // depth 1, and its max_tellask_depth is 1
  (void)researcher.take_staged();
  auto refused =
      call(researcher, "tellaskSessionless", "s1", R"({"targetAgentId":"writer","tellaskContent":"Help me."})");
  ASSERT_TRUE(refused);
  ASSERT_TRUE(refused->has_value());
  EXPECT_FALSE((*refused)->ok);
  EXPECT_NE((*refused)->content.find("max_tellask_depth is 1"), std::string::npos) << (*refused)->content;
  EXPECT_TRUE(researcher.take_staged().empty());
  EXPECT_EQ(dialogs.size(), 2U);
}

}  // namespace
}  // namespace parley::engine

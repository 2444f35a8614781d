// Seed 002's group dialogues in the engine: who answers a human's message, and what each member
// sees of the others.
#include <gtest/gtest.h>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <string>
#include <vector>

#include "engine_test_support.hpp"
#include "parley/engine/context_builder.hpp"
#include "parley/engine/dialog_runtime.hpp"
#include "parley/engine/group_routing.hpp"
#include "support/typed_events.hpp"

namespace parley::engine {
namespace {

using testing::temp_team;
namespace json = boost::json;

const char* kTwoMemberTeam =
    "version: 1\nproviders:\n  offline: {kind: scripted, script: script.yaml}\n"
    "members:\n  alpha: {persona: A, provider: offline, model: m, toolsets: [basic]}\n"
    "  beta: {persona: B, provider: offline, model: m}\n";

event make(std::int64_t seq, std::string_view type, json::object payload) {
  return test::typed_event("g1", "g1", seq, type, std::move(payload), 1000 + seq);
}

dialog_row group_row(std::vector<std::string> humans, std::vector<std::string> members, std::string default_member) {
  dialog_row row;
  row.humans = std::move(humans);
  row.members = std::move(members);
  row.member_id = std::move(default_member);
  return row;
}

TEST(GroupRouting, AMentionNamesAMemberOnlyAsAWholeWordAtItsOwnStart) {
  const std::vector<std::string> members{"alpha", "beta"};
  EXPECT_EQ(first_mention("@beta what now?", members), "beta");
  EXPECT_EQ(first_mention("hi @alpha and @beta", members), "alpha");
  EXPECT_EQ(first_mention("(@beta) look", members), "beta");
  EXPECT_EQ(first_mention("mail me at x@beta.org", members), "");
  EXPECT_EQ(first_mention("@betamax is not in the team", members), "");
  EXPECT_EQ(first_mention("@gamma, @", members), "");
}

TEST(GroupRouting, ALioAlwaysAnswersAHumanGroupOnlyWhenAnAiIsMentioned) {
  const auto lio = group_row({"ann"}, {"alpha", "beta"}, "alpha");
  EXPECT_EQ(responder_for(lio, "@beta your turn"), "beta");
  EXPECT_EQ(responder_for(lio, "anyone?"), "alpha");  // the default responder
  const auto group = group_row({"ann", "ben"}, {"alpha"}, "");
  EXPECT_EQ(responder_for(group, "lunch?"), "");
  EXPECT_EQ(responder_for(group, "@alpha book a table"), "alpha");
  const auto humans = group_row({"ann", "ben"}, {}, "");
  EXPECT_EQ(responder_for(humans, "@alpha hello"), "");
}

// Seed 002 ⑦: an AI hosting a group of humans (its root's member_id) answers what names nobody.
TEST(GroupRouting, AHostedGroupOfHumansHearsItsHostUnlessAnotherMemberIsMentioned) {
  const auto hosted = group_row({"ann", "ben"}, {"alpha", "beta"}, "alpha");
  EXPECT_EQ(responder_for(hosted, "lunch?"), "alpha");
  EXPECT_EQ(responder_for(hosted, "@beta book a table"), "beta");
  EXPECT_EQ(responder_for(hosted, "ask @ben"), "alpha");  // a human's name is no member's
}

TEST(GroupDialog, TheMentionedMemberSpeaksNextAndOthersWorkReachesItOnlyAsTheirWords) {
  temp_team files(kTwoMemberTeam, "members: {alpha: [{emit: [{saying: ok}]}], beta: [{emit: [{saying: ok}]}]}\n");
  auto loaded = config::load_team_file(files.dir() / "team.yaml");
  ASSERT_TRUE(loaded.has_value()) << loaded.err().message;
  const auto& team = *loaded;
  json::array calls{json::object{{"id", "c1"}, {"name", "calculate"}, {"arguments", "{}"}}};
  auto dialog = dialog_runtime::replay(
      {make(1, event_type::dialog_created,
            {{"memberId", "alpha"},
             {"kind", "root"},
             {"humans", json::array{"ann"}},
             {"members", json::array{"alpha", "beta"}}}),
       make(2, event_type::user_message,
            {{"course", 1}, {"content", "sum it"}, {"msgId", "m1"}, {"from", "ann"}, {"responder", "alpha"}}),
       make(3, event_type::generation_finished,
            {{"course", 1}, {"genseq", 1}, {"saying", ""}, {"toolCalls", calls}, {"memberId", "alpha"}}),
       make(4, event_type::tool_result, {{"course", 1}, {"callId", "c1"}, {"name", "calculate"}, {"content", "42"}}),
       make(5, event_type::generation_finished,
            {{"course", 1},
             {"genseq", 2},
             {"saying", "It is 42."},
             {"toolCalls", json::array{}},
             {"memberId", "alpha"}}),
       make(6, event_type::user_message,
            {{"course", 1}, {"content", "@beta check it"}, {"msgId", "m2"}, {"from", "ann"}, {"responder", "beta"}})});
  ASSERT_TRUE(dialog.has_value()) << dialog.err().message;
  EXPECT_TRUE((*dialog)->is_group());
  EXPECT_EQ((*dialog)->speaking_member(), "beta");

  const auto for_beta = build_model_request(**dialog, *team.find_member("beta"), {}, 1, prompt_setting{});
  ASSERT_EQ(for_beta.messages.size(), 3U);
  EXPECT_EQ(for_beta.messages[0].content, "sum it");  // one human: no name needed
  EXPECT_EQ(for_beta.messages[1].role, llm::role::user);
  EXPECT_EQ(for_beta.messages[1].content, "[@alpha] It is 42.");
  EXPECT_EQ(for_beta.messages[2].content, "@beta check it");
  EXPECT_NE(for_beta.system_prompt.find("group dialog"), std::string::npos);

  // alpha still sees its own calls and their results.
  const auto for_alpha = build_model_request(**dialog, *team.find_member("alpha"), {}, 1, prompt_setting{});
  ASSERT_EQ(for_alpha.messages.size(), 5U);
  EXPECT_EQ(for_alpha.messages[1].tool_calls.size(), 1U);
  EXPECT_EQ(for_alpha.messages[2].role, llm::role::tool);
  EXPECT_EQ(for_alpha.messages[3].role, llm::role::assistant);
}

TEST(GroupDialog, InAGroupOfHumansEachMessageNamesItsWriterAndARelayedOneNeedsNoDrive) {
  temp_team files(kTwoMemberTeam, "members: {alpha: [{emit: [{saying: ok}]}], beta: [{emit: [{saying: ok}]}]}\n");
  auto loaded = config::load_team_file(files.dir() / "team.yaml");
  ASSERT_TRUE(loaded.has_value()) << loaded.err().message;
  const auto& team = *loaded;
  auto dialog = dialog_runtime::replay(
      {make(1, event_type::dialog_created,
            {{"memberId", ""},
             {"kind", "root"},
             {"humans", json::array{"ann", "ben"}},
             {"members", json::array{"alpha"}}}),
       make(2, event_type::user_message,
            {{"course", 1}, {"content", "lunch?"}, {"msgId", "m1"}, {"from", "ann"}, {"responder", ""}})});
  ASSERT_TRUE(dialog.has_value()) << dialog.err().message;
  EXPECT_FALSE((*dialog)->row().needs_drive);
  const auto request = build_model_request(**dialog, *team.find_member("alpha"), {}, 1, prompt_setting{});
  ASSERT_EQ(request.messages.size(), 1U);
  EXPECT_EQ(request.messages[0].content, "[@ann] lunch?");
}

}  // namespace
}  // namespace parley::engine

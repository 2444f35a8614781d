// The team section of a system prompt in the cases the snapshots do not show: where a dialog sits
// (group, Type C, self-reflection, FBR, an unknown tellasker) and which lines a member's tools allow.
#include <gtest/gtest.h>

#include <string>

#include "parley/engine/team_roster_prompt.hpp"

namespace parley::engine {
namespace {

config::member_config member(std::string id, std::string name, std::vector<std::string> gofor = {},
                             bool hidden = false) {
  config::member_config m;
  m.id = std::move(id);
  m.name = std::move(name);
  m.gofor = std::move(gofor);
  m.hidden = hidden;
  return m;
}

class team_roster_test : public ::testing::Test {
 protected:
  team_roster_test() {
    team_.members = {member("lead", "Lead"), member("researcher", "Researcher", {"finding facts on the web"}),
                     member("ghost", "Ghost", {"haunting"}, true)};
  }

  std::string section(std::string_view member_id, dialog_position position,
                      std::vector<std::string_view> tools = {"tellask", "tellaskSessionless", "tellaskBack",
                                                             "freshBootsReasoning", "askHuman"},
                      std::string_view language = "en") const {
    roster_input input;
    input.language = language;
    input.team = &team_;
    input.self = team_.find_member(member_id);
    input.position = std::move(position);
    input.tellask_tools = std::move(tools);
    return team_roster_section(input);
  }

  static bool has(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

  config::team_config team_;
};

using TeamRoster = team_roster_test;

TEST_F(TeamRoster, HiddenMembersAreLeftOutUnlessTheyAreTheMemberItself) {
  const auto for_lead = section("lead", {});
  EXPECT_TRUE(has(for_lead, "- @lead (Lead): you\n"));
  EXPECT_TRUE(has(for_lead, "- @researcher (Researcher)\n  - go to them for: finding facts on the web\n"));
  EXPECT_FALSE(has(for_lead, "ghost"));
  EXPECT_FALSE(has(for_lead, "haunting"));
  const auto for_ghost = section("ghost", {});
  EXPECT_TRUE(has(for_ghost, "- @ghost (Ghost): you\n"));
  EXPECT_FALSE(has(for_ghost, "haunting"));  // its own card is for the others
}

TEST_F(TeamRoster, EachPlaceSaysWhoAskedAndWhereTheReplyGoes) {
  using kind = dialog_position::kind;
  EXPECT_TRUE(has(section("lead", {kind::root}), "A root dialog: you work for the human who writes here"));
  EXPECT_TRUE(has(section("lead", {kind::group}), "A root dialog shared by the participants named below."));
  EXPECT_TRUE(has(section("researcher", {kind::session, "lead", "market"}),
                  "A subdialog: @lead tellasked you in session `market` (tellask, Type B)."));
  EXPECT_TRUE(has(section("researcher", {kind::sessionless, "lead"}),
                  "A subdialog: @lead tellasked you once (tellaskSessionless, Type C); your final reply goes to "
                  "them and ends this dialog."));
  EXPECT_TRUE(has(section("lead", {kind::reflection, "lead"}), "A self-reflection subdialog started by @lead"));
  EXPECT_TRUE(has(section("researcher", {kind::sessionless, ""}), "A subdialog: your tellasker tellasked you once"));
  EXPECT_TRUE(has(section("researcher", {kind::sessionless, "lead"}),
                  "- tellaskBack: Type A, ask @lead, your tellasker, for clarification"));
}

TEST_F(TeamRoster, AFreshBootsReasoningSidelineIsNotToldToDelegate) {
  const auto fbr = section("lead", {dialog_position::kind::fbr, "lead"}, {});
  EXPECT_EQ(fbr,
            "## Where you are\nA Fresh Boots Reasoning sideline asked by @lead (maybe yourself); your reply goes "
            "back to them.");
}

TEST_F(TeamRoster, OnlyTheTellasksAMemberMayMakeAreExplained) {
  const auto human_only = section("researcher", {}, {"askHuman"});
  EXPECT_TRUE(has(human_only, "Team members:\n"));  // it cannot Tellask them, so no targetAgentId
  EXPECT_TRUE(has(human_only, "- askHuman: a question for the human (Q4H)."));
  EXPECT_FALSE(has(human_only, "- tellask"));
  EXPECT_FALSE(has(human_only, "freshBootsReasoning"));
  const auto nothing = section("researcher", {}, {});
  EXPECT_FALSE(has(nothing, "## Which Tellask to use"));
  EXPECT_FALSE(has(nothing, "The human: ask with askHuman"));
}

TEST_F(TeamRoster, AMemberWithoutTeammatesIsNotInvitedToTellaskItself) {
  team_.members = {member("solo", "Solo")};
  const auto text = section("solo", {});
  EXPECT_TRUE(has(text, "## Team\nYou are the team's only member.\n"));
  EXPECT_FALSE(has(text, "- tellask:"));
  EXPECT_FALSE(has(text, "- tellaskSessionless:"));
  EXPECT_TRUE(has(text, "- freshBootsReasoning:"));
}

TEST_F(TeamRoster, ChineseTeamsAreToldInChinese) {
  const auto text = section("researcher", {dialog_position::kind::sessionless, "lead"}, {"tellaskBack"}, "zh");
  EXPECT_TRUE(has(text, "## 团队\n团队成员：\n- @lead（Lead）\n- @researcher（Researcher）：你自己\n"));
  EXPECT_TRUE(has(text, "支线对话：@lead 一次性诉请了你"));
  EXPECT_TRUE(has(text, "- tellaskBack：回问诉请（Type A），向你的诉请者 @lead 请求澄清或决定"));
  EXPECT_EQ(identity_line("zh", team_.members[0]), "你是 Lead（@lead），一个智能体团队的成员。");
  EXPECT_EQ(identity_line("en", team_.members[0]), "You are Lead (@lead), a member of an agent team.");
}

TEST_F(TeamRoster, MultiLineCardItemsKeepTheirIndentation) {
  team_.members[1].nogo = {"writing code", "anything\nlegal"};
  EXPECT_TRUE(has(section("lead", {}), "  - not for:\n    - writing code\n    - anything\n      legal\n"));
}

}  // namespace
}  // namespace parley::engine

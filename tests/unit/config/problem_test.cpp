// config::problem: a positioned reader message taken apart, and said back the same way.
#include <gtest/gtest.h>

#include "parley/config/problem.hpp"

namespace parley::config {
namespace {

TEST(Problem, APositionedMessageIsTakenApartAndSaidBackWhole) {
  const std::string message = "/w/.minds/team.yaml:5:5: members.dev.toolsets: toolset 'x': left out";
  const problem p = problem_from_message(message, "dev");
  EXPECT_EQ(p.file, "/w/.minds/team.yaml");
  EXPECT_EQ(p.line, 5);
  EXPECT_EQ(p.column, 5);
  EXPECT_EQ(p.member, "dev");
  EXPECT_EQ(p.what, "members.dev.toolsets");
  EXPECT_EQ(p.why, "toolset 'x': left out");
  EXPECT_EQ(p.text(), message);
}

TEST(Problem, AMessageWithoutPositionOrPathIsAllWhy) {
  const problem p = problem_from_message("MCP server 'web' is left out: its id is taken");
  EXPECT_TRUE(p.file.empty());
  EXPECT_EQ(p.line, 0);
  EXPECT_TRUE(p.what.empty());
  EXPECT_EQ(p.text(), "MCP server 'web' is left out: its id is taken");
}

TEST(Problem, AColonInTheFileNameIsNotAPosition) {
  const problem p = problem_from_message("/w/a:b/team.yaml:12:3: default_responder: shadow member");
  EXPECT_EQ(p.file, "/w/a:b/team.yaml");
  EXPECT_EQ(p.line, 12);
  EXPECT_EQ(p.column, 3);
  EXPECT_EQ(p.what, "default_responder");
}

TEST(Problem, OnlyABlockingProblemStopsItsMember) {
  std::vector<problem> problems{problem_from_message("a.yaml:1:1: x: y", "dev")};
  EXPECT_TRUE(member_can_run(problems, "dev"));
  problems[0].blocks_member = true;
  EXPECT_FALSE(member_can_run(problems, "dev"));
  EXPECT_TRUE(member_can_run(problems, "ops"));
}

}  // namespace
}  // namespace parley::config

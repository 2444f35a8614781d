// REST black-box of the Tree of Thoughts routes: POST /api/tot refuses bad fields naming them
// and starts nothing; a run starts with its root dialog, and GET /api/tot/{id} follows it to a
// final_solution — here one that says what failed, since the test team's scripted model does not
// speak the ToT protocol. The team's lead lists tree_of_thoughts, so the server has the ToT members.
#include <chrono>
#include <thread>

#include "rest_fixture.hpp"

namespace parley::test {
namespace {

TEST_F(RestTest, TotRefusesBadFieldsNamingThemAndStartsNothing) {
  start("tot");
  const auto c = client();
  const std::pair<boost::json::value, std::string> cases[] = {
      {boost::json::value{{"depth", 3}}, "problem: required"},
      {boost::json::value{{"problem", ""}}, "problem: expected a non-empty string"},
      {boost::json::value{{"problem", "4 9 10 13"}, {"taskType", "poetry"}}, "task_type: 'poetry' is not one of"},
      {boost::json::value{{"problem", "4 9 10 13"}, {"depth", 11}}, "depth: 11 is outside 1–10"},
      {boost::json::value{{"problem", "4 9 10 13"}, {"depth", 2.5}}, "depth: expected an integer"},
      {boost::json::value{{"problem", "4 9 10 13"}, {"breadth", "wide"}}, "breadth: expected a number, got string"},
      {boost::json::value{{"problem", "4 9 10 13"}, {"threshold", 12}}, "threshold: must be a number 0–10"},
      {boost::json::value{{"problem", "4 9 10 13"}, {"strategy", "A*"}}, "strategy: 'A*' is not one of BFS, DFS"},
      {boost::json::value{{"problem", "4 9 10 13"}, {"generationStrategy", "guessing"}},
       "generation_strategy: 'guessing' is not one of"},
      {boost::json::value{{"problem", "4 9 10 13"}, {"evaluationStrategy", 3}}, "evaluationStrategy: expected"},
      {boost::json::value{{"problem", "4 9 10 13"}, {"breath", 3}}, "breath: unknown field"},
      {boost::json::value{{"problem", std::string(9000, '7')}}, "problem: 9000 bytes is more than 8192"},
  };
  for (const auto& [body, expected] : cases) {
    const auto reply = c.post("/api/tot", body);
    EXPECT_EQ(reply.status, 400) << expected;
    EXPECT_EQ(code_of(reply), "bad_field");
    EXPECT_EQ(message_of(reply).rfind(expected, 0), 0U) << message_of(reply);
  }
  EXPECT_EQ(c.get("/api/dialogs").json().at("total"), 0);
  EXPECT_FALSE(std::filesystem::exists(team_dir_ / "workspace" / "logs"));
  EXPECT_FALSE(std::filesystem::exists(data_dir() / "logs"));
  EXPECT_EQ(c.get("/api/tot/tot-20250101-000000-abcdef").status, 404);
}

TEST_F(RestTest, TotStartsARunUnderItsRootAndEndsWithAFinalSolutionSayingWhatFailed) {
  start("tot");
  const auto c = client();
  const auto reply = c.post("/api/tot", boost::json::value{{"problem", "4 9 10 13"}, {"breadth", 3}});
  ASSERT_EQ(reply.status, 202) << reply.body;
  const auto started = reply.json();
  const std::string task_id(started.at("taskId").as_string());
  const std::string root(started.at("rootDialog").as_string());
  EXPECT_EQ(dialog(root).at("dialog").at("memberId"), "tot-orchestrator");
  boost::json::value view;
  for (int i = 0; i < 200; ++i) {
    view = c.get("/api/tot/" + task_id).json();
    if (view.at("status") != "running") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_EQ(view.at("status"), "failed");
  const auto& errors = view.at("finalSolution").at("verification").at("validation_errors").as_array();
  ASSERT_FALSE(errors.empty());
  EXPECT_EQ(std::string(errors[0].as_string()).rfind("GENERATION_FAILED: decomposer", 0), 0U) << errors[0];
  // Seed 003 (日志规范): the run's folder is in the project's logs/ — the team's workspace.
  EXPECT_TRUE(std::filesystem::exists(team_dir_ / "workspace" / "logs" / task_id / "99-merged-timeline.log"));

  // The web UI finds the run from its root dialog.
  const auto listed = c.get("/api/tot?rootDialog=" + root);
  ASSERT_EQ(listed.status, 200) << listed.body;
  const auto listed_json = listed.json();
  const auto& runs = listed_json.at("runs").as_array();
  ASSERT_EQ(runs.size(), 1U);
  EXPECT_EQ(runs[0].at("taskId"), task_id.c_str());
  EXPECT_EQ(runs[0].at("status"), "failed");
}

TEST_F(RestTest, TotRunsOfARootAreListedAndBadQueriesNameTheField) {
  start("tot");
  const auto c = client();
  const auto created = c.post("/api/dialogs", boost::json::value{{"content", "hello"}});
  ASSERT_EQ(created.status, 201) << created.body;
  const std::string plain(created.json().at("dialog").at("id").as_string());
  const auto none = c.get("/api/tot?rootDialog=" + plain);
  ASSERT_EQ(none.status, 200) << none.body;
  EXPECT_TRUE(none.json().at("runs").as_array().empty());
  EXPECT_EQ(c.get("/api/tot?rootDialog=no-such-dialog").status, 404);
  const auto missing = c.get("/api/tot");
  EXPECT_EQ(missing.status, 400);
  EXPECT_EQ(message_of(missing).rfind("rootDialog: required", 0), 0U) << message_of(missing);
  const auto unknown = c.get("/api/tot?rootDialog=" + plain + "&root=x");
  EXPECT_EQ(unknown.status, 400);
  EXPECT_EQ(message_of(unknown).rfind("root: unknown parameter", 0), 0U) << message_of(unknown);
}

TEST_F(RestTest, TotOnATeamWithoutTheToTMembersSaysHowToAddThem) {
  start("q4h");
  const auto reply = client().post("/api/tot", boost::json::value{{"problem", "4 9 10 13"}});
  EXPECT_EQ(reply.status, 409);
  EXPECT_EQ(message_of(reply).rfind("the team has no tot-orchestrator member: list tree_of_thoughts", 0), 0U)
      << message_of(reply);
  EXPECT_EQ(client().get("/api/dialogs").json().at("total"), 0);
}

}  // namespace
}  // namespace parley::test

// Black-box: GET /api/problems lists what a Dominds workspace asks for that Parley cannot honour
// (docs/team-yaml.md "Problems"), behind the API's token like every other route.
#include <fstream>

#include "rest_fixture.hpp"

namespace parley::test {
namespace {

class RestProblemsTest : public RestTest {
 protected:
  // A workspace whose providers are never called here: `dev` on a local OpenAI-compatible one (no
  // server behind it), `other` on a provider nothing defines.
  void start_workspace() {
    const auto minds = root_ / "ws" / ".minds";
    std::filesystem::create_directories(minds);
    std::ofstream(minds / "llm.yaml")
        << "providers:\n  local:\n    apiType: openai-compatible\n    baseUrl: http://127.0.0.1:9/v1\n"
           "    models: [m]\n";
    std::ofstream(minds / "team.yaml") << "members:\n  dev:\n    provider: local\n    toolsets: [ws_read, fs_read]\n"
                                          "  other:\n    provider: nowhere\n    model: m\n";
    server_ = std::make_unique<server_process>(std::vector<std::string>{
        "--workspace", (root_ / "ws").string(), "--data", data_dir().string(), "--token", "sesame"});
    ASSERT_TRUE(server_->started()) << server_->output();
  }
};

TEST_F(RestProblemsTest, ListsTheWorkspacesProblemsBehindTheToken) {
  start_workspace();
  EXPECT_EQ(rest_client(server_->port()).get("/api/problems").status, 401);
  const auto reply = client().get("/api/problems");
  ASSERT_EQ(reply.status, 200) << reply.body;
  const auto body = reply.json();
  const auto& problems = body.at("problems").as_array();
  ASSERT_EQ(problems.size(), 2U) << reply.body;
  const std::string team_file = (root_ / "ws" / ".minds" / "team.yaml").string();
  const auto& blocked = problems[0].as_object();
  EXPECT_EQ(blocked.at("member"), "other");
  EXPECT_EQ(blocked.at("file"), team_file.c_str());
  EXPECT_EQ(blocked.at("line"), 6);
  EXPECT_EQ(blocked.at("what"), "members.other.provider");
  EXPECT_TRUE(blocked.at("blocksMember").as_bool());
  const auto& left_out = problems[1].as_object();
  EXPECT_EQ(left_out.at("member"), "dev");
  EXPECT_EQ(left_out.at("line"), 4);
  EXPECT_EQ(left_out.at("what"), "members.dev.toolsets");
  EXPECT_FALSE(left_out.at("blocksMember").as_bool());
  EXPECT_NE(std::string(left_out.at("why").as_string()).find("toolset 'fs_read'"), std::string::npos);
  EXPECT_NE(std::string(left_out.at("text").as_string()).find(team_file + ":4:5: members.dev.toolsets: "),
            std::string::npos);
  // Both are said at start, on stderr, one line each.
  EXPECT_NE(server_->output().find("parley: problem: " + team_file + ":6:"), std::string::npos) << server_->output();
  EXPECT_NE(server_->output().find("parley: problem: " + team_file + ":4:5:"), std::string::npos) << server_->output();
}

TEST_F(RestProblemsTest, AParleyTeamHasNone) {
  start("q4h");
  const auto reply = client().get("/api/problems");
  ASSERT_EQ(reply.status, 200) << reply.body;
  EXPECT_TRUE(reply.json().at("problems").as_array().empty());
}

}  // namespace
}  // namespace parley::test

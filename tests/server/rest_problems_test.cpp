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

// YAML's double-quoted scalar.
std::string cleared_quoted(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) out += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
  return out + "\"";
}

// team_mgmt_clear_problems' acknowledgements (docs/team-yaml.md "Problems"): an entry with another
// text hides nothing; once `.minds/problems-cleared.yaml` names the toolset left out as it is, it is
// not listed; the member that cannot run stays listed though named too.
TEST_F(RestProblemsTest, LeavesOutTheProblemsClearedWhileTheyStayTheSame) {
  const auto minds = root_ / "ws" / ".minds";
  std::filesystem::create_directories(minds);
  std::ofstream(minds / "problems-cleared.yaml")
      << "cleared:\n  - file: team.yaml\n    what: members.dev.toolsets\n    why: \"unknown toolset 'fs_read'\"\n";
  start_workspace();
  const auto before = client().get("/api/problems");
  ASSERT_EQ(before.status, 200) << before.body;
  const auto listed = before.json().at("problems").as_array();
  ASSERT_EQ(listed.size(), 2U) << before.body;
  std::ofstream cleared(minds / "problems-cleared.yaml");
  cleared << "cleared:\n";
  for (const auto& item : listed) {
    cleared << "  - file: team.yaml\n    what: " << std::string(item.at("what").as_string())
            << "\n    why: " << cleared_quoted(item.at("why").as_string()) << "\n";
  }
  cleared.close();
  ASSERT_EQ(server_->terminate(), 0) << server_->output();
  start_workspace();
  const auto reply = client().get("/api/problems");
  ASSERT_EQ(reply.status, 200) << reply.body;
  const auto body = reply.json();
  const auto& problems = body.at("problems").as_array();
  ASSERT_EQ(problems.size(), 1U) << reply.body;
  EXPECT_EQ(problems[0].at("member"), "other");
  EXPECT_TRUE(problems[0].at("blocksMember").as_bool());
}

TEST_F(RestProblemsTest, AParleyTeamHasNone) {
  start("q4h");
  const auto reply = client().get("/api/problems");
  ASSERT_EQ(reply.status, 200) << reply.body;
  EXPECT_TRUE(reply.json().at("problems").as_array().empty());
}

}  // namespace
}  // namespace parley::test

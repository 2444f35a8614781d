// Black-box: `parley serve` reloads its team when `.minds/` changes (docs/team-yaml.md
// "Reloading"). A persona written on disk is in the next drive's prompt; a team.yaml broken on disk
// is a Problem (GET /api/problems, a log line) while the last good team runs; and the Problems are
// recomputed with each reload, mcp.yaml's included.
#include <fstream>

#include "rest_fixture.hpp"

namespace parley::test {
namespace {

namespace json = boost::json;

class team_reload_rest : public RestTest {
 protected:
  std::filesystem::path minds() const { return root_ / "ws" / ".minds"; }
  void write(const std::filesystem::path& file, const std::string& text) const {
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file, std::ios::trunc) << text;
  }
  // A workspace on Dominds' mock provider (its own tests' way): `dev` answers "hello" and "again".
  void start_workspace(const std::string& team_yaml) {
    write(minds() / "llm.yaml",
          "providers:\n  local-mock:\n    apiType: mock\n    baseUrl: mock-db\n"
          "    models:\n      default: {}\n");
    write(root_ / "ws" / "mock-db" / "default.yaml",
          "responses:\n  - {message: hello, role: user, response: Hi there.}\n"
          "  - {message: again, role: user, response: Hi again.}\n");
    write(minds() / "team.yaml", team_yaml);
    write(minds() / "team" / "dev" / "persona.md", "You are Ada, first edition.\n");
    server_ = std::make_unique<server_process>(
        std::vector<std::string>{"--workspace", (root_ / "ws").string(), "--data", data_dir().string()});
    ASSERT_TRUE(server_->started()) << server_->output();
  }
  static std::string team_yaml(const std::string& dev_extra = "") {
    // Diligence push off: the mock answers only what its database lists.
    return "member_defaults:\n  provider: local-mock\n  model: default\n  diligence-push-max: 0\nmembers:\n  dev:\n"
           "    name: Dev\n" +
           dev_extra;
  }
  // Waits until the server has said `text` `times` times in all.
  bool said(const std::string& text, std::size_t times = 1) {
    return eventually([&] {
      std::size_t found = 0;
      for (auto at = server_->output().find(text); at != std::string::npos; at = server_->output().find(text, at + 1)) {
        ++found;
      }
      return found >= times;
    });
  }
  json::array problems() const {
    const auto reply = client().get("/api/problems");
    EXPECT_EQ(reply.status, 200) << reply.body;
    const auto body = reply.json();
    return body.is_object() ? body.at("problems").as_array() : json::array{};
  }
  json::array prompts(const std::string& id) const {
    const auto body = client().get("/api/dialogs/" + id + "/prompts").json();
    return body.is_object() ? body.at("prompts").as_array() : json::array{};
  }
};
using TeamReloadRest = team_reload_rest;

TEST_F(TeamReloadRest, APersonaWrittenOnDiskIsInTheNextDrivesPrompt) {
  start_workspace(team_yaml());
  const auto id = create_dialog("hello");
  ASSERT_TRUE(eventually_says(id, "Hi there."));
  write(minds() / "team" / "dev" / "persona.md", "You are Ada, second edition.\n");
  ASSERT_TRUE(said("parley: team reloaded from ")) << server_->output();
  ASSERT_EQ(client().post("/api/dialogs/" + id + "/messages", json::value{{"content", "again"}}).status, 202);
  ASSERT_TRUE(eventually_says(id, "Hi again."));
  const auto logged = prompts(id);
  ASSERT_EQ(logged.size(), 2U) << json::serialize(logged);
  const std::string first(logged.at(0).at("systemPrompt").as_string());
  const std::string second(logged.at(1).at("systemPrompt").as_string());
  EXPECT_NE(first.find("first edition"), std::string::npos) << first;
  EXPECT_NE(second.find("second edition"), std::string::npos) << second;
  EXPECT_EQ(second.find("first edition"), std::string::npos) << second;
}

TEST_F(TeamReloadRest, ABrokenTeamFileIsAProblemAndTheLastGoodTeamRuns) {
  start_workspace(team_yaml());
  EXPECT_TRUE(problems().empty());
  write(minds() / "team.yaml", "members:\n  dev: [\n");
  ASSERT_TRUE(said("the team was not reloaded, the last good team runs")) << server_->output();
  const auto listed = problems();
  ASSERT_EQ(listed.size(), 1U) << json::serialize(listed);
  EXPECT_EQ(listed.at(0).at("file"), (minds() / "team.yaml").string().c_str());
  EXPECT_NE(std::string(listed.at(0).at("why").as_string()).find("the last good team runs"), std::string::npos);
  // The team it had still answers.
  const auto id = create_dialog("hello");
  EXPECT_TRUE(eventually_says(id, "Hi there."));
  // Mended, the problem goes.
  write(minds() / "team.yaml", team_yaml());
  ASSERT_TRUE(said("parley: team reloaded from ")) << server_->output();
  EXPECT_TRUE(problems().empty());
}

TEST_F(TeamReloadRest, ProblemsAreRecomputedWhenMcpYamlChanges) {
  // `browser` names an MCP server mcp.yaml does not have yet: a Problem, the member runs without it.
  start_workspace(team_yaml("    toolsets: [browser]\n"));
  auto listed = problems();
  ASSERT_EQ(listed.size(), 1U) << json::serialize(listed);
  EXPECT_NE(std::string(listed.at(0).at("why").as_string()).find("toolset 'browser'"), std::string::npos);
  // The server is configured (never started here: nobody drives `dev` after): the problem goes.
  write(minds() / "mcp.yaml", "version: 1\nservers:\n  browser:\n    transport: stdio\n    command: node\n");
  ASSERT_TRUE(said("parley: team reloaded from ")) << server_->output();
  listed = problems();
  EXPECT_TRUE(listed.empty()) << json::serialize(listed);
}

}  // namespace
}  // namespace parley::test

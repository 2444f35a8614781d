// The team_mgmt tools Parley first left out (issue 46, item 3), under Dominds' names and arguments:
// team_mgmt_check_provider really asks the provider (a fake one on 127.0.0.1: reachable, key
// refused, wrong URL, nothing listening) and never shows the key; team_mgmt_link_skill and
// _unlink_skill hand a pooled skill to a member as Dominds' link, refused when it would not load;
// team_mgmt_validate_priming_scripts checks Dominds' startup-script format with FILE:LINE errors;
// team_mgmt_clear_problems acknowledges problems so they are not listed again while they stay
// the same.
#include <gtest/gtest.h>

#include <cstdlib>

#include "parley/config/cleared_problems.hpp"
#include "parley/config/team.hpp"
#include "parley/tools/dominds_tools.hpp"
#include "support/fake_http_server.hpp"
#include "workspace_fixture.hpp"

namespace parley::tools::testing {
namespace {

bool admin_has(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

constexpr const char* kAdminKeyEnv = "PARLEY_TEST_DMGMT_KEY";
constexpr const char* kAdminKey = "sk-dmgmt-secret-4711";
constexpr std::string_view kAdminTeam = "member_defaults:\n  provider: local\n  model: m\nmembers:\n  alice: {}\n";

class TeamMgmtAdminTools : public workspace_fixture {
 protected:
  void SetUp() override {
    workspace_fixture::SetUp();
    register_dominds_tools(registry_);
    ctx_.member_id = "admin";
    ::setenv(kAdminKeyEnv, kAdminKey, 1);
    use_base_url("http://127.0.0.1:9/v1");
    put(".minds/team.yaml", std::string(kAdminTeam));
    put(".minds/team/alice/persona.md", "You are Alice.\n");
  }
  void TearDown() override {
    ::unsetenv(kAdminKeyEnv);
    workspace_fixture::TearDown();
  }
  void use_base_url(const std::string& url, const std::string& api_type = "openai-compatible") {
    put(".minds/llm.yaml", "providers:\n  local:\n    apiType: " + api_type + "\n    baseUrl: " + url +
                               "\n    apiKeyEnvVar: " + kAdminKeyEnv + "\n    models:\n      m: {}\n      n: {}\n");
  }
};

TEST_F(TeamMgmtAdminTools, CheckProviderWithoutLiveChecksTheConfigAndNeverShowsTheKey) {
  const auto out = call("team_mgmt_check_provider", R"({"provider_key":"local"})");
  ASSERT_TRUE(out.ok) << out.content;
  EXPECT_TRUE(admin_has(out.content, "# Provider Check\n- provider: `local` (apiType: `openai-compatible`)\n"))
      << out.content;
  EXPECT_TRUE(admin_has(out.content, "apiKeyEnvVar: PARLEY_TEST_DMGMT_KEY (configured)")) << out.content;
  EXPECT_TRUE(admin_has(out.content, "models: m, n\n- live: false")) << out.content;
  EXPECT_FALSE(admin_has(out.content, kAdminKey)) << out.content;
  ::unsetenv(kAdminKeyEnv);
  const auto unset = call("team_mgmt_check_provider", R"({"provider_key":"local"})");
  EXPECT_FALSE(unset.ok);
  EXPECT_TRUE(admin_has(unset.content, "# Provider Check Failed\n")) << unset.content;
  EXPECT_TRUE(admin_has(unset.content, "(NOT set)")) << unset.content;
}

TEST_F(TeamMgmtAdminTools, CheckProviderRefusesWhatItCannotCheck) {
  const auto missing = call("team_mgmt_check_provider", R"({"provider_key":"nowhere"})");
  EXPECT_FALSE(missing.ok);
  EXPECT_TRUE(admin_has(missing.content, "Provider not found: `nowhere`")) << missing.content;
  const auto model = call("team_mgmt_check_provider", R"({"provider_key":"local","model":"zz"})");
  EXPECT_FALSE(model.ok);
  EXPECT_TRUE(admin_has(model.content, "Model not found: `zz`")) << model.content;
  const auto both = call("team_mgmt_check_provider", R"({"provider_key":"local","model":"m","all_models":true})");
  EXPECT_FALSE(both.ok);
  EXPECT_TRUE(admin_has(both.content, "not both")) << both.content;
  const auto bad = call("team_mgmt_check_provider", R"({"provider_key":"local","live":"yes"})");
  EXPECT_FALSE(bad.ok);
  EXPECT_TRUE(admin_has(bad.content, "live")) << bad.content;
}

TEST_F(TeamMgmtAdminTools, CheckProviderLiveAsksTheModelsListWithTheKey) {
  parley::testing::fake_http_server server;
  server.push(parley::testing::fake_response::json(R"({"object":"list","data":[{"id":"m"},{"id":"other"}]})"));
  use_base_url(server.base_url() + "/v1");
  const auto out = call("team_mgmt_check_provider", R"({"provider_key":"local","all_models":true,"live":true})");
  ASSERT_TRUE(out.ok) << out.content;
  EXPECT_TRUE(
      admin_has(out.content, "## Provider Connectivity (live)\n- request: GET " + server.base_url() + "/v1/models\n"))
      << out.content;
  EXPECT_TRUE(admin_has(out.content, "- status: ✅ reachable (HTTP 200)\n- the provider lists 2 model(s)\n"))
      << out.content;
  EXPECT_TRUE(admin_has(out.content, "- m: ✅ listed\n- n: ⚠️ not listed by the provider\n")) << out.content;
  EXPECT_FALSE(admin_has(out.content, kAdminKey)) << out.content;
  const auto requests = server.requests();
  ASSERT_EQ(requests.size(), 1U);
  EXPECT_EQ(requests[0].method, "GET");
  EXPECT_EQ(requests[0].target, "/v1/models");
  EXPECT_EQ(requests[0].header("authorization"), std::string("Bearer ") + kAdminKey);
}

TEST_F(TeamMgmtAdminTools, CheckProviderLiveSaysWhenTheKeyIsRefusedOrTheUrlIsWrong) {
  parley::testing::fake_http_server server;
  server.push(parley::testing::fake_response::json(
      std::string(R"({"error":{"message":"Incorrect API key provided: )") + kAdminKey + R"("}})", 401));
  server.push(parley::testing::fake_response::json(R"({"error":"no such route"})", 404));
  use_base_url(server.base_url() + "/v1");
  const auto refused = call("team_mgmt_check_provider", R"({"provider_key":"local","live":true})");
  EXPECT_FALSE(refused.ok);
  EXPECT_TRUE(admin_has(refused.content, "- status: ❌ auth refused (HTTP 401)\n")) << refused.content;
  EXPECT_TRUE(admin_has(refused.content, "Incorrect API key provided: ***")) << refused.content;
  EXPECT_FALSE(admin_has(refused.content, kAdminKey)) << refused.content;
  const auto wrong = call("team_mgmt_check_provider", R"({"provider_key":"local","live":true})");
  EXPECT_FALSE(wrong.ok);
  EXPECT_TRUE(admin_has(wrong.content, "- status: ❌ not found (check baseUrl) (HTTP 404)\n")) << wrong.content;
}

TEST_F(TeamMgmtAdminTools, CheckProviderLiveSendsAnthropicsKeyHeader) {
  parley::testing::fake_http_server server;
  server.push(parley::testing::fake_response::json(R"({"data":[{"id":"m"}]})"));
  use_base_url(server.base_url(), "anthropic-compatible");
  const auto out = call("team_mgmt_check_provider", R"({"provider_key":"local","model":"m","live":true})");
  ASSERT_TRUE(out.ok) << out.content;
  const auto requests = server.requests();
  ASSERT_EQ(requests.size(), 1U);
  EXPECT_EQ(requests[0].target, "/v1/models");
  EXPECT_EQ(requests[0].header("x-api-key"), kAdminKey);
  EXPECT_FALSE(requests[0].header("anthropic-version").empty());
  EXPECT_TRUE(requests[0].header("authorization").empty());
}

TEST_F(TeamMgmtAdminTools, CheckProviderLiveSaysWhenNothingListens) {
  std::uint16_t port = 0;
  {
    parley::testing::fake_http_server closed;  // a port that was just free, and is again
    port = closed.port();
  }
  use_base_url("http://127.0.0.1:" + std::to_string(port) + "/v1");
  const auto out = call("team_mgmt_check_provider", R"({"provider_key":"local","live":true})");
  EXPECT_FALSE(out.ok);
  EXPECT_TRUE(admin_has(out.content, "- status: ❌ unreachable: ")) << out.content;
}

constexpr std::string_view kAdminReviewSkill =
    "---\nname: Review checklist\ndescription: Use before approving a change.\n---\nRead the diff whole.\n";

TEST_F(TeamMgmtAdminTools, LinkSkillHandsAPooledSkillToOneMember) {
  put(".minds/skills/linkable/review/SKILL.md", std::string(kAdminReviewSkill));
  const auto linked = call("team_mgmt_link_skill", R"({"member_id":"alice","skill_id":"review"})");
  ASSERT_TRUE(linked.ok) << linked.content;
  EXPECT_TRUE(admin_has(linked.content, "status: ok\nmode: link_skill\nmember_id: 'alice'\nskill_id: 'review'\n"))
      << linked.content;
  EXPECT_TRUE(admin_has(linked.content, "path: '.minds/skills/individual/alice/review'")) << linked.content;
  const auto link = workspace_ / ".minds/skills/individual/alice/review";
  ASSERT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(fs::read_symlink(link), fs::path("../../linkable/review"));
  auto team = config::load_dominds_workspace(workspace_);
  ASSERT_TRUE(team) << team.err().message;
  ASSERT_EQ(team->skills.size(), 1U);
  EXPECT_EQ(team->skills[0].member_id, "alice");
  EXPECT_EQ(team->skills[0].title, "Review checklist");
  const auto again = call("team_mgmt_link_skill", R"({"member_id":"alice","skill_id":"review"})");
  EXPECT_FALSE(again.ok);
  EXPECT_TRUE(admin_has(again.content, "already exists")) << again.content;
  const auto unlinked = call("team_mgmt_unlink_skill", R"({"member_id":"alice","skill_id":"review"})");
  ASSERT_TRUE(unlinked.ok) << unlinked.content;
  EXPECT_TRUE(admin_has(unlinked.content, "mode: unlink_skill")) << unlinked.content;
  EXPECT_FALSE(fs::exists(fs::symlink_status(link)));
  EXPECT_TRUE(fs::exists(workspace_ / ".minds/skills/linkable/review/SKILL.md"));
}

TEST_F(TeamMgmtAdminTools, LinkSkillRefusesWhatWouldNotLoadOrLeadOut) {
  const auto missing = call("team_mgmt_link_skill", R"({"member_id":"alice","skill_id":"review"})");
  EXPECT_FALSE(missing.ok);
  EXPECT_TRUE(admin_has(missing.content, "Linkable skill does not exist: .minds/skills/linkable/review"))
      << missing.content;
  put(".minds/skills/linkable/broken/SKILL.md", "---\nname: No description\n---\nBody.\n");
  const auto broken = call("team_mgmt_link_skill", R"({"member_id":"alice","skill_id":"broken"})");
  EXPECT_FALSE(broken.ok);
  EXPECT_TRUE(admin_has(broken.content, "description")) << broken.content;
  EXPECT_FALSE(fs::exists(fs::symlink_status(workspace_ / ".minds/skills/individual/alice/broken")));
  put(".minds/skills/linkable/review/SKILL.md", std::string(kAdminReviewSkill));
  const auto nobody = call("team_mgmt_link_skill", R"({"member_id":"bob","skill_id":"review"})");
  EXPECT_FALSE(nobody.ok);
  EXPECT_TRUE(admin_has(nobody.content, "no member 'bob'")) << nobody.content;
  EXPECT_FALSE(fs::exists(workspace_ / ".minds/skills/individual/bob"));
  const auto dots = call("team_mgmt_link_skill", R"({"member_id":"alice","skill_id":"../review"})");
  EXPECT_FALSE(dots.ok);
  EXPECT_TRUE(admin_has(dots.content, "Invalid skill_id")) << dots.content;
  put("outside/SKILL.md", std::string(kAdminReviewSkill));
  fs::create_directory_symlink(workspace_ / "outside", workspace_ / ".minds/skills/linkable/away");
  const auto away = call("team_mgmt_link_skill", R"({"member_id":"alice","skill_id":"away"})");
  EXPECT_FALSE(away.ok);
  EXPECT_TRUE(admin_has(away.content, "leads out of .minds/skills/linkable/")) << away.content;
  put(".minds/skills/individual/alice/own/SKILL.md", std::string(kAdminReviewSkill));
  const auto own = call("team_mgmt_unlink_skill", R"({"member_id":"alice","skill_id":"own"})");
  EXPECT_FALSE(own.ok);
  EXPECT_TRUE(admin_has(own.content, "is not a symlink")) << own.content;
  EXPECT_TRUE(fs::exists(workspace_ / ".minds/skills/individual/alice/own/SKILL.md"));
}

constexpr std::string_view kAdminGoodPriming =
    "---\nkind: agent_priming_script\nversion: 3\ntitle: Probe\nreminders:\n  - content: Note each result\n"
    "    scope: dialog\n    echoback: false\n---\n\n### record human_text_record\n\n``````markdown\n---\n"
    "genseq: 1\nmsgId: priming-1\n---\n\nRun a probe first.\n``````\n\n### record func_call_record\n\n```json\n"
    "{\"type\":\"func_call_record\",\"genseq\":1,\"id\":\"call_1\",\"name\":\"exec_command\","
    "\"rawArgumentsText\":\"{}\"}\n```\n\n### record func_result_record\n\n```markdown\n---\ngenseq: 1\n"
    "id: call_1\nname: exec_command\n---\n\nLinux\n```\n";

TEST_F(TeamMgmtAdminTools, PrimingScriptsAreValidatedAndSaidNotToRun) {
  const auto none = call("team_mgmt_validate_priming_scripts", "{}");
  ASSERT_TRUE(none.ok) << none.content;
  EXPECT_TRUE(admin_has(none.content, "nothing to validate")) << none.content;
  put(".minds/priming/team_shared/probe.md", std::string(kAdminGoodPriming));
  put(".minds/priming/individual/alice/setup/first.md", std::string(kAdminGoodPriming));
  const auto good = call("team_mgmt_validate_priming_scripts", "{}");
  ASSERT_TRUE(good.ok) << good.content;
  EXPECT_TRUE(admin_has(good.content, "# Startup Script Validation Passed\n- Checked 2 script(s): ✅ all passed"))
      << good.content;
  EXPECT_TRUE(admin_has(good.content, "Parley does not replay priming scripts")) << good.content;
  auto team = config::load_dominds_workspace(workspace_);
  ASSERT_TRUE(team) << team.err().message;
  ASSERT_EQ(team->problems.size(), 1U);
  EXPECT_EQ(team->problems[0].what, "priming");
  EXPECT_TRUE(admin_has(team->problems[0].why, "2 startup script(s)")) << team->problems[0].why;
  EXPECT_TRUE(admin_has(team->problems[0].why, "Parley does not replay priming scripts")) << team->problems[0].why;
  EXPECT_FALSE(team->problems[0].blocks_member);
}

TEST_F(TeamMgmtAdminTools, InvalidPrimingScriptsAreNamedWithTheirLine) {
  put(".minds/priming/team_shared/heading.md", "intro\n\n### record chat_record\n\ntext\n");
  put(".minds/priming/team_shared/fence.md", "### record agent_words_record\n\n```markdown\n---\ngenseq: 1\n---\nhi\n");
  put(".minds/priming/team_shared/call.md",
      "\n### record func_call_record\n```json\n{\"genseq\":1,\"id\":\"c\",\"name\":\"x\"}\n```\n");
  put(".minds/priming/team_shared/reminder.md", "---\nreminders:\n  - content: x\n    scope: forever\n---\n");
  put(".minds/priming/elsewhere/x.md", "");
  put(".minds/priming/team_shared/yaml.md", "---\ntitle: [unclosed\n---\n");
  put(".minds/priming/team_shared/notes.txt", "not a script\n");
  const auto out = call("team_mgmt_validate_priming_scripts", "{}");
  EXPECT_FALSE(out.ok);
  EXPECT_TRUE(admin_has(out.content, "# Startup Script Validation Failed\n- Checked 6 script(s): ❌ 6 failed"))
      << out.content;
  EXPECT_TRUE(admin_has(
      out.content, "- .minds/priming/team_shared/heading.md:3: Unsupported priming record heading type 'chat_record'"))
      << out.content;
  EXPECT_TRUE(admin_has(out.content, "- .minds/priming/team_shared/fence.md:1: Priming block is missing closing fence"))
      << out.content;
  EXPECT_TRUE(
      admin_has(out.content,
                "- .minds/priming/team_shared/call.md:2: record(func_call_record).rawArgumentsText must be a string"))
      << out.content;
  EXPECT_TRUE(
      admin_has(out.content, "- .minds/priming/team_shared/reminder.md:3: frontmatter.reminders[0].scope must be"))
      << out.content;
  EXPECT_TRUE(admin_has(out.content, "- .minds/priming/elsewhere/x.md: Unsupported priming scope in path: elsewhere/x"))
      << out.content;
  EXPECT_TRUE(admin_has(out.content, "- .minds/priming/team_shared/yaml.md:")) << out.content;
  EXPECT_TRUE(admin_has(out.content, ": Invalid priming frontmatter: ")) << out.content;
  auto team = config::load_dominds_workspace(workspace_);
  ASSERT_TRUE(team) << team.err().message;  // invalid scripts are a problem, never a failed load
  ASSERT_EQ(team->problems.size(), 1U);
  EXPECT_TRUE(admin_has(team->problems[0].why, "(6 invalid")) << team->problems[0].why;
}

TEST_F(TeamMgmtAdminTools, ClearProblemsHidesActiveOnesUntilTheyChange) {
  put(".minds/team.yaml",
      "member_defaults:\n  provider: local\n  model: m\nmembers:\n  alice:\n    import: helper\n"
      "  bob:\n    provider: nowhere\n");
  const auto resolved = call("team_mgmt_clear_problems", "{}");
  ASSERT_TRUE(resolved.ok) << resolved.content;
  EXPECT_TRUE(admin_has(resolved.content, "# Problems Clear Result\n- cleared 0 problem(s)\n")) << resolved.content;
  EXPECT_FALSE(fs::exists(config::cleared_problems_file(workspace_)));
  const auto unnamed = call("team_mgmt_clear_problems", R"({"status":"active"})");
  EXPECT_FALSE(unnamed.ok);
  EXPECT_TRUE(admin_has(unnamed.content, "requires an explicit source, path, or problem_id")) << unnamed.content;
  const auto cleared = call("team_mgmt_clear_problems", R"({"source":"team","status":"active"})");
  ASSERT_TRUE(cleared.ok) << cleared.content;
  EXPECT_TRUE(admin_has(cleared.content, "- cleared 1 problem(s)\n")) << cleared.content;
  EXPECT_TRUE(admin_has(cleared.content, "## Cleared Problems\n- team/members.alice.import\n")) << cleared.content;
  // bob cannot run: that stays listed until it is fixed.
  EXPECT_TRUE(
      admin_has(cleared.content, "## Not Cleared (they keep a member from running until fixed)\n- team/members.bob"))
      << cleared.content;
  const auto listed = call("team_mgmt_list_problems", "{}");
  EXPECT_TRUE(admin_has(listed.content, "cleared (not listed until they change): 1")) << listed.content;
  EXPECT_FALSE(admin_has(listed.content, "members.alice.import")) << listed.content;
  EXPECT_TRUE(admin_has(listed.content, "members.bob")) << listed.content;
  // The next load still finds it, and it stays hidden while it is the same; bob's is not.
  auto team = config::load_dominds_workspace(workspace_);
  ASSERT_TRUE(team) << team.err().message;
  auto problems = team->problems;
  EXPECT_EQ(config::hide_cleared_problems(problems, workspace_), 1U);
  ASSERT_EQ(problems.size(), 1U);
  EXPECT_EQ(problems[0].member, "bob");
  // Fixed, its acknowledgement goes with the next clear, so it is listed if it ever comes back.
  put(".minds/team.yaml", std::string(kAdminTeam));
  ASSERT_TRUE(call("team_mgmt_clear_problems", R"({"source":"llm","status":"active"})").ok);
  EXPECT_FALSE(fs::exists(config::cleared_problems_file(workspace_)));
}

TEST_F(TeamMgmtAdminTools, AClearedProblemsFileThatCannotBeReadHidesNothing) {
  put(".minds/team.yaml", "member_defaults:\n  provider: local\n  model: m\nmembers:\n  alice:\n    import: helper\n");
  put(".minds/problems-cleared.yaml", "cleared:\n  - file: team.yaml\n    colour: red\n");
  auto team = config::load_dominds_workspace(workspace_);
  ASSERT_TRUE(team) << team.err().message;
  auto problems = team->problems;
  EXPECT_EQ(config::hide_cleared_problems(problems, workspace_), 0U);
  ASSERT_EQ(problems.size(), team->problems.size() + 1);
  EXPECT_TRUE(admin_has(problems.back().text(), "problems-cleared.yaml:3:")) << problems.back().text();
  EXPECT_TRUE(admin_has(problems.back().text(), "colour")) << problems.back().text();
  const auto refused = call("team_mgmt_clear_problems", R"({"source":"team","status":"active"})");
  EXPECT_FALSE(refused.ok);
  EXPECT_TRUE(admin_has(contents(".minds/problems-cleared.yaml"), "colour: red"));
}

}  // namespace
}  // namespace parley::tools::testing

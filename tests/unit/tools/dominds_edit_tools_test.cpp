// Dominds' edit tools that issue 46 item 3 had left out: file_block_replace, the two-step
// prepare/apply_occurrence_replace (a plan kept per dialog and member, refused when the file changed
// since), and their team_mgmt twins. Each with Dominds' arguments, the key parts of its answer, bad
// input named, a refused input that changes nothing, and the access rules.
#include <gtest/gtest.h>

#include <regex>

#include "access_globs.hpp"
#include "parley/config/team.hpp"
#include "parley/tools/dominds_occurrence_replace.hpp"
#include "parley/tools/dominds_tools.hpp"
#include "workspace_fixture.hpp"

namespace parley::tools::testing {
namespace {

bool edit_answer_has(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

std::string plan_id_of(const std::string& answer) {
  std::smatch found;
  if (!std::regex_search(answer, found, std::regex("plan_id: '([0-9a-f]+)'"))) return {};
  return found[1];
}

class DomindsEditTools : public workspace_fixture {
 protected:
  void SetUp() override {
    workspace_fixture::SetUp();
    register_dominds_tools(registry_);
    ctx_.member_id = "dev";
    ctx_.dialog_id = "d1";
  }
};

constexpr std::string_view kBlockFile = "head\n# BEGIN\nold 1\nold 2\n# END\ntail\n";

TEST_F(DomindsEditTools, FileBlockReplaceKeepsTheAnchorsByDefault) {
  put("a.txt", std::string(kBlockFile));
  const auto out =
      call("file_block_replace", R"({"path":"a.txt","start_anchor":"# BEGIN","end_anchor":"# END","content":"new"})");
  ASSERT_TRUE(out.ok) << out.content;
  EXPECT_EQ(contents("a.txt"), "head\n# BEGIN\nnew\n# END\ntail\n");
  EXPECT_TRUE(
      edit_answer_has(out.content, "status: ok\nmode: file_block_replace\npath: 'a.txt'\naction: block_replace\n"))
      << out.content;
  EXPECT_TRUE(edit_answer_has(out.content, "block_range: \n  start_line: 2\n  end_line: 5\n")) << out.content;
  EXPECT_TRUE(edit_answer_has(out.content, "lines: \n  old: 2\n  new: 1\n  delta: -1\n")) << out.content;
  const auto whole = call("file_block_replace",
                          R"({"path":"a.txt","start_anchor":"# BEGIN","end_anchor":"# END","include_anchors":false,)"
                          R"("match":"equals","content":"block\n"})");
  ASSERT_TRUE(whole.ok) << whole.content;
  EXPECT_EQ(contents("a.txt"), "head\nblock\ntail\n");
}

TEST_F(DomindsEditTools, FileBlockReplaceRefusesAmbiguousOrMissingAnchors) {
  const std::string twice = "<a>\n1\n</a>\n<a>\n2\n</a>\n";
  put("b.txt", twice);
  const auto ambiguous = call("file_block_replace", R"({"path":"b.txt","start_anchor":"<a>","end_anchor":"</a>",)"
                                                    R"("content":"x"})");
  EXPECT_FALSE(ambiguous.ok);
  EXPECT_TRUE(edit_answer_has(ambiguous.content, "candidates_count: 2\nerror: ANCHOR_AMBIGUOUS")) << ambiguous.content;
  const auto missing = call("file_block_replace", R"({"path":"b.txt","start_anchor":"<b>","end_anchor":"</a>",)"
                                                  R"("content":"x"})");
  EXPECT_TRUE(edit_answer_has(missing.content, "error: ANCHOR_NOT_FOUND")) << missing.content;
  const auto past = call("file_block_replace", R"({"path":"b.txt","start_anchor":"<a>","end_anchor":"</a>",)"
                                               R"("occurrence":3,"content":"x"})");
  EXPECT_TRUE(edit_answer_has(past.content, "error: OCCURRENCE_OUT_OF_RANGE")) << past.content;
  const auto bad = call("file_block_replace", R"({"path":"b.txt","start_anchor":"<a>","end_anchor":"</a>",)"
                                              R"("occurrence":"second","content":"x"})");
  EXPECT_TRUE(edit_answer_has(bad.content, "occurrence: must be a positive integer or ''last''")) << bad.content;
  const auto empty = call("file_block_replace", R"({"path":"b.txt","start_anchor":"<a>","end_anchor":"</a>"})");
  EXPECT_TRUE(edit_answer_has(empty.content, "error: CONTENT_REQUIRED")) << empty.content;
  EXPECT_EQ(contents("b.txt"), twice);
  const auto last = call("file_block_replace", R"({"path":"b.txt","start_anchor":"<a>","end_anchor":"</a>",)"
                                               R"("occurrence":"last","content":"two"})");
  ASSERT_TRUE(last.ok) << last.content;
  EXPECT_EQ(contents("b.txt"), "<a>\n1\n</a>\n<a>\ntwo\n</a>\n");
}

TEST_F(DomindsEditTools, OccurrenceReplaceAppliesThePreparedPlan) {
  put("c.txt", "foo bar foo\nfoo\n");
  const auto planned =
      call("prepare_occurrence_replace", R"({"path":"c.txt","find":"foo","content":"qux","occurrence_indexes":[3,1]})");
  ASSERT_TRUE(planned.ok) << planned.content;
  EXPECT_TRUE(edit_answer_has(planned.content, "occurrences_found: 3\nselected_occurrences: [1, 3]\n"))
      << planned.content;
  EXPECT_TRUE(edit_answer_has(planned.content, "  #1 line 1, col 1: foo bar foo\n  #3 line 2, col 1: foo"))
      << planned.content;
  EXPECT_TRUE(edit_answer_has(planned.content, "  old_hash: 'sha256:")) << planned.content;
  EXPECT_EQ(contents("c.txt"), "foo bar foo\nfoo\n");  // planning writes nothing
  const std::string id = plan_id_of(planned.content);
  ASSERT_FALSE(id.empty()) << planned.content;
  const auto applied = call("apply_occurrence_replace", R"({"plan_id":")" + id + R"("})");
  ASSERT_TRUE(applied.ok) << applied.content;
  EXPECT_TRUE(edit_answer_has(applied.content, "mode: apply_occurrence_replace\npath: 'c.txt'")) << applied.content;
  EXPECT_EQ(contents("c.txt"), "qux bar foo\nqux\n");
  const auto again = call("apply_occurrence_replace", R"({"plan_id":")" + id + R"("})");
  EXPECT_TRUE(edit_answer_has(again.content, "error: PLAN_NOT_FOUND")) << again.content;
}

TEST_F(DomindsEditTools, OccurrenceReplaceRefusesAStalePlanAndAnotherDialogsPlan) {
  put("c.txt", "a-a-a\n");
  const auto planned = call("prepare_occurrence_replace", R"({"path":"c.txt","find":"a","content":"b"})");
  const std::string id = plan_id_of(planned.content);
  ASSERT_FALSE(id.empty()) << planned.content;
  ctx_.dialog_id = "d2";
  const auto foreign = call("apply_occurrence_replace", R"({"plan_id":")" + id + R"("})");
  EXPECT_TRUE(edit_answer_has(foreign.content, "error: PLAN_NOT_FOUND")) << foreign.content;
  EXPECT_EQ(contents("c.txt"), "a-a-a\n");
  ctx_.dialog_id = "d1";
  put("c.txt", "a-a-a-a\n");
  const auto stale = call("apply_occurrence_replace", R"({"plan_id":")" + id + R"("})");
  EXPECT_FALSE(stale.ok);
  EXPECT_TRUE(edit_answer_has(stale.content, "error: FILE_CHANGED_SINCE_PREPARE\nplanned_old_hash: 'sha256:"))
      << stale.content;
  EXPECT_TRUE(edit_answer_has(stale.content, "current_hash: '" + dominds_detail::sha256_label("a-a-a-a\n") + "'"))
      << stale.content;
  EXPECT_EQ(contents("c.txt"), "a-a-a-a\n");
  const auto none = call("prepare_occurrence_replace", R"({"path":"c.txt","find":"z"})");
  EXPECT_TRUE(edit_answer_has(none.content, "error: OCCURRENCE_NOT_FOUND")) << none.content;
  const auto out_of_range =
      call("prepare_occurrence_replace", R"({"path":"c.txt","find":"a","occurrence_indexes":[9]})");
  EXPECT_TRUE(edit_answer_has(out_of_range.content, "error: OCCURRENCE_OUT_OF_RANGE")) << out_of_range.content;
  const auto duplicate =
      call("prepare_occurrence_replace", R"({"path":"c.txt","find":"a","occurrence_indexes":[1,1]})");
  EXPECT_TRUE(edit_answer_has(duplicate.content, "occurrence_indexes: must not contain duplicates"))
      << duplicate.content;
  const auto malformed = call("apply_occurrence_replace", R"({"plan_id":"../x"})");
  EXPECT_TRUE(edit_answer_has(malformed.content, "error: INVALID_PLAN_ID")) << malformed.content;
}

TEST(DomindsOccurrencePlans, AreBoundedInCountAndAge) {
  auto now = std::chrono::steady_clock::time_point{};
  dominds_detail::occurrence_plans plans(2, std::chrono::seconds(60), [&] { return now; });
  dominds_detail::occurrence_plan plan;
  plan.dialog_id = "d";
  plan.member_id = "m";
  plan.made = now;
  const auto first = plans.add(plan);
  now += std::chrono::seconds(1);
  plan.made = now;
  const auto second = plans.add(plan);
  now += std::chrono::seconds(1);
  plan.made = now;
  const auto third = plans.add(plan);
  EXPECT_FALSE(plans.find(first, "d", "m"));  // the oldest made room
  EXPECT_TRUE(plans.find(second, "d", "m"));
  EXPECT_FALSE(plans.find(second, "d", "other"));
  now += std::chrono::seconds(59);
  EXPECT_FALSE(plans.find(second, "d", "m"));  // 60 s old
  EXPECT_TRUE(plans.find(third, "d", "m"));
}

TEST_F(DomindsEditTools, AccessRulesBindTheEditTools) {
  access::access_rules rules;
  rules.write.deny_dirs = globs({"src"});
  ctx_.access = &rules;
  put("src/a.c", "# BEGIN\nx\n# END\n");
  const auto block =
      call("file_block_replace", R"({"path":"src/a.c","start_anchor":"# BEGIN","end_anchor":"# END","content":"y"})");
  EXPECT_TRUE(edit_answer_has(block.content, "error: ACCESS_DENIED")) << block.content;
  const auto planned = call("prepare_occurrence_replace", R"({"path":"src/a.c","find":"x","content":"y"})");
  EXPECT_TRUE(edit_answer_has(planned.content, "error: ACCESS_DENIED")) << planned.content;
  EXPECT_EQ(contents("src/a.c"), "# BEGIN\nx\n# END\n");
  // A plan made while the file was writable is judged again when applied.
  ctx_.access = nullptr;
  const std::string id =
      plan_id_of(call("prepare_occurrence_replace", R"({"path":"src/a.c","find":"x","content":"y"})").content);
  ASSERT_FALSE(id.empty());
  ctx_.access = &rules;
  const auto applied = call("apply_occurrence_replace", R"({"plan_id":")" + id + R"("})");
  EXPECT_TRUE(edit_answer_has(applied.content, "error: ACCESS_DENIED")) << applied.content;
  EXPECT_EQ(contents("src/a.c"), "# BEGIN\nx\n# END\n");
}

constexpr std::string_view kEditLlm =
    "providers:\n  local:\n    apiType: openai-compatible\n"
    "    baseUrl: http://127.0.0.1:1/v1\n    apiKeyEnvVar: LOCAL_KEY\n"
    "    models:\n      m: {}\n";
constexpr std::string_view kEditTeam =
    "member_defaults:\n  provider: local\n  model: m\nmembers:\n  alice:\n    name: Alice\n";

TEST_F(DomindsEditTools, TeamMgmtTwinsEditMindsOnlyWhenTheTeamStillLoads) {
  put(".minds/llm.yaml", std::string(kEditLlm));
  put(".minds/team.yaml", std::string(kEditTeam));
  const auto broken = call("team_mgmt_file_block_replace", R"({"path":"team.yaml","start_anchor":"members:",)"
                                                           R"("end_anchor":"name: Alice","content":"  - [x"})");
  EXPECT_FALSE(broken.ok);
  EXPECT_TRUE(edit_answer_has(broken.content, "the team would not load")) << broken.content;
  EXPECT_EQ(contents(".minds/team.yaml"), kEditTeam);
  const auto planned =
      call("team_mgmt_prepare_occurrence_replace", R"({"path":".minds/team.yaml","find":"Alice","content":"Alicia"})");
  ASSERT_TRUE(planned.ok) << planned.content;
  EXPECT_TRUE(edit_answer_has(planned.content, "mode: team_mgmt_prepare_occurrence_replace")) << planned.content;
  const std::string id = plan_id_of(planned.content);
  // The workspace tool does not know the team_mgmt plan, and cannot write .minds/ anyway.
  EXPECT_TRUE(
      edit_answer_has(call("apply_occurrence_replace", R"({"plan_id":")" + id + R"("})").content, "PLAN_NOT_FOUND"));
  const auto applied = call("team_mgmt_apply_occurrence_replace", R"({"plan_id":")" + id + R"("})");
  ASSERT_TRUE(applied.ok) << applied.content;
  EXPECT_TRUE(edit_answer_has(contents(".minds/team.yaml"), "name: Alicia")) << contents(".minds/team.yaml");
  EXPECT_FALSE(call("file_block_replace", R"({"path":".minds/team.yaml","start_anchor":"members:",)"
                                          R"("end_anchor":"name:","content":"x"})")
                   .ok);
}

}  // namespace
}  // namespace parley::tools::testing

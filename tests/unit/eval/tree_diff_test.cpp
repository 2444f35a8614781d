// The alignment of two trees (tree_diff.hpp) and the line diff of their answers (text_diff.hpp),
// on trees built from events as the engine writes them.
#include <gtest/gtest.h>

#include "parley/eval/text_diff.hpp"
#include "parley/eval/tree_diff.hpp"

namespace parley::eval {
namespace {

// Builds the events of one tree, each dialog's seq counted.
class tree_log {
 public:
  explicit tree_log(std::string root) : root_(std::move(root)) { created(root_, "", "lead", ""); }
  void created(const std::string& id, const std::string& parent, const std::string& member, const std::string& slug) {
    events::dialog_created payload;
    payload.member_id = member;
    payload.parent_id = parent;
    payload.kind = parent.empty() ? events::dialog_kind::root : events::dialog_kind::sub;
    if (!parent.empty())
      payload.call = slug.empty() ? events::call_kind::tellask_sessionless : events::call_kind::tellask;
    payload.session_slug = slug;
    add(id, payload);
  }
  void generation(const std::string& id, const std::string& saying, std::vector<events::tool_call_record> calls,
                  std::int64_t tokens = 10) {
    events::generation_started started;
    started.genseq = ++genseq_;
    add(id, started, 1000);
    events::generation_finished finished;
    finished.genseq = genseq_;
    finished.saying = saying;
    finished.tool_calls = std::move(calls);
    finished.usage.input_tokens = tokens;
    finished.usage.output_tokens = 1;
    add(id, finished, 1250);
  }
  void tellask(const std::string& id, const std::string& call_id, const std::string& sub, const std::string& member,
               const std::string& slug) {
    events::tellask_called called;
    called.call_id = call_id;
    called.name = slug.empty() ? events::call_kind::tellask_sessionless : events::call_kind::tellask;
    called.subdialog_id = sub;
    called.target_agent_id = member;
    if (!slug.empty()) called.session_slug = slug;
    add(id, called);
  }
  void question(const std::string& id, const std::string& call_id, const std::string& text) {
    events::question_asked asked;
    asked.call_id = call_id;
    asked.question_id = "q-" + call_id;
    asked.tellask_content = text;
    add(id, asked);
  }
  tree_summary summary() const { return summarize_tree(root_, events_, nullptr); }

 private:
  void add(const std::string& id, events::event_payload payload, std::int64_t ts = 0) {
    events_.push_back(event{id, root_, ++seq_[id], std::move(payload), ts});
  }
  std::string root_;
  std::vector<event> events_;
  std::map<std::string, std::int64_t> seq_;
  std::int64_t genseq_ = 0;
};

events::tool_call_record call(const std::string& id, const std::string& name, const std::string& args = "{}") {
  return {id, name, args};
}

TEST(TreeSummary, StepsAreToolCallsTellasksAndQuestionsInOrderWithStatsPerMember) {
  tree_log log("r");
  log.generation("r", "", {call("c1", "read_file", R"({"path":"a"})")});
  log.generation("r", "asking", {call("c2", "tellaskSessionless")});
  log.tellask("r", "c2", "s1", "researcher", "");
  log.created("s1", "r", "researcher", "");
  log.generation("s1", "", {call("c3", "askHuman")});
  log.question("s1", "c3", "Which part?");
  log.generation("r", "Done.", {});
  const auto tree = log.summary();
  ASSERT_EQ(tree.dialogs.size(), 2U);
  const auto& root = tree.dialogs[0];
  ASSERT_EQ(root.steps.size(), 2U);
  EXPECT_EQ(root.steps[0].kind, step_kind::tool_call);
  EXPECT_EQ(root.steps[0].detail, R"({"path":"a"})");
  EXPECT_EQ(root.steps[1].kind, step_kind::tellask);
  EXPECT_EQ(root.steps[1].name, "tellaskSessionless");
  EXPECT_EQ(root.steps[1].detail, "researcher");
  EXPECT_EQ(root.final_answer, "Done.");
  EXPECT_EQ(root.children, std::vector<std::size_t>{1});
  EXPECT_EQ(tree.dialogs[1].steps.at(0).kind, step_kind::question);
  EXPECT_EQ(tree.by_member.at("lead").rounds, 3);
  EXPECT_EQ(tree.by_member.at("lead").latency_ms, 750);
  EXPECT_EQ(tree.by_member.at("researcher").input_tokens, 10);
  EXPECT_EQ(tree.total.unpriced_calls, 4);  // no team given: nothing is priced
  EXPECT_EQ(tree.members_asked(), std::vector<std::string>{"researcher"});
  EXPECT_EQ(tree.tools_called(), std::vector<std::string>{"read_file"});
}

TEST(TreeDiff, IdenticalTreesHaveNoPartingAndTheSameAnswer) {
  tree_log a("a");
  tree_log b("b");
  for (auto* log : {&a, &b}) {
    log->generation(log == &a ? "a" : "b", "", {call("c1", "list_dir")});
    log->generation(log == &a ? "a" : "b", "The answer.", {});
  }
  const auto diff = diff_trees(a.summary(), b.summary());
  EXPECT_TRUE(diff.identical());
  ASSERT_EQ(diff.dialogs.size(), 1U);
  EXPECT_EQ(diff.dialogs[0].path, "@lead");
  EXPECT_TRUE(diff.dialogs[0].same());
}

TEST(TreeDiff, StepsPairByOrderAndTheFirstPartingIsTheFirstDifferingStep) {
  tree_log a("a");
  a.generation("a", "", {call("c1", "list_dir"), call("c2", "read_file", "x")});
  tree_log b("b");
  b.generation("b", "", {call("c1", "list_dir"), call("c2", "read_file", "y"), call("c3", "calculate")});
  const auto diff = diff_trees(a.summary(), b.summary());
  ASSERT_TRUE(diff.first_parting);
  EXPECT_EQ(diff.first_parting->path, "@lead");
  EXPECT_EQ(diff.first_parting->step, 1U);
  ASSERT_EQ(diff.dialogs[0].steps.size(), 3U);
  EXPECT_TRUE(diff.dialogs[0].steps[0].same());
  EXPECT_FALSE(diff.dialogs[0].steps[2].a);
  EXPECT_EQ(diff.dialogs[0].steps[2].b->name, "calculate");
}

TEST(TreeDiff, SubdialogsPairBySessionSlugOrByTheirMembersOrderAndLoneOnesAreNamed) {
  tree_log a("a");
  a.generation("a", "", {call("c1", "tellask"), call("c2", "tellaskSessionless"), call("c3", "tellaskSessionless")});
  a.tellask("a", "c1", "a-s", "dev", "fix");
  a.created("a-s", "a", "dev", "fix");
  a.tellask("a", "c2", "a-1", "researcher", "");
  a.created("a-1", "a", "researcher", "");
  a.tellask("a", "c3", "a-2", "researcher", "");
  a.created("a-2", "a", "researcher", "");
  // B makes them in another order, and only one sessionless subdialog.
  tree_log b("b");
  b.generation("b", "", {call("c1", "tellaskSessionless"), call("c2", "tellask")});
  b.tellask("b", "c1", "b-1", "researcher", "");
  b.created("b-1", "b", "researcher", "");
  b.tellask("b", "c2", "b-s", "dev", "fix");
  b.created("b-s", "b", "dev", "fix");
  const auto diff = diff_trees(a.summary(), b.summary());
  ASSERT_EQ(diff.dialogs.size(), 4U);
  EXPECT_EQ(diff.dialogs[1].path, "@lead/@dev!fix");
  EXPECT_EQ(diff.dialogs[1].a_id, "a-s");
  EXPECT_EQ(diff.dialogs[1].b_id, "b-s");
  EXPECT_EQ(diff.dialogs[2].path, "@lead/@researcher#1");
  EXPECT_EQ(diff.dialogs[2].b_id, "b-1");
  EXPECT_EQ(diff.dialogs[3].path, "@lead/@researcher#2");
  EXPECT_EQ(diff.dialogs[3].b_id, "");
  ASSERT_TRUE(diff.first_parting);
  EXPECT_EQ(diff.first_parting->path, "@lead");
  EXPECT_EQ(diff.first_parting->step, 0U);
}

TEST(TreeDiff, TheJsonShapeNamesThePartingTheAnswerDiffAndTheMembers) {
  tree_log a("a");
  a.generation("a", "one\ntwo", {});
  tree_log b("b");
  b.generation("b", "one\nthree", {});
  const auto json = diff_to_json(diff_trees(a.summary(), b.summary()));
  EXPECT_EQ(json.at("a").as_string(), "a");
  EXPECT_FALSE(json.at("identical").as_bool());
  EXPECT_TRUE(json.at("firstParting").is_null());
  const auto& lines = json.at("answer").at("diff").as_array();
  ASSERT_EQ(lines.size(), 3U);
  EXPECT_EQ(lines[1].at("op").as_string(), "-");
  EXPECT_EQ(lines[2].at("text").as_string(), "three");
  EXPECT_EQ(json.at("members").at("lead").at("a").at("rounds").as_int64(), 1);
}

TEST(TreeDiff, TheTerminalTextCarriesNoControlCharactersFromTheLog) {
  tree_log a("a");
  a.generation("a", "bad \x1b[31mred\x07", {call("c1", "read_file", "{\"p\":\"\x1b]0;title\x07\"}")});
  tree_log b("b");
  b.generation("b", "fine", {});
  const auto text = diff_to_text(diff_trees(a.summary(), b.summary()));
  EXPECT_EQ(text.find('\x1b'), std::string::npos) << text;
  EXPECT_EQ(text.find('\x07'), std::string::npos) << text;
}

TEST(TextDiff, KeepsTheLongestCommonSubsequenceAndMarksTheRest) {
  const auto lines = diff_lines("a\nb\nc\nd\n", "a\nc\nd\ne");
  const std::vector<diff_line> expected{
      {diff_op::same, "a"}, {diff_op::removed, "b"}, {diff_op::same, "c"}, {diff_op::same, "d"}, {diff_op::added, "e"}};
  EXPECT_EQ(lines, expected);
  EXPECT_EQ(format_diff(lines), "  a\n- b\n  c\n  d\n+ e\n");
}

TEST(TextDiff, OnATieARemovalComesBeforeAnAdditionAndEmptyTextsHaveNoLines) {
  const std::vector<diff_line> expected{{diff_op::removed, "x"}, {diff_op::added, "y"}};
  EXPECT_EQ(diff_lines("x", "y"), expected);
  EXPECT_TRUE(diff_lines("", "").empty());
  const std::vector<diff_line> only_added{{diff_op::added, "z"}};
  EXPECT_EQ(diff_lines("", "z"), only_added);
}

TEST(TextDiff, TextsTooLargeForTheTableAreAllRemovedThenAllAdded) {
  std::string a;
  std::string b;
  for (int i = 0; i < 2100; ++i) {
    a += "line " + std::to_string(i) + "\n";
    b += "line " + std::to_string(i) + "\n";
  }
  const auto lines = diff_lines(a, b);
  ASSERT_EQ(lines.size(), 4200U);
  EXPECT_EQ(lines.front().op, diff_op::removed);
  EXPECT_EQ(lines.back().op, diff_op::added);
}

}  // namespace
}  // namespace parley::eval

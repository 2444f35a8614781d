#include "parley/engine/text_tellask.hpp"

#include <gtest/gtest.h>

#include <boost/json/serialize.hpp>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace parley::engine {
namespace {

text_tellask_call sessionless(std::string target, std::string content) {
  return {"tellaskSessionless", {{"targetAgentId", target}, {"tellaskContent", content}}};
}
text_tellask_call sessioned(std::string target, std::string slug, std::string content) {
  return {"tellask", {{"targetAgentId", target}, {"sessionSlug", slug}, {"tellaskContent", content}}};
}
text_tellask_call content_only(std::string name, std::string content) {
  return {std::move(name), {{"tellaskContent", content}}};
}

void print_calls(const std::vector<text_tellask_call>& calls, std::ostream& os) {
  for (const auto& c : calls) os << c.name << " " << boost::json::serialize(c.arguments) << "\n";
}

// Calls are compared whole so a failure shows every call the parser made.
void expect_calls(const text_tellask_parse& parsed, const std::vector<text_tellask_call>& expected) {
  std::ostringstream actual;
  print_calls(parsed.calls, actual);
  EXPECT_EQ(parsed.calls, expected) << "actual calls:\n" << actual.str();
}

void expect_no_errors(const text_tellask_parse& parsed) {
  for (const auto& e : parsed.errors) ADD_FAILURE() << "unexpected error on line " << e.line << ": " << e.message;
}

TEST(TextTellask, MentionWithoutSessionIsTellaskSessionless) {
  const auto parsed = parse_text_tellasks("!?@code-reviewer 请审查这个 PR\n");
  expect_no_errors(parsed);
  expect_calls(parsed, {sessionless("code-reviewer", "请审查这个 PR")});
  EXPECT_EQ(parsed.prose, "");
}

TEST(TextTellask, SessionDirectiveMakesTellaskWithSlug) {
  const auto parsed = parse_text_tellasks(
      "!?@researcher !tellaskSession market-analysis\n"
      "!?Update the numbers for Q3.\n");
  expect_no_errors(parsed);
  expect_calls(parsed, {sessioned("researcher", "market-analysis", "Update the numbers for Q3.")});
}

TEST(TextTellask, SlugStopsAtWhitespaceOrPunctuationAndTrailingTextIsContent) {
  const auto parsed = parse_text_tellasks(
      "!?@researcher !tellaskSession market_2, keep going\n"
      "\n"
      "!?@writer please resume !tellaskSession draft-v2.\n");
  expect_no_errors(parsed);
  expect_calls(parsed,
               {sessioned("researcher", "market_2", "keep going"), sessioned("writer", "draft-v2", "please resume")});
}

TEST(TextTellask, HumanIsAskHuman) {
  const auto parsed = parse_text_tellasks(
      "!?@human Which database should we migrate to?\n"
      "!?Options: PostgreSQL or SQLite.\n");
  expect_no_errors(parsed);
  expect_calls(parsed,
               {content_only("askHuman", "Which database should we migrate to?\nOptions: PostgreSQL or SQLite.")});
}

TEST(TextTellask, SelfIsFreshBootsReasoning) {
  const auto parsed = parse_text_tellasks("!?@self\n!?Is the retry loop bounded?\n");
  expect_no_errors(parsed);
  expect_calls(parsed, {content_only("freshBootsReasoning", "Is the retry loop bounded?")});
}

TEST(TextTellask, TellaskerIsTellaskBack) {
  const auto parsed = parse_text_tellasks("!?@tellasker 【tellaskBack】 Which branch should I base this on?\n");
  expect_no_errors(parsed);
  expect_calls(parsed, {content_only("tellaskBack", "【tellaskBack】 Which branch should I base this on?")});
}

TEST(TextTellask, MultiLineBodyKeepsEveryLineVerbatim) {
  const auto parsed = parse_text_tellasks(
      "!?@cmdr !tellaskSession lint-types\n"
      "!?1) Run lint\n"
      "!?   - with --strict\n"
      "!?\n"
      "!?2) Report errors  \n");
  expect_no_errors(parsed);
  expect_calls(parsed, {sessioned("cmdr", "lint-types", "1) Run lint\n   - with --strict\n\n2) Report errors  ")});
}

TEST(TextTellask, LaterMentionLinesJoinTheHeadlineOfTheSameBlock) {
  const auto parsed = parse_text_tellasks(
      "!?@ux Please do the following:\n"
      "!?@ux And keep the output concise\n"
      "!?1) Check logs/error.log\n");
  expect_no_errors(parsed);
  expect_calls(parsed,
               {sessionless("ux", "Please do the following:\nAnd keep the output concise\n1) Check logs/error.log")});
}

TEST(TextTellask, SeveralMentionsOnOneHeadlineGiveOneCallEachWithTheSameContentAndSlug) {
  const auto parsed = parse_text_tellasks(
      "!?@ux @cmdr, @ux !tellaskSession review-1 look at the login flow\n"
      "!?Report in one paragraph.\n");
  expect_no_errors(parsed);
  const std::string content = "look at the login flow\nReport in one paragraph.";
  expect_calls(parsed, {sessioned("ux", "review-1", content), sessioned("cmdr", "review-1", content)});
}

TEST(TextTellask, MentionInsideHeadlineTextIsContentNotATarget) {
  const auto parsed = parse_text_tellasks("!?@ux ask @cmdr about it, or mail ops@example.com\n");
  expect_no_errors(parsed);
  expect_calls(parsed, {sessionless("ux", "ask @cmdr about it, or mail ops@example.com")});
}

TEST(TextTellask, SeveralBlocksInOneSayingComeOutInTextOrder) {
  const auto parsed = parse_text_tellasks(
      "!?@ux !tellaskSession ux-checklist\n"
      "!?Please review the UX flow.\n"
      "\n"
      "!?@cmdr !tellaskSession lint-types\n"
      "!?Please run lint:types.\n"
      "\n"
      "!?@human Can I deploy on Friday?\n");
  expect_no_errors(parsed);
  expect_calls(parsed, {sessioned("ux", "ux-checklist", "Please review the UX flow."),
                        sessioned("cmdr", "lint-types", "Please run lint:types."),
                        content_only("askHuman", "Can I deploy on Friday?")});
  EXPECT_EQ(parsed.prose, "");
}

TEST(TextTellask, ProseBeforeBetweenAndAfterBlocksIsKeptWithoutTheBlocks) {
  const auto parsed = parse_text_tellasks(
      "I will split the work.\n"
      "\n"
      "!?@ux Review the flow.\n"
      "Meanwhile I check the logs.\n"
      "!?@cmdr Run the tests.\n"
      "\n"
      "I will wait for both results.\n");
  expect_no_errors(parsed);
  expect_calls(parsed, {sessionless("ux", "Review the flow."), sessionless("cmdr", "Run the tests.")});
  EXPECT_EQ(parsed.prose,
            "I will split the work.\n"
            "\n"
            "Meanwhile I check the logs.\n"
            "\n"
            "I will wait for both results.\n");
}

TEST(TextTellask, AnyNonTellaskLineEndsTheBlock) {
  const auto parsed = parse_text_tellasks(
      "!?@ux Review the flow.\n"
      "OK — I will wait for your results.\n"
      "!?This line starts a new block, which has no headline.\n");
  expect_calls(parsed, {sessionless("ux", "Review the flow.")});
  ASSERT_EQ(parsed.errors.size(), 1U);
  EXPECT_EQ(parsed.errors[0].line, 3U);
  EXPECT_NE(parsed.errors[0].message.find("must begin with a headline `!?@<agentId>`"), std::string::npos);
}

TEST(TextTellask, SayingWithoutTellasksIsReturnedUnchanged) {
  const std::string saying = "Plain answer.\n\n\nWith   spacing, a `!?@ux` mention and an email a@b.c\n";
  const auto parsed = parse_text_tellasks(saying);
  EXPECT_TRUE(parsed.calls.empty());
  EXPECT_TRUE(parsed.errors.empty());
  EXPECT_EQ(parsed.prose, saying);
}

TEST(TextTellask, OnlyColumnZeroStartsATellask) {
  const std::string saying =
      "  !?@ux indented\n"
      "> !?@ux quoted\n"
      "- !?@ux bulleted\n"
      "inline !?@ux mention\n";
  const auto parsed = parse_text_tellasks(saying);
  EXPECT_TRUE(parsed.calls.empty());
  EXPECT_TRUE(parsed.errors.empty());
  EXPECT_EQ(parsed.prose, saying);
}

TEST(TextTellask, CodeFenceContentIsNotParsed) {
  const std::string saying =
      "Example of the syntax:\n"
      "```plain-text\n"
      "!?@ux !tellaskSession ux-checklist\n"
      "!?Please review.\n"
      "```\n"
      "~~~~\n"
      "!?@cmdr run build\n"
      "```\n"
      "!?@human still inside the tilde fence\n"
      "~~~~\n"
      "!?@ux Real call after the fences.\n";
  const auto parsed = parse_text_tellasks(saying);
  expect_no_errors(parsed);
  expect_calls(parsed, {sessionless("ux", "Real call after the fences.")});
  EXPECT_EQ(parsed.prose, saying.substr(0, saying.find("!?@ux Real")));
}

TEST(TextTellask, UnclosedCodeFenceRunsToTheEndOfTheSaying) {
  const std::string saying = "```\n!?@ux not a call\n";
  const auto parsed = parse_text_tellasks(saying);
  EXPECT_TRUE(parsed.calls.empty());
  EXPECT_TRUE(parsed.errors.empty());
  EXPECT_EQ(parsed.prose, saying);
}

TEST(TextTellask, BadSlugIsAnErrorNamingTheSlugAndTheGrammar) {
  const auto parsed = parse_text_tellasks(
      "Intro\n"
      "!?@researcher !tellaskSession 9lives\n"
      "!?Body\n");
  EXPECT_TRUE(parsed.calls.empty());
  ASSERT_EQ(parsed.errors.size(), 1U);
  EXPECT_EQ(parsed.errors[0].line, 2U);
  EXPECT_NE(parsed.errors[0].message.find("`9lives`"), std::string::npos) << parsed.errors[0].message;
  EXPECT_NE(parsed.errors[0].message.find("[a-zA-Z][a-zA-Z0-9_-]*"), std::string::npos) << parsed.errors[0].message;
}

TEST(TextTellask, SlugGluedToNonPunctuationOrMissingIsAnError) {
  for (const std::string headline :
       {"!?@r !tellaskSession market分析 go", "!?@r !tellaskSession -x go", "!?@r !tellaskSession"}) {
    const auto parsed = parse_text_tellasks(headline + "\n");
    EXPECT_TRUE(parsed.calls.empty()) << headline;
    ASSERT_EQ(parsed.errors.size(), 1U) << headline;
    EXPECT_NE(parsed.errors[0].message.find("[a-zA-Z][a-zA-Z0-9_-]*"), std::string::npos) << parsed.errors[0].message;
  }
}

TEST(TextTellask, HeadlineWithNoTargetIsAnError) {
  for (const std::string saying : {"!?@ please review\n", "!?@123 please review\n", "!?@\n!?body\n"}) {
    const auto parsed = parse_text_tellasks(saying);
    EXPECT_TRUE(parsed.calls.empty()) << saying;
    ASSERT_EQ(parsed.errors.size(), 1U) << saying;
    EXPECT_EQ(parsed.errors[0].line, 1U);
    EXPECT_NE(parsed.errors[0].message.find("names no target"), std::string::npos) << parsed.errors[0].message;
  }
  const auto no_mention = parse_text_tellasks("!?please review\n");
  EXPECT_TRUE(no_mention.calls.empty());
  ASSERT_EQ(no_mention.errors.size(), 1U);
  EXPECT_NE(no_mention.errors[0].message.find("must begin with a headline"), std::string::npos);
}

TEST(TextTellask, EmptyContentIsAnError) {
  for (const std::string saying : {"!?@ux\n", "!?@human\n!?\n!?   \n", "!?@ux !tellaskSession s1\n"}) {
    const auto parsed = parse_text_tellasks(saying);
    EXPECT_TRUE(parsed.calls.empty()) << saying;
    ASSERT_EQ(parsed.errors.size(), 1U) << saying;
    EXPECT_NE(parsed.errors[0].message.find("empty content"), std::string::npos) << parsed.errors[0].message;
  }
}

TEST(TextTellask, UnknownDirectiveAmongTheMentionsIsAnError) {
  const auto parsed = parse_text_tellasks("!?@ux !tellaskSesion s1 review\n");
  EXPECT_TRUE(parsed.calls.empty());
  ASSERT_EQ(parsed.errors.size(), 1U);
  EXPECT_NE(parsed.errors[0].message.find("unknown Tellask directive `!tellaskSesion`"), std::string::npos)
      << parsed.errors[0].message;
  // Past the mentions, other `!word`s are just prose.
  const auto prose_bang = parse_text_tellasks("!?@human may I run !ls here?\n");
  expect_no_errors(prose_bang);
  expect_calls(prose_bang, {content_only("askHuman", "may I run !ls here?")});
}

TEST(TextTellask, SessionOnTellaskerHumanOrSelfIsAnError) {
  for (const std::string target : {"tellasker", "human", "self"}) {
    const auto parsed = parse_text_tellasks("!?@" + target + " !tellaskSession s1\n!?question\n");
    EXPECT_TRUE(parsed.calls.empty()) << target;
    ASSERT_EQ(parsed.errors.size(), 1U) << target;
    EXPECT_NE(parsed.errors[0].message.find("`!?@" + target + "` does not take `!tellaskSession`"), std::string::npos)
        << parsed.errors[0].message;
  }
}

TEST(TextTellask, TwoDifferentSlugsInOneBlockIsAnError) {
  const auto parsed = parse_text_tellasks("!?@ux !tellaskSession a1\n!?@ux !tellaskSession b2\n!?body\n");
  EXPECT_TRUE(parsed.calls.empty());
  ASSERT_EQ(parsed.errors.size(), 1U);
  EXPECT_EQ(parsed.errors[0].line, 2U);
  EXPECT_NE(parsed.errors[0].message.find("`a1` and `b2`"), std::string::npos) << parsed.errors[0].message;
}

TEST(TextTellask, MalformedBlockYieldsNoCallAndStaysInTheProse) {
  const std::string saying =
      "Before\n"
      "!?@ux @human !tellaskSession s1\n"
      "!?body\n"
      "After\n";
  const auto parsed = parse_text_tellasks(saying);
  EXPECT_TRUE(parsed.calls.empty());
  ASSERT_EQ(parsed.errors.size(), 1U);
  EXPECT_EQ(parsed.prose, saying);
}

TEST(TextTellask, ChineseTextInHeadlineAndBody) {
  const auto parsed = parse_text_tellasks(
      "我来安排一下。\n"
      "\n"
      "!?@human 数据库迁移用哪种方案？\n"
      "!?方案一：先停机再迁移。\n"
      "!?方案二：双写，逐步切换。\n"
      "\n"
      "!?@ux：请审查登录流程\n"
      "\n"
      "!?@ux请看一下错误日志\n");
  expect_no_errors(parsed);
  expect_calls(parsed,
               {content_only("askHuman", "数据库迁移用哪种方案？\n方案一：先停机再迁移。\n方案二：双写，逐步切换。"),
                sessionless("ux", "请审查登录流程"), sessionless("ux", "请看一下错误日志")});
  EXPECT_EQ(parsed.prose, "我来安排一下。\n");
}

TEST(TextTellask, EscapedAtStartsABodyLineInsteadOfJoiningTheHeadline) {
  const auto parsed = parse_text_tellasks("!?@ux\n!?\\@cmdr said hi\n!?\\\\@literal\n!?\\n stays\n");
  expect_no_errors(parsed);
  expect_calls(parsed, {sessionless("ux", "@cmdr said hi\n\\@literal\n\\n stays")});
}

TEST(TextTellask, CrLfLineBreaksAreAccepted) {
  const auto parsed =
      parse_text_tellasks("Hi\r\n\r\n!?@ux !tellaskSession s1\r\n!?line one\r\n!?line two\r\n\r\nBye\r\n");
  expect_no_errors(parsed);
  expect_calls(parsed, {sessioned("ux", "s1", "line one\nline two")});
  EXPECT_EQ(parsed.prose, "Hi\r\n\r\nBye\r\n");
}

TEST(TextTellask, BlockAtTheEndWithoutNewlineLeavesNoTrailingBreak) {
  const auto parsed = parse_text_tellasks("Asking now.\n\n!?@human ok?");
  expect_no_errors(parsed);
  expect_calls(parsed, {content_only("askHuman", "ok?")});
  EXPECT_EQ(parsed.prose, "Asking now.");
}

TEST(TextTellask, RenderWritesSeedSyntax) {
  EXPECT_EQ(render_text_tellask(sessioned("researcher", "market-analysis", "Line 1\n@not a mention")),
            "!?@researcher !tellaskSession market-analysis\n!?Line 1\n!?\\@not a mention\n");
  EXPECT_EQ(render_text_tellask(content_only("askHuman", "Which one?")), "!?@human\n!?Which one?\n");
  EXPECT_EQ(render_text_tellask(content_only("unknownTool", "x")), "");
}

TEST(TextTellask, RoundTripParseOfRenderGivesTheSameCallForEveryKind) {
  const std::vector<text_tellask_call> calls = {
      sessionless("code-reviewer", "Please review PR #12.\n\n  - focus on error paths\n"),
      sessioned("researcher", "market-analysis", "Update Q3.\n@ux said the chart is wrong\n\\@kept\n!tellaskSession x"),
      content_only("askHuman", "  Which database?  "),
      content_only("freshBootsReasoning", "扪心自问：重试循环有上界吗？\n请列出缺失的上下文。"),
      content_only("tellaskBack", "【tellaskBack】 Which branch?\n```\n!?@ux inside a fence\n```"),
  };
  for (const auto& call : calls) {
    const std::string text = render_text_tellask(call);
    const auto parsed = parse_text_tellasks(text);
    expect_no_errors(parsed);
    ASSERT_EQ(parsed.calls.size(), 1U) << text;
    EXPECT_EQ(parsed.calls[0], call) << text;
    EXPECT_EQ(parsed.prose, "") << text;
    // Embedded in prose, as it sits in a text-mode model's context, it still parses back.
    const auto embedded = parse_text_tellasks("Before.\n\n" + text + "\nAfter.\n");
    ASSERT_EQ(embedded.calls.size(), 1U) << text;
    EXPECT_EQ(embedded.calls[0], call) << text;
    EXPECT_EQ(embedded.prose, "Before.\n\nAfter.\n");
  }
}

// Found by fuzz/text_tellask_fuzzer.cpp: a content line ending in CR (from "\\r\\r\\n", or a saying
// that stops after a CR) was rendered with "\\n", which made the CR part of a CRLF and lost it.
TEST(TextTellask, ContentLinesEndingInCarriageReturnSurviveRenderAndParse) {
  const auto parsed = parse_text_tellasks("!?@ux\r\n!?first\r\r\n!?last\r");
  ASSERT_EQ(parsed.calls.size(), 1U);
  EXPECT_EQ(parsed.calls[0], sessionless("ux", "first\r\nlast\r"));
  const std::string text = render_text_tellask(parsed.calls[0]);
  EXPECT_EQ(text, "!?@ux\n!?first\r\r\n!?last\r\r\n");
  const auto again = parse_text_tellasks(text);
  expect_no_errors(again);
  ASSERT_EQ(again.calls.size(), 1U);
  EXPECT_EQ(again.calls[0], parsed.calls[0]);
}

}  // namespace
}  // namespace parley::engine

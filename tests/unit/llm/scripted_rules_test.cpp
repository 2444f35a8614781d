// Rule selection, conditions, placeholders and the response a rule produces.
#include <gtest/gtest.h>

#include "parley/core/utf8.hpp"
#include "scripted_test_support.hpp"

namespace parley::llm {
namespace {

using testing::message;
using testing::must_parse;
using testing::recording_sink;
using testing::request_for;
using testing::run_stream;

// The saying the script answers `request` with, or the error text.
std::string answer(std::string_view yaml, const model_request& request) {
  const auto script = must_parse(yaml);
  if (!script) return "<no script>";
  scripted_provider provider(script);
  recording_sink sink;
  auto response = run_stream(provider, request, sink);
  return response ? response->saying : "error: " + response.err().message;
}

constexpr std::string_view kConditions = R"yaml(
chunk_size: 0
members:
  a:
    - when: {last_user: "weather"}
      emit: [{saying: "last_user"}]
    - when: {last_user_regex: "^hi\\b"}
      emit: [{saying: "last_user_regex"}]
    - when: {last_tool: "sunny"}
      emit: [{saying: "last_tool"}]
    - when: {last_tool_regex: "^temp=\\d+$"}
      emit: [{saying: "last_tool_regex"}]
    - when: {last_message: "PING"}
      emit: [{saying: "last_message"}]
    - when: {last_message_regex: "ok$"}
      emit: [{saying: "last_message_regex"}]
    - when: {system: "[[role:critic]]"}
      emit: [{saying: "system"}]
    - when: {system_regex: "persona: (\\w+)"}
      emit: [{saying: "system_regex {{capture.1}}"}]
    - when: {dialog_has: "needle"}
      emit: [{saying: "dialog_has"}]
    - when: {round: 3}
      emit: [{saying: "round"}]
)yaml";

TEST(ScriptedRules, EachConditionKindMatches) {
  EXPECT_EQ(answer(kConditions, request_for("a", {message(role::user, "what's the weather?")})), "last_user");
  EXPECT_EQ(answer(kConditions, request_for("a", {message(role::user, "hi there")})), "last_user_regex");
  EXPECT_EQ(answer(kConditions, request_for("a", {message(role::user, "ohi there")})),
            "error: scripted model: no rule matches for member 'a' (round 1, last user message: 'ohi there')");
  EXPECT_EQ(answer(kConditions, request_for("a", {message(role::user, "go"), message(role::assistant, ""),
                                                  message(role::tool, "it is sunny")})),
            "last_tool");
  EXPECT_EQ(answer(kConditions, request_for("a", {message(role::user, "go"), message(role::tool, "temp=21")})),
            "last_tool_regex");
  EXPECT_EQ(answer(kConditions, request_for("a", {message(role::user, "go"), message(role::assistant, "PING")})),
            "last_message");
  EXPECT_EQ(answer(kConditions, request_for("a", {message(role::user, "go"), message(role::assistant, "is ok")})),
            "last_message_regex");
  auto critic = request_for("a", {message(role::user, "go")});
  critic.system_prompt = "You are [[role:critic]].";
  EXPECT_EQ(answer(kConditions, critic), "system");
  auto persona = request_for("a", {message(role::user, "go")});
  persona.system_prompt = "persona: Ada\nrules...";
  EXPECT_EQ(answer(kConditions, persona), "system_regex Ada");
  EXPECT_EQ(answer(kConditions, request_for("a", {message(role::user, "the needle is here"),
                                                  message(role::assistant, "x"), message(role::user, "go")})),
            "dialog_has");
  EXPECT_EQ(answer(kConditions, request_for("a", {message(role::user, "go")}, 3)), "round");
}

TEST(ScriptedRules, AllConditionsOfARuleMustHold) {
  constexpr std::string_view yaml = R"(
members:
  a:
    - when: {last_tool: "sunny", round: 2}
      emit: [{saying: "both"}]
    - emit: [{saying: "fallback"}]
)";
  const auto tool_turn = [](std::int64_t round) {
    return request_for("a", {message(role::user, "weather?"), message(role::tool, "sunny")}, round);
  };
  EXPECT_EQ(answer(yaml, tool_turn(2)), "both");
  EXPECT_EQ(answer(yaml, tool_turn(1)), "fallback");
}

TEST(ScriptedRules, ToolResultsBeforeTheLastUserMessageDoNotCount) {
  constexpr std::string_view yaml = R"(
members:
  a:
    - when: {last_tool: "sunny"}
      emit: [{saying: "tool: {{last_tool}}"}]
    - emit: [{saying: "fresh turn, tool='{{last_tool}}', user='{{last_user}}'"}]
)";
  const auto earlier_turn =
      request_for("a", {message(role::user, "weather?"), message(role::assistant, ""), message(role::tool, "sunny"),
                        message(role::assistant, "Sunny."), message(role::user, "thanks")});
  EXPECT_EQ(answer(yaml, earlier_turn), "fresh turn, tool='', user='thanks'");
  const auto no_user = request_for("a", {message(role::tool, "sunny")});
  EXPECT_EQ(answer(yaml, no_user), "tool: sunny");
}

TEST(ScriptedRules, FirstMatchingRuleWinsInOrder) {
  constexpr std::string_view yaml = R"(
members:
  a:
    - when: {last_user: "a"}
      emit: [{saying: "first"}]
    - when: {last_user: "ab"}
      emit: [{saying: "second"}]
    - emit: [{saying: "catch-all"}]
)";
  EXPECT_EQ(answer(yaml, request_for("a", {message(role::user, "ab")})), "first");
  EXPECT_EQ(answer(yaml, request_for("a", {message(role::user, "b")})), "catch-all");
}

TEST(ScriptedRules, StarRulesServeMembersWithoutTheirOwnList) {
  constexpr std::string_view yaml = R"(
members:
  lead:
    - when: {last_user: "x"}
      emit: [{saying: "lead"}]
  "*":
    - emit: [{saying: "star for {{member}}"}]
)";
  EXPECT_EQ(answer(yaml, request_for("lead", {message(role::user, "x")})), "lead");
  EXPECT_EQ(answer(yaml, request_for("worker", {message(role::user, "y")})), "star for worker");
  // A member with a list of its own never falls back to "*".
  EXPECT_EQ(answer(yaml, request_for("lead", {message(role::user, "y")})),
            "error: scripted model: no rule matches for member 'lead' (round 1, last user message: 'y')");
}

TEST(ScriptedRules, NoRulesAtAllForAMemberIsAProviderError) {
  const auto script = must_parse("members:\n  lead:\n    - emit: [{saying: hi}]\n");
  ASSERT_TRUE(script);
  scripted_provider provider(script);
  recording_sink sink;
  const auto response = run_stream(provider, request_for("ghost", {message(role::user, "hello")}, 4), sink);
  ASSERT_FALSE(response.has_value());
  EXPECT_EQ(response.err().code, errc::provider_error);
  EXPECT_EQ(response.err().message,
            "scripted model: no rule matches for member 'ghost' (round 4, last user message: 'hello'); test.yaml "
            "has no rules for this member and no '*' rules");
  EXPECT_TRUE(sink.events.empty());
}

TEST(ScriptedRules, PlaceholdersExpandInTextAndArguments) {
  constexpr std::string_view yaml = R"(
members:
  w1:
    - when: {last_user_regex: "look up (\\w+)(?: in (\\w+))?"}
      emit:
        - thinking: "{{member}} in round {{ round }} saw '{{last_user}}'"
        - saying: "key={{capture.1}} place=[{{capture.2}}] all={{capture.0}}"
        - tool_call: {name: lookup, arguments: {key: "{{capture.1}}", n: 2, tags: ["{{member}}", x]}}
        - tool_call: {name: raw, arguments_text: '{"q": "{{capture.1}}"'}
)";
  const auto script = must_parse(yaml);
  ASSERT_TRUE(script);
  scripted_provider provider(script);
  recording_sink sink;
  const auto response = run_stream(provider, request_for("w1", {message(role::user, "please look up k7")}, 2), sink);
  ASSERT_TRUE(response.has_value()) << response.err().message;
  EXPECT_EQ(response->thinking, "w1 in round 2 saw 'please look up k7'");
  EXPECT_EQ(response->saying, "key=k7 place=[] all=look up k7");
  ASSERT_EQ(response->tool_calls.size(), 2U);
  EXPECT_EQ(response->tool_calls[0].arguments, R"({"key":"k7","n":2,"tags":["w1","x"]})");
  EXPECT_EQ(response->tool_calls[1].arguments, R"({"q": "k7")");
}

TEST(ScriptedRules, TextWithoutAClosingBraceIsLiteral) {
  EXPECT_EQ(answer("members:\n  a:\n    - emit: [{saying: \"set {{x\"}]\n", request_for("a", {})), "set {{x");
}

TEST(ScriptedRules, ToolCallsGetIdsArgumentsAndFinishReason) {
  constexpr std::string_view yaml = R"(
members:
  a:
    - emit:
        - tool_call: {name: read_file, arguments: {path: notes.md, max_bytes: 100, exact: true, none: ~, quoted: "12"}}
        - tool_call: {name: broken, arguments_text: '{"path": ', id: custom-id}
        - tool_call: {name: no_args}
)";
  const auto script = must_parse(yaml);
  ASSERT_TRUE(script);
  scripted_provider provider(script);
  recording_sink sink;
  // Two assistant messages before: this is the third model turn, whatever the round.
  const auto response =
      run_stream(provider,
                 request_for("a",
                             {message(role::user, "go"), message(role::assistant, "one"), message(role::user, "on"),
                              message(role::assistant, "two"), message(role::user, "go")},
                             1),
                 sink);
  ASSERT_TRUE(response.has_value()) << response.err().message;
  EXPECT_EQ(response->finish_reason, "tool_calls");
  ASSERT_EQ(response->tool_calls.size(), 3U);
  EXPECT_EQ(response->tool_calls[0].id, "call_3_1");
  EXPECT_EQ(response->tool_calls[0].name, "read_file");
  EXPECT_EQ(response->tool_calls[0].arguments,
            R"({"path":"notes.md","max_bytes":100,"exact":true,"none":null,"quoted":"12"})");
  EXPECT_EQ(response->tool_calls[1].id, "custom-id");
  EXPECT_EQ(response->tool_calls[1].arguments, R"({"path": )");
  EXPECT_EQ(response->tool_calls[2].id, "call_3_3");
  EXPECT_EQ(response->tool_calls[2].arguments, "{}");
  const std::vector<std::string> expected{
      R"(tool_call:call_3_1:read_file:{"path":"notes.md","max_bytes":100,"exact":true,"none":null,"quoted":"12"})",
      R"(tool_call:custom-id:broken:{"path": )", "tool_call:call_3_3:no_args:{}"};
  EXPECT_EQ(sink.events, expected);
}

TEST(ScriptedRules, UsageIsDeclaredOrEstimated) {
  constexpr std::string_view yaml = R"(
members:
  declared:
    - emit:
        - saying: "hello"
        - usage: {input_tokens: 100, output_tokens: 7, cached_tokens: 40, reasoning_tokens: 3}
  partly:
    - emit: [{saying: "12345678"}, {usage: {input_tokens: 5}}]
  estimated:
    - emit: [{saying: "123456789"}]
)";
  const auto script = must_parse(yaml);
  ASSERT_TRUE(script);
  scripted_provider provider(script);
  recording_sink sink;
  const auto declared = run_stream(provider, request_for("declared", {message(role::user, "x")}), sink);
  ASSERT_TRUE(declared.has_value());
  EXPECT_EQ(declared->usage.input_tokens, 100);
  EXPECT_EQ(declared->usage.output_tokens, 7);
  EXPECT_EQ(declared->usage.cached_tokens, 40);
  EXPECT_EQ(declared->usage.reasoning_tokens, 3);
  const auto partly = run_stream(provider, request_for("partly", {message(role::user, "x")}), sink);
  ASSERT_TRUE(partly.has_value());
  EXPECT_EQ(partly->usage.input_tokens, 5);
  EXPECT_EQ(partly->usage.output_tokens, 2);                                     // 8 characters / 4
  auto request = request_for("estimated", {message(role::user, "0123456789")});  // 10 + 7 = 17 chars
  request.system_prompt = "persona";
  const auto estimated = run_stream(provider, request, sink);
  ASSERT_TRUE(estimated.has_value());
  EXPECT_EQ(estimated->usage.input_tokens, 5);   // ceil(17 / 4)
  EXPECT_EQ(estimated->usage.output_tokens, 3);  // ceil(9 / 4)
  EXPECT_EQ(estimated->finish_reason, "stop");
}

// Found by fuzz/scripted_script_fuzzer.cpp: std::regex matches bytes, so `(.)` took the first byte
// of 审 and the saying was not UTF-8 (the log refuses such a generation). A cut character is U+FFFD.
TEST(ScriptedRules, ACaptureThatCutsACharacterStreamsAsUtf8) {
  const std::string saying = answer(R"yaml(
chunk_size: 1
members:
  a:
    - when: {last_user_regex: "\u8bf7(.)(..)"}
      emit: [{saying: "[{{capture.1}}|{{capture.2}}]"}]
)yaml",
                                    request_for("a", {message(role::user, "\xE8\xAF\xB7\xE5\xAE\xA1\xE6\x9F\xA5")}));
  EXPECT_TRUE(is_valid_utf8(saying)) << saying;
  EXPECT_EQ(saying, "[\xEF\xBF\xBD|\xEF\xBF\xBD\xEF\xBF\xBD]");  // E5 | AE A1: one U+FFFD each
}

}  // namespace
}  // namespace parley::llm

// Loading scripts: every error names file:line:column, the key path and the problem.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "parley/core/utf8.hpp"
#include "scripted_test_support.hpp"

namespace parley::llm {
namespace {

std::string load_error(std::string_view yaml) {
  auto script = parse_scripted_script(yaml, "test.yaml");
  if (script) return "<loaded>";
  EXPECT_EQ(script.err().code, errc::config_error);
  return script.err().message;
}

TEST(ScriptedScriptLoad, AcceptsTheDocumentedExample) {
  const auto script = parse_scripted_script(R"(
chunk_size: 8
delay_ms: 0
members:
  lead:
    - when: {last_user: "weather"}
      emit:
        - thinking: "The user asks about the weather; I should read the notes."
        - tool_call: {name: read_file, arguments: {path: notes.md}}
    - when: {last_tool: "sunny", round: 2}
      emit:
        - saying: "It will be sunny."
    - when: {last_user_regex: "^hi\\b"}
      emit: [{saying: "Hello!"}]
    - emit: [{saying: "I can only talk about the weather."}]
  "*":
    - emit: [{saying: "ok"}]
)",
                                            "example.yaml");
  ASSERT_TRUE(script.has_value()) << script.err().message;
}

// yaml-cpp quotes an unknown escape's byte alone; before a two-byte character that is half of it.
// Found by the scripted_script fuzzer (its corpus keeps the input).
TEST(ScriptedScriptLoad, AnUnknownEscapeBeforeACharacterOfTwoBytesIsReportedInUtf8) {
  auto script = parse_scripted_script("members:\n  lead:\n    - emit: [{saying: \"non\\\u00deN next\"}]\n", "s.yaml");
  ASSERT_FALSE(script);
  EXPECT_TRUE(is_valid_utf8(script.err().message)) << script.err().message;
  EXPECT_NE(script.err().message.find("unknown escape character: \uFFFD"), std::string::npos) << script.err().message;
}

TEST(ScriptedScriptLoad, UnknownTopLevelKeySuggestsTheClosestOne) {
  EXPECT_EQ(load_error("chunk_sise: 4\nmembers: {a: [{emit: []}]}\n"),
            "test.yaml:1:1: chunk_sise: unknown key 'chunk_sise' (did you mean 'chunk_size'?); "
            "expected one of: chunk_size, delay_ms, members");
}

TEST(ScriptedScriptLoad, UnknownConditionNamesItsPathAndPosition) {
  const std::string message = load_error(
      "members:\n"
      "  lead:\n"
      "    - when: {last_usr: \"x\"}\n"
      "      emit: []\n");
  EXPECT_EQ(message.rfind("test.yaml:3:14: members.lead[0].when.last_usr: unknown key 'last_usr' "
                          "(did you mean 'last_user'?); expected one of: round, last_user,",
                          0),
            0U)
      << message;
}

TEST(ScriptedScriptLoad, UnknownEmitKeyAndToolCallKeyAreReported) {
  EXPECT_EQ(load_error("members:\n  a:\n    - emit:\n        - sayin: hi\n"),
            "test.yaml:4:11: members.a[0].emit[0].sayin: unknown key 'sayin' (did you mean 'saying'?); "
            "expected one of: thinking, saying, tool_call, usage");
  const std::string message = load_error("members:\n  a:\n    - emit:\n        - tool_call: {name: x, argumnts: {}}\n");
  EXPECT_EQ(message.rfind("test.yaml:4:32: members.a[0].emit[0].tool_call.argumnts: unknown key 'argumnts' "
                          "(did you mean 'arguments'?)",
                          0),
            0U)
      << message;
}

TEST(ScriptedScriptLoad, InvalidRegexIsNamed) {
  const std::string message = load_error(
      "members:\n"
      "  a:\n"
      "    - when: {last_user_regex: \"(unclosed\"}\n"
      "      emit: []\n");
  EXPECT_EQ(message.rfind("test.yaml:3:31: members.a[0].when.last_user_regex: invalid regex '(unclosed': ", 0), 0U)
      << message;
}

TEST(ScriptedScriptLoad, EmitItemNeedsExactlyOneKind) {
  EXPECT_EQ(load_error("members:\n  a:\n    - emit:\n        - {}\n"),
            "test.yaml:4:11: members.a[0].emit[0]: an emit item needs one of: thinking, saying, tool_call, usage");
  EXPECT_EQ(load_error("members:\n  a:\n    - emit:\n        - {thinking: hm, saying: hi}\n"),
            "test.yaml:4:11: members.a[0].emit[0]: an emit item has exactly one kind, this one has both "
            "'thinking' and 'saying'; put each in its own list item");
}

TEST(ScriptedScriptLoad, YamlSyntaxErrorsAreCaughtAndPositioned) {
  EXPECT_EQ(load_error("members:\n  a: [{emit: []}\n  b: 1\n"),
            "test.yaml:3:3: invalid YAML: end of sequence flow not found");
  const std::string unterminated = load_error("members: {a: [{emit: [{saying: \"unterminated}]}]\n");
  EXPECT_EQ(unterminated.rfind("test.yaml:2:1: invalid YAML: ", 0), 0U) << unterminated;
}

TEST(ScriptedScriptLoad, WrongTypesAreReportedWithWhatWasFound) {
  EXPECT_EQ(load_error("chunk_size: big\nmembers: {a: [{emit: []}]}\n"),
            "test.yaml:1:13: chunk_size: expected an integer, got 'big'");
  EXPECT_EQ(load_error("delay_ms: -5\nmembers: {a: [{emit: []}]}\n"),
            "test.yaml:1:11: delay_ms: must be at least 0, got -5");
  EXPECT_EQ(load_error("members: [a, b]\n"), "test.yaml:1:10: members: expected a map of member id to a list of rules");
  EXPECT_EQ(load_error("members:\n  a: {emit: []}\n"), "test.yaml:2:6: members.a: expected a list, got a map");
  EXPECT_EQ(load_error("members:\n  a:\n    - emit:\n        - saying: [x]\n"),
            "test.yaml:4:19: members.a[0].emit[0].saying: expected text, got a list");
  EXPECT_EQ(load_error("members:\n  a:\n    - when: {round: 0}\n      emit: []\n"),
            "test.yaml:3:21: members.a[0].when.round: must be at least 1, got 0");
  EXPECT_EQ(load_error("members:\n  a:\n    - when:\n      emit: []\n"),
            "test.yaml:3:7: members.a[0].when: expected a map, got null");
  EXPECT_EQ(load_error("members:\n  a:\n    - emit: {saying: hi}\n"),
            "test.yaml:3:13: members.a[0].emit: expected a list, got a map");
}

TEST(ScriptedScriptLoad, MissingAndEmptyPartsAreReported) {
  EXPECT_EQ(load_error(""), "test.yaml:1:1: the script is empty; expected a map with 'members'");
  EXPECT_EQ(load_error("chunk_size: 4\n"), "test.yaml:1:1: missing required key 'members'");
  EXPECT_EQ(load_error("members: {}\n"), "test.yaml:1:10: members: expected at least one member (or '*')");
  EXPECT_EQ(load_error("members:\n  a: []\n"), "test.yaml:2:6: members.a: expected at least one rule");
  EXPECT_EQ(load_error("members:\n  a:\n    - when: {round: 1}\n"),
            "test.yaml:3:7: members.a[0]: missing required key 'emit'");
  EXPECT_EQ(load_error("members:\n  a:\n    - emit:\n        - tool_call: {id: x}\n"),
            "test.yaml:4:22: members.a[0].emit[0].tool_call: missing required key 'name'");
  EXPECT_EQ(load_error("- 1\n- 2\n"), "test.yaml:1:1: expected a map, got a list");
}

TEST(ScriptedScriptLoad, DuplicateKeysAreRefused) {
  EXPECT_EQ(load_error("members:\n  a:\n    - emit: []\n      emit: []\n"),
            "test.yaml:4:7: members.a[0].emit: duplicate key 'emit'");
}

TEST(ScriptedScriptLoad, ArgumentsAndArgumentsTextAreExclusive) {
  EXPECT_EQ(load_error("members:\n  a:\n    - emit:\n        - tool_call: {name: x, arguments: {}, "
                       "arguments_text: '{}'}\n"),
            "test.yaml:4:47: members.a[0].emit[0].tool_call.arguments_text: give either 'arguments' (a map) or "
            "'arguments_text' (raw text), not both");
  EXPECT_EQ(load_error("members:\n  a:\n    - emit:\n        - tool_call: {name: x, arguments: [1]}\n"),
            "test.yaml:4:43: members.a[0].emit[0].tool_call.arguments: expected a map (it becomes the JSON "
            "arguments object)");
}

TEST(ScriptedScriptLoad, PlaceholdersAreCheckedAtLoad) {
  EXPECT_EQ(load_error("members:\n  a:\n    - emit:\n        - saying: \"hi {{last_usr}}\"\n"),
            "test.yaml:4:19: members.a[0].emit[0].saying: unknown placeholder '{{last_usr}}' (did you mean "
            "'last_user'?); known: last_user, last_tool, last_user_media, member, round, capture.N");
  EXPECT_EQ(load_error("members:\n  a:\n    - emit:\n        - saying: \"{{capture.1}}\"\n"),
            "test.yaml:4:19: members.a[0].emit[0].saying: '{{capture.1}}' needs a regex condition "
            "(last_user_regex, last_tool_regex, last_message_regex or system_regex) in this rule's 'when'");
  EXPECT_EQ(load_error("members:\n  a:\n    - when: {last_user_regex: \"(a)(b)\"}\n      emit:\n"
                       "        - tool_call: {name: t, arguments: {k: \"{{capture.3}}\"}}\n"),
            "test.yaml:5:47: members.a[0].emit[0].tool_call.arguments.k: '{{capture.3}}' but the rule's first "
            "regex has 2 capture groups");
  EXPECT_EQ(load_error("members:\n  a:\n    - emit:\n        - saying: \"{{capture.x}}\"\n"),
            "test.yaml:4:19: members.a[0].emit[0].saying: placeholder '{{capture.x}}' needs a capture group "
            "number, e.g. {{capture.1}}");
}

TEST(ScriptedScriptLoad, LoadsFromAFileAndNamesTheFileInErrors) {
  const auto dir = std::filesystem::temp_directory_path() / ("parley-script-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto good = dir / "good.yaml";
  const auto bad = dir / "bad.yaml";
  std::ofstream(good) << "members:\n  a:\n    - emit: [{saying: hi}]\n";
  std::ofstream(bad) << "members:\n  a:\n    - emit: [{sayng: hi}]\n";
  EXPECT_TRUE(load_scripted_script(good).has_value());
  const auto failed = load_scripted_script(bad);
  ASSERT_FALSE(failed.has_value());
  EXPECT_EQ(failed.err().message.rfind(bad.string() + ":3:15: members.a[0].emit[0].sayng: unknown key", 0), 0U)
      << failed.err().message;
  const auto missing = load_scripted_script(dir / "missing.yaml");
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.err().code, errc::config_error);
  EXPECT_EQ(missing.err().message, (dir / "missing.yaml").string() + ": no such file");
  const auto directory = load_scripted_script(dir);
  ASSERT_FALSE(directory.has_value());
  EXPECT_EQ(directory.err().message, dir.string() + ": is a directory, not a file");
  std::filesystem::remove_all(dir);
}

// Found by fuzz/scripted_script_fuzzer.cpp: yaml-cpp turns a NUL and the bytes after it into text
// that is not UTF-8, which a saying would then stream.
TEST(ScriptedScriptLoad, ANulByteIsRefusedWithItsPosition) {
  const std::string yaml("members:\n  \"*\":\n    - emit: [{saying: \"a\0_b\"}]\n", 47);
  EXPECT_EQ(load_error(yaml), "test.yaml:3:25: a NUL byte at offset 40 (a script is text)");
}

// Found by fuzz/scripted_script_fuzzer.cpp: yaml-cpp decodes "\_" to the byte 0xA0 (and "\N" to
// 0x85) rather than to UTF-8, so the saying streamed bytes the log refuses.
TEST(ScriptedScriptLoad, EscapesTheYamlReaderDecodesWronglyAreRefused) {
  EXPECT_EQ(load_error("members:\n  \"*\":\n    - emit: [{saying: \"a\\_b\"}]\n"),
            "test.yaml:3:23: the escape \\N or \\_ (U+0085, U+00A0), which this YAML reader cannot decode; write the "
            "character itself");
  EXPECT_EQ(load_error("members:\n  \"*\":\n    - emit: [{saying: 'a\\_b \\N'}]\n"), "<loaded>");
  // The check reads the first document only, as loading does: over all of them, "," never ended.
  EXPECT_NE(load_error(","), "<loaded>");
}

}  // namespace
}  // namespace parley::llm

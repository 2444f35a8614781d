#include <gtest/gtest.h>

#include <sys/stat.h>

#include <string>

#include "parley/config/team.hpp"
#include "team_file_fixture.hpp"

namespace parley::config {
namespace {

using TeamFile = testing::team_file_test;

// Every bad-input test below edits this valid file; its line numbers are the ones asserted.
//  1 providers:
//  2   offline:
//  3     kind: scripted
//  4     script: script.yaml
//  5 members:
//  6   lead:
//  7     persona: "You lead."
//  8     provider: offline
//  9     model: scripted-1
constexpr std::string_view kMinimalTeam = R"(providers:
  offline:
    kind: scripted
    script: script.yaml
members:
  lead:
    persona: "You lead."
    provider: offline
    model: scripted-1
)";

TEST_F(TeamFile, MinimalFileLoads) {
  auto team = load(kMinimalTeam);
  ASSERT_TRUE(team) << team.err().message;
  EXPECT_EQ(team->default_member, "lead");
}

TEST_F(TeamFile, SyntaxErrorNamesThePosition) {
  EXPECT_EQ(error_of("providers:\n  offline: {kind: scripted\nmembers: {}\n"),
            at("3:8") + "YAML syntax error: end of map flow not found");
}

TEST_F(TeamFile, WrongTypeForToolRounds) {
  EXPECT_EQ(error_of(std::string(kMinimalTeam) + "    max_tool_rounds: many\n"),
            at("10:22") + "members.lead.max_tool_rounds: got 'many' (expected a positive integer)");
}

TEST_F(TeamFile, ZeroIsNotAPositiveInteger) {
  EXPECT_EQ(error_of(std::string(kMinimalTeam) + "    max_tellask_depth: 0\n"),
            at("10:24") + "members.lead.max_tellask_depth: got '0' (expected a positive integer)");
}

TEST_F(TeamFile, WrongTypeForBoolean) {
  EXPECT_EQ(error_of(std::string(kMinimalTeam) + "    streaming: maybe\n"),
            at("10:16") + "members.lead.streaming: got 'maybe' (expected true or false)");
}

TEST_F(TeamFile, ListItemOfWrongType) {
  EXPECT_EQ(error_of(std::string(kMinimalTeam) + "    tools: [read_file, {x: 1}]\n"),
            at("10:24") + "members.lead.tools[1]: got a mapping (expected a string)");
}

// gofor/nogo: a string, a list of strings, or a mapping of label to text (Dominds' routing cards).
TEST_F(TeamFile, RoutingCardOfWrongShape) {
  EXPECT_EQ(error_of(std::string(kMinimalTeam) + "    gofor: {When: [a, b]}\n"),
            at("10:19") + "members.lead.gofor.When: got a list (expected a string)");
  EXPECT_EQ(error_of(std::string(kMinimalTeam) + "    nogo: [x, [y]]\n"),
            at("10:15") + "members.lead.nogo[1]: got a list (expected a string)");
}

TEST_F(TeamFile, MissingRequiredKeyNamesTheMappingLine) {
  EXPECT_EQ(error_of(R"(providers:
  offline: {kind: scripted, script: script.yaml}
members:
  lead:
    persona: "You lead."
    provider: offline
)"),
            at("4:3") + "members.lead: missing required key 'model' (expected a model name)");
}

TEST_F(TeamFile, EmptyValueCountsAsMissing) {
  EXPECT_EQ(error_of(R"(providers:
  offline: {kind: scripted, script: script.yaml}
members:
  lead:
    persona: "You lead."
    provider:
    model: m
)"),
            at("4:3") + "members.lead: missing required key 'provider' (expected the id of a provider)");
}

TEST_F(TeamFile, UnknownKeySuggestsTheClosestKey) {
  EXPECT_EQ(error_of(std::string(kMinimalTeam) + "    modle_params: {}\n"),
            at("10:5") + "members.lead.modle_params: unknown key 'modle_params' (did you mean 'model_params'?)");
}

TEST_F(TeamFile, MediaMembersMustTakeTheirMedium) {
  const std::string team = std::string(kMinimalTeam) + "media: {captioner: lead}\n";
  EXPECT_NE(error_of(team).find("media.captioner: member 'lead' does not take images (vision: true)"),
            std::string::npos)
      << error_of(team);
  EXPECT_NE(error_of(std::string(kMinimalTeam) + "media: {transcriber: nobody}\n").find("unknown member 'nobody'"),
            std::string::npos);
  EXPECT_NE(error_of(std::string(kMinimalTeam) + "media: {painter: lead}\n").find("unknown key 'painter'"),
            std::string::npos);
}

TEST_F(TeamFile, UnknownKeyWithoutCloseMatchListsTheKeys) {
  EXPECT_EQ(error_of(std::string(kMinimalTeam) + "colour: blue\n"),
            at("10:1") +
                "colour: unknown key 'colour' (expected one of: version, default_member, workspace, language, limits, "
                "providers, members, media, access, shell, max_tool_rounds, retention, records, mcp or titles)");
}

// Issue 43: who titles a root, `model` unless the file says `rule`; anything else is refused by name.
TEST_F(TeamFile, TitlesIsModelByDefaultOrRuleAndNothingElse) {
  auto by_default = load(kMinimalTeam);
  ASSERT_TRUE(by_default) << by_default.err().message;
  EXPECT_EQ(by_default->titles, config::title_mode::model);
  auto by_rule = load(std::string(kMinimalTeam) + "titles: rule\n");
  ASSERT_TRUE(by_rule) << by_rule.err().message;
  EXPECT_EQ(by_rule->titles, config::title_mode::rule);
  EXPECT_EQ(error_of(std::string(kMinimalTeam) + "titles: modle\n"),
            at("10:9") + "titles: unknown titles 'modle' (did you mean 'model'?) (expected one of: model or rule)");
}

TEST_F(TeamFile, RepeatedKeyInAMember) {
  EXPECT_EQ(error_of(std::string(kMinimalTeam) + "    model: other\n"),
            at("10:5") + "members.lead.model: duplicate key 'model' (first defined at 9:5)");
}

TEST_F(TeamFile, DuplicateMemberIdInMapping) {
  EXPECT_EQ(error_of(std::string(kMinimalTeam) + "  lead:\n    persona: x\n    provider: offline\n    model: m\n"),
            at("10:3") + "members.lead: duplicate member id 'lead' (first defined at 6:3)");
}

TEST_F(TeamFile, DuplicateMemberIdInList) {
  EXPECT_EQ(error_of(R"(providers:
  offline: {kind: scripted, script: script.yaml}
members:
  - {id: lead, persona: x, provider: offline, model: m}
  - {id: lead, persona: y, provider: offline, model: m}
)"),
            at("5:10") + "members.lead: duplicate member id 'lead' (first defined at 4:10)");
}

TEST_F(TeamFile, ListMemberWithoutId) {
  EXPECT_EQ(error_of(R"(providers:
  offline: {kind: scripted, script: script.yaml}
members:
  - persona: x
    provider: offline
    model: m
)"),
            at("4:5") + "members[0]: missing required key 'id' (expected the member id)");
}

TEST_F(TeamFile, BadMemberIdSyntax) {
  EXPECT_EQ(error_of(R"(providers:
  offline: {kind: scripted, script: script.yaml}
members:
  9lives:
    persona: x
    provider: offline
    model: m
)"),
            at("4:3") + "members.9lives: invalid member id '9lives' (expected a name matching [a-zA-Z][a-zA-Z0-9_-]*)");
}

TEST_F(TeamFile, UnknownProviderKind) {
  EXPECT_EQ(error_of(R"(providers:
  remote:
    kind: opnai
members: {}
)"),
            at("3:11") +
                "providers.remote.kind: unknown provider kind 'opnai' (did you mean 'openai'?) "
                "(expected one of: scripted, openai, anthropic, openai-responses, codex or mock)");
}

TEST_F(TeamFile, KeyThatDoesNotApplyToTheKind) {
  EXPECT_EQ(error_of(R"(providers:
  offline:
    kind: scripted
    script: script.yaml
    base_url: http://localhost
members: {}
)"),
            at("5:5") + "providers.offline.base_url: key 'base_url' does not apply to kind 'scripted'");
}

TEST_F(TeamFile, MemberReferencesUnknownProvider) {
  EXPECT_EQ(
      error_of(R"(providers:
  offline: {kind: scripted, script: script.yaml}
members:
  lead:
    persona: x
    provider: ofline
    model: m
)"),
      at("6:15") +
          "members.lead.provider: unknown provider 'ofline' (did you mean 'offline'?) (expected one of: offline)");
}

TEST_F(TeamFile, DefaultMemberMustBeAMember) {
  EXPECT_EQ(error_of("default_member: laed\n" + std::string(kMinimalTeam)),
            at("1:17") + "default_member: unknown member 'laed' (did you mean 'lead'?) (expected one of: lead)");
}

TEST_F(TeamFile, PersonaFileMustExist) {
  EXPECT_EQ(error_of(R"(providers:
  offline: {kind: scripted, script: script.yaml}
members:
  lead:
    persona_file: personas/lead.md
    provider: offline
    model: m
)"),
            at("5:19") + "members.lead.persona_file: file not found: " + (tree_.root() / "personas/lead.md").string());
}

TEST_F(TeamFile, PersonaAndPersonaFileTogether) {
  tree_.write("lead.md", "You lead.");
  EXPECT_EQ(
      error_of(std::string(kMinimalTeam) + "    persona_file: lead.md\n"),
      at("10:5") + "members.lead.persona_file: both 'persona' and 'persona_file' are given (expected exactly one)");
}

TEST_F(TeamFile, PersonaIsRequired) {
  EXPECT_EQ(error_of(R"(providers:
  offline: {kind: scripted, script: script.yaml}
members:
  lead:
    provider: offline
    model: m
)"),
            at("4:3") + "members.lead: missing required key 'persona' or 'persona_file' (expected exactly one)");
}

TEST_F(TeamFile, ScriptFileMustExist) {
  EXPECT_EQ(
      error_of(R"(providers:
  offline:
    kind: scripted
    script: scripts/missing.yaml
members: {}
)"),
      at("4:13") + "providers.offline.script: file not found: " + (tree_.root() / "scripts/missing.yaml").string());
}

TEST_F(TeamFile, ScriptedProviderNeedsAScript) {
  EXPECT_EQ(error_of("providers:\n  offline:\n    kind: scripted\nmembers: {}\n"),
            at("2:3") + "providers.offline: missing required key 'script' (expected a file path)");
}

TEST_F(TeamFile, EmptyMembers) {
  EXPECT_EQ(error_of("providers:\n  offline: {kind: scripted, script: script.yaml}\nmembers: {}\n"),
            at("3:10") + "members: no members defined (expected at least one member)");
  EXPECT_EQ(error_of("providers:\n  offline: {kind: scripted, script: script.yaml}\nmembers: []\n"),
            at("3:10") + "members: no members defined (expected at least one member)");
}

TEST_F(TeamFile, MissingMembers) {
  EXPECT_EQ(
      error_of("providers:\n  offline: {kind: scripted, script: script.yaml}\n"),
      at("1:1") + "missing required key 'members' (expected a mapping of member id to member, or a list of members)");
}

TEST_F(TeamFile, UnsupportedVersion) {
  EXPECT_EQ(error_of("version: 2\n" + std::string(kMinimalTeam)), at("1:10") + "version: got '2' (expected 1)");
}

TEST_F(TeamFile, WorkspaceMustBeAFolder) {
  EXPECT_EQ(error_of("workspace: nowhere\n" + std::string(kMinimalTeam)),
            at("1:12") + "workspace: folder not found: " + (tree_.root() / "nowhere").string());
}

TEST_F(TeamFile, ModelParamsMustBeAMapping) {
  EXPECT_EQ(error_of(std::string(kMinimalTeam) + "    model_params: [1, 2]\n"),
            at("10:19") + "members.lead.model_params: got a list (expected a mapping)");
}

TEST_F(TeamFile, TopLevelMustBeAMapping) {
  EXPECT_EQ(error_of("- a\n- b\n"), at("1:1") + "got a list (expected a mapping)");
}

TEST_F(TeamFile, MissingFileIsAnError) {
  auto team = load_team_file(tree_.root() / "absent.yaml");
  ASSERT_FALSE(team);
  EXPECT_EQ(team.err().code, errc::config_error);
  EXPECT_EQ(team.err().message, (tree_.root() / "absent.yaml").string() + ": no such file");
}

// A FIFO would block the read forever and /dev/zero never ends: neither is read, and neither is
// called "not found".
TEST_F(TeamFile, ADirectoryAFifoOrADeviceIsRefusedForWhatItIs) {
  const auto folder = tree_.root() / "folder.yaml";
  std::filesystem::create_directories(folder);
  EXPECT_EQ(load_team_file(folder).err().message, folder.string() + ": is a directory, not a file");
  const auto fifo = tree_.root() / "fifo.yaml";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(load_team_file(fifo).err().message,
            fifo.string() + ": is not a regular file (a FIFO, socket or device), so it is not read");
  EXPECT_EQ(load_team_file("/dev/zero").err().message,
            "/dev/zero: is not a regular file (a FIFO, socket or device), so it is not read");
}

// Lines 1-4 of kMinimalTeam, then an HTTP provider whose fallback is checked.
constexpr std::string_view kLiveHeader = R"(providers:
  offline:
    kind: scripted
    script: script.yaml
  live:
    kind: openai
)";

TEST_F(TeamFile, FallbackMustNameAProvider) {
  const std::string text =
      std::string(kLiveHeader) + "    fallback: ofline\nmembers:\n  lead: {persona: p, provider: live, model: m}\n";
  EXPECT_EQ(error_of(text), at("7:15") +
                                "providers.live.fallback: unknown provider 'ofline' (did you mean "
                                "'offline'?) (expected one of: offline or live)");
}

TEST_F(TeamFile, FallbacksMustNotFormACycle) {
  const std::string text = std::string(kLiveHeader) +
                           "    fallback: other\n  other:\n    kind: anthropic\n    fallback: live\n"
                           "members:\n  lead: {persona: p, provider: live, model: m}\n";
  EXPECT_EQ(error_of(text), at("10:15") + "providers.other.fallback: fallback providers form a cycle through 'live'");
}

TEST_F(TeamFile, FallbackDoesNotApplyToScriptedProviders) {
  const std::string text =
      "providers:\n  offline:\n    kind: scripted\n    script: script.yaml\n    fallback: x\n"
      "members:\n  lead: {persona: p, provider: offline, model: m}\n";
  EXPECT_EQ(error_of(text), at("5:5") + "providers.offline.fallback: key 'fallback' does not apply to kind 'scripted'");
}

// JSON cannot carry infinity or NaN, and `1e999` reads as infinity: refused where it is written.
TEST_F(TeamFile, ModelParamsThatAreNotFiniteNumbersAreRefused) {
  const std::string header =
      "providers:\n  offline: {kind: scripted, script: script.yaml}\nmembers:\n  lead:\n"
      "    persona: p\n    provider: offline\n    model: m\n    model_params:\n";
  EXPECT_EQ(error_of(header + "      y: 1e999\n"),
            at("9:10") + "members.lead.model_params.y: '1e999' is not a finite number");
  EXPECT_EQ(error_of(header + "      z: [1, -.inf]\n"),
            at("9:14") + "members.lead.model_params.z[1]: '-.inf' is not a finite number");
  EXPECT_EQ(error_of(header + "      n: .nan\n"),
            at("9:10") + "members.lead.model_params.n: '.nan' is not a finite number");
}

// Aliases of aliases repeat their anchors' subtrees: ten levels of ten make 10^10 values.
TEST_F(TeamFile, ABillionLaughsInModelParamsIsRefusedNotExpanded) {
  std::string bomb =
      "providers:\n  offline: {kind: scripted, script: script.yaml}\nmembers:\n  lead:\n"
      "    persona: p\n    provider: offline\n    model: m\n    model_params:\n"
      "      a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int level = 1; level < 10; ++level) {
    const std::string prev = "*a" + std::to_string(level - 1);
    bomb += "      a" + std::to_string(level) + ": &a" + std::to_string(level) + " [" + prev;
    for (int i = 1; i < 10; ++i) bomb += ", " + prev;
    bomb += "]\n";
  }
  const std::string message = error_of(bomb);
  EXPECT_NE(message.find("expands to more than 100000 values"), std::string::npos) << message;
}

TEST_F(TeamFile, AFileThatIsNotUtf8IsRefusedAtTheByte) {
  EXPECT_EQ(error_of("members:\n  lead:\n    persona: caf\xE9\n"),
            at("3:17") + "byte 0xe9 at offset 33 is not valid UTF-8 (save the file as UTF-8)");
}

// Found by fuzz/team_yaml_fuzzer.cpp: yaml-cpp reads a file that starts with NUL bytes as UTF-32
// and turns a NUL inside a value into bytes that are not UTF-8; YAML has no NUL, so it is refused.
TEST_F(TeamFile, ANulByteIsRefusedWithItsPosition) {
  EXPECT_EQ(error_of(std::string("\x01\0\0\0\0\0\0\0: x\n", 12)),
            at("1:2") + "a NUL byte at offset 1 (a YAML file is text)");
  EXPECT_EQ(error_of(std::string(kMinimalTeam) + std::string("    name: \"a\0_b\"\n", 17)),
            at("10:13") + "a NUL byte at offset 163 (a YAML file is text)");
}

// Found by fuzz/scripted_script_fuzzer.cpp (the team file reads YAML the same way): yaml-cpp
// decodes "\N" to the byte 0x85 (and "\_" to 0xA0) rather than to UTF-8.
TEST_F(TeamFile, EscapesTheYamlReaderDecodesWronglyAreRefused) {
  EXPECT_EQ(error_of(std::string(kMinimalTeam) + "    name: \"Line\\Nnext\"\n"),
            at("10:11") +
                "the escape \\N or \\_ (U+0085, U+00A0), which this YAML reader cannot decode; write the character "
                "itself");
  auto plain = load(std::string(kMinimalTeam) + "    name: C:\\N\\_x\n");
  ASSERT_TRUE(plain) << plain.err().message;
  EXPECT_EQ(plain->members.front().name, "C:\\N\\_x");
  // The check reads the first document only, as loading does: over all of them, "," never ended.
  EXPECT_FALSE(load(","));
}

}  // namespace
}  // namespace parley::config

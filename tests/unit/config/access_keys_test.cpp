// The access-rule keys in both formats: read into member_config::access (team default or
// member_defaults, then the member, key by key), and refused — naming file, line, column and key —
// when a pattern is malformed, an allow entry can never apply, or an allow list is empty for nothing.
#include <gtest/gtest.h>

#include <string>

#include "parley/config/team.hpp"
#include "team_file_fixture.hpp"
#include "temp_tree.hpp"

namespace parley::config {
namespace {

using TeamFile = testing::team_file_test;

std::vector<std::string> texts(const std::vector<access::dir_glob>& globs) {
  std::vector<std::string> out;
  for (const auto& glob : globs) out.push_back(glob.text());
  return out;
}

// Lines:
//  1 providers:
//  2   offline: {kind: scripted, script: script.yaml}
//  3 access:
//  4   write_dirs: [docs/**]
//  5   no_read_file_ext_names: [.ENV]
//  6 members:
//  7   lead:
//  8     persona: p
//  9     provider: offline
// 10     model: m
// 11     no_read_dirs: [secrets, "**/*.key"]
// 12   scribe:
// 13     persona: p
// 14     provider: offline
// 15     model: m
// 16     write_dirs: [notes]
// 17     write_file_ext_names: [md, txt]
constexpr std::string_view kAccessTeam = R"(providers:
  offline: {kind: scripted, script: script.yaml}
access:
  write_dirs: [docs/**]
  no_read_file_ext_names: [.ENV]
members:
  lead:
    persona: p
    provider: offline
    model: m
    no_read_dirs: [secrets, "**/*.key"]
  scribe:
    persona: p
    provider: offline
    model: m
    write_dirs: [notes]
    write_file_ext_names: [md, txt]
)";

TEST_F(TeamFile, AccessKeysAreReadWithTheTeamDefaultReplacedKeyByKey) {
  auto team = load(kAccessTeam);
  ASSERT_TRUE(team) << team.err().message;
  const auto& lead = team->members[0].access;
  EXPECT_EQ(texts(lead.write.allow_dirs), (std::vector<std::string>{"docs/**"}));
  EXPECT_EQ(texts(lead.read.deny_dirs), (std::vector<std::string>{"secrets", "**/*.key"}));
  EXPECT_EQ(lead.read.deny_exts, (std::vector<std::string>{"env"}));
  EXPECT_FALSE(lead.check_write("src/a.cpp"));
  EXPECT_FALSE(lead.check_read("deep/id.key"));
  const auto& scribe = team->members[1].access;
  EXPECT_EQ(texts(scribe.write.allow_dirs), (std::vector<std::string>{"notes"}));
  EXPECT_EQ(scribe.write.allow_exts, (std::vector<std::string>{"md", "txt"}));
  EXPECT_EQ(scribe.read.deny_exts, (std::vector<std::string>{"env"}));  // inherited
  EXPECT_TRUE(scribe.check_write("notes/today.md"));
  EXPECT_FALSE(scribe.check_write("docs/a.md"));
}

TEST_F(TeamFile, AMalformedPatternNamesItsEntry) {
  std::string text(kAccessTeam);
  text.replace(text.find("secrets, "), 9, "/etc, ");
  EXPECT_EQ(error_of(text), at("11:20") +
                                "members.lead.no_read_dirs[0]: pattern '/etc' is absolute; patterns are "
                                "relative to the workspace root");
  text = std::string(kAccessTeam);
  text.replace(text.find("[docs/**]"), 9, "[docs/**, a**]");
  EXPECT_EQ(error_of(text), at("4:25") +
                                "access.write_dirs[1]: pattern 'a**' has '**' inside a segment ('a**'); "
                                "'**' must be a whole segment, as in 'docs/**'");
}

TEST_F(TeamFile, ABadExtensionNamesItsEntry) {
  std::string text(kAccessTeam);
  text.replace(text.find("[md, txt]"), 9, "[md, tar.gz]");
  EXPECT_EQ(error_of(text), at("17:32") +
                                "members.scribe.write_file_ext_names[1]: extension 'tar.gz' can never "
                                "match: only the text after a file name's last dot is compared; use 'gz'");
}

TEST_F(TeamFile, AnAllowEntryInsideADenyEntryIsAnOverlap) {
  std::string text(kAccessTeam);
  text.replace(text.find("    no_read_dirs"), 0, "    read_dirs: [secrets/old]\n");
  // The inserted line is 11; the deny list moved to 12.
  EXPECT_EQ(error_of(text), at("11:17") +
                                "members.lead.read_dirs[0]: pattern 'secrets/old' lies wholly inside "
                                "'secrets' (members.lead.no_read_dirs[0] at 12:20), which is checked "
                                "first, so it can never allow anything");
  text = std::string(kAccessTeam);
  text.replace(text.find("    no_read_dirs"), 0, "    no_write_dirs: ['**']\n");
  // The team default write_dirs (line 4) is what can never apply now.
  EXPECT_EQ(error_of(text), at("4:16") +
                                "access.write_dirs[0]: pattern 'docs/**' lies wholly inside '**' "
                                "(members.lead.no_write_dirs[0] at 11:21), which is checked first, so it "
                                "can never allow anything");
  text = std::string(kAccessTeam);
  text.replace(text.find("[md, txt]"), 9, "[md, txt]\n    no_write_file_ext_names: [TXT]");
  EXPECT_EQ(error_of(text), at("17:32") +
                                "members.scribe.write_file_ext_names[1]: extension 'txt' is also denied "
                                "(members.scribe.no_write_file_ext_names[0] at 18:31), which is checked "
                                "first, so allowing it does nothing");
}

TEST_F(TeamFile, AReservedPlaceCannotBeAllowed) {
  std::string text(kAccessTeam);
  text.replace(text.find("[notes]"), 7, "[notes, .minds/memory]");
  EXPECT_EQ(error_of(text), at("16:25") +
                                "members.scribe.write_dirs[1]: pattern '.minds/memory' names a place no "
                                "file tool opens (.minds/ and .dialogs/ at the workspace root, Taskdoc "
                                "packages *.tsk); it cannot be allowed, remove it");
}

TEST_F(TeamFile, AnEmptyAllowListIsRefusedUnlessItLiftsAnInheritedOne) {
  std::string text(kAccessTeam);
  text.replace(text.find("[md, txt]"), 9, "[]");
  EXPECT_EQ(error_of(text), at("17:27") +
                                "members.scribe.write_file_ext_names: an empty list restricts nothing "
                                "(every path is allowed, as if 'write_file_ext_names' were absent); leave "
                                "the key out, or deny everything with no_write_file_ext_names");
  text = std::string(kAccessTeam);
  text.replace(text.find("[notes]"), 7, "[]");
  auto team = load(text);
  ASSERT_TRUE(team) << team.err().message;
  EXPECT_TRUE(team->members[1].access.write.allow_dirs.empty());  // the team default lifted for scribe
  EXPECT_TRUE(team->members[1].access.check_write("src/a.md"));
}

TEST_F(TeamFile, AccessValuesMustBeListsOfStrings) {
  std::string text(kAccessTeam);
  text.replace(text.find("[notes]"), 7, "notes");
  EXPECT_EQ(error_of(text), at("16:17") +
                                "members.scribe.write_dirs: got 'notes' (expected a list of "
                                "directory patterns)");
  text = std::string(kAccessTeam);
  text.replace(text.find("access:\n"), 8, "access:\n  read_dir: [x]\n");
  EXPECT_EQ(error_of(text).substr(0, at("4:3").size()), at("4:3"));
}

class DomindsAccess : public ::testing::Test {
 protected:
  void SetUp() override {
    tree_.write(".minds/llm.yaml", "providers:\n  local:\n    apiType: openai\n    models: {m: {}}\n");
  }
  testing::temp_tree tree_;
};

TEST_F(DomindsAccess, MemberDefaultsAndMembersCarryTheRules) {
  tree_.write(".minds/team.yaml", R"(member_defaults:
  provider: local
  read_dirs: ["**"]
  no_write_dirs: [vendor]
members:
  alice:
    write_dirs: ["src/**"]
  bob:
    no_write_dirs: []
)");
  auto team = load_dominds_workspace(tree_.root());
  ASSERT_TRUE(team) << team.err().message;
  const auto& alice = team->members[0].access;
  EXPECT_EQ(texts(alice.write.allow_dirs), (std::vector<std::string>{"src/**"}));
  EXPECT_EQ(texts(alice.write.deny_dirs), (std::vector<std::string>{"vendor"}));
  EXPECT_EQ(texts(alice.read.allow_dirs), (std::vector<std::string>{"**"}));
  EXPECT_FALSE(alice.check_write("lib/x.ts"));
  const auto& bob = team->members[1].access;
  EXPECT_TRUE(bob.write.deny_dirs.empty());
  EXPECT_TRUE(bob.check_write("vendor/x.ts"));
}

TEST_F(DomindsAccess, ErrorsNameTheTeamFileLineAndKey) {
  tree_.write(".minds/team.yaml", R"(member_defaults:
  provider: local
members:
  alice:
    write_dirs: ["src/**", "../elsewhere"]
)");
  auto team = load_dominds_workspace(tree_.root());
  ASSERT_FALSE(team);
  EXPECT_EQ(team.err().message, (tree_.root() / ".minds" / "team.yaml").string() +
                                    ":5:28: members.alice.write_dirs[1]: pattern '../elsewhere' contains '..'; "
                                    "patterns cannot leave the workspace");
  tree_.write(".minds/team.yaml", R"(member_defaults:
  provider: local
  write_dirs: [docs]
members:
  alice:
    no_write_dirs: [docs]
)");
  team = load_dominds_workspace(tree_.root());
  ASSERT_FALSE(team);
  EXPECT_EQ(team.err().message, (tree_.root() / ".minds" / "team.yaml").string() +
                                    ":3:16: member_defaults.write_dirs[0]: pattern 'docs' lies wholly inside 'docs' "
                                    "(members.alice.no_write_dirs[0] at 6:21), which is checked first, so it can "
                                    "never allow anything");
}

}  // namespace
}  // namespace parley::config

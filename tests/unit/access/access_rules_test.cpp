// The access rule engine on its own: pattern syntax and matching, deny before allow, extension
// lists, the built-in denials, and what list_dir may pass through.
#include <gtest/gtest.h>

#include "parley/access/access_rules.hpp"

namespace parley::access {
namespace {

dir_glob glob(std::string_view text) {
  auto parsed = dir_glob::parse(text);
  EXPECT_TRUE(parsed.has_value()) << text << ": " << (parsed ? "" : parsed.err().message);
  return std::move(parsed).value();
}

std::vector<dir_glob> globs(std::initializer_list<std::string_view> texts) {
  std::vector<dir_glob> out;
  for (const auto text : texts) out.push_back(glob(text));
  return out;
}

std::string refusal(std::string_view text) {
  auto parsed = dir_glob::parse(text);
  return parsed ? std::string("accepted") : parsed.err().message;
}

TEST(DirGlob, APlainPatternIsADirectoryScope) {
  const auto docs = glob("docs");
  EXPECT_TRUE(docs.matches("docs"));
  EXPECT_TRUE(docs.matches("docs/a.md"));
  EXPECT_TRUE(docs.matches("docs/deep/er/b.md"));
  EXPECT_FALSE(docs.matches("docs-backup/a.md"));  // a whole segment, not a string prefix
  EXPECT_FALSE(docs.matches("src/docs/a.md"));     // anchored at the workspace root
  EXPECT_FALSE(docs.matches("."));
  const auto nested = glob("src/tools");
  EXPECT_TRUE(nested.matches("src/tools/fs.ts"));
  EXPECT_FALSE(nested.matches("src/other/fs.ts"));
  EXPECT_FALSE(nested.matches("src"));
}

TEST(DirGlob, TrailingDoubleStarAndSlashesMeanTheSameScope) {
  for (const auto text : {"docs/**", "docs/", "docs/**/", "./docs", "docs//**/**"}) {
    const auto g = glob(text);
    EXPECT_TRUE(g.matches("docs")) << text;
    EXPECT_TRUE(g.matches("docs/x/y.md")) << text;
    EXPECT_FALSE(g.matches("doc/x.md")) << text;
  }
}

TEST(DirGlob, StarMatchesWithinOneSegmentOnly) {
  const auto g = glob("src/*/internal");
  EXPECT_TRUE(g.matches("src/a/internal/x.cpp"));
  EXPECT_TRUE(g.matches("src/.hidden/internal"));
  EXPECT_FALSE(g.matches("src/a/b/internal/x.cpp"));
  EXPECT_FALSE(g.matches("src/a/public/x.cpp"));
  const auto names = glob("*.log");
  EXPECT_TRUE(names.matches("server.log"));
  EXPECT_TRUE(names.matches("server.log/inside"));  // a folder named so is a scope too
  EXPECT_FALSE(names.matches("logs/server.log"));
  const auto inner = glob("build-*-out");
  EXPECT_TRUE(inner.matches("build-release-out/a"));
  EXPECT_TRUE(inner.matches("build--out"));
  EXPECT_FALSE(inner.matches("build-release"));
}

TEST(DirGlob, DoubleStarMatchesAnyNumberOfSegmentsIncludingNone) {
  const auto g = glob("src/**/secret");
  EXPECT_TRUE(g.matches("src/secret"));
  EXPECT_TRUE(g.matches("src/a/b/secret/key.pem"));
  EXPECT_FALSE(g.matches("other/secret"));  // unlike Dominds, the part before ** still counts
  const auto anywhere = glob("**/*secret*");
  EXPECT_TRUE(anywhere.matches("my-secrets.txt"));
  EXPECT_TRUE(anywhere.matches("a/b/top-secret/c.txt"));
  EXPECT_FALSE(anywhere.matches("a/b/public/c.txt"));
}

TEST(DirGlob, TheRootPatternsMatchEverything) {
  for (const auto text : {".", "**", "./"}) {
    const auto g = glob(text);
    EXPECT_TRUE(g.matches(".")) << text;
    EXPECT_TRUE(g.matches("a/b/c")) << text;
  }
}

TEST(DirGlob, MalformedPatternsAreRefusedWithTheReason) {
  EXPECT_NE(refusal("").find("is empty"), std::string::npos);
  EXPECT_NE(refusal("/etc").find("is absolute"), std::string::npos);
  EXPECT_NE(refusal("docs/../src").find("'..'"), std::string::npos);
  EXPECT_NE(refusal("../outside").find("'..'"), std::string::npos);
  EXPECT_NE(refusal("docs**").find("'**' must be a whole segment"), std::string::npos);
  EXPECT_NE(refusal("a/***/b").find("'**' must be a whole segment"), std::string::npos);
  EXPECT_NE(refusal("file?.md").find("only '*' and '**'"), std::string::npos);
  EXPECT_NE(refusal("[ab]").find("only '*' and '**'"), std::string::npos);
  EXPECT_NE(refusal("{a,b}").find("only '*' and '**'"), std::string::npos);
  EXPECT_NE(refusal("!docs").find("negation is not supported"), std::string::npos);
  EXPECT_NE(refusal(" docs").find("white space"), std::string::npos);
  EXPECT_NE(refusal("docs\t").find("white space"), std::string::npos);
  EXPECT_EQ(refusal("docs/*.md"), "accepted");
  EXPECT_EQ(glob("a\\b").segments(), (std::vector<std::string>{"a", "b"}));  // Dominds' separator rule
}

TEST(DirGlob, WithinIsDecidedByTheLiteralPrefix) {
  EXPECT_TRUE(glob("docs/api").within(glob("docs")));
  EXPECT_TRUE(glob("docs/**").within(glob("docs")));
  EXPECT_TRUE(glob("docs").within(glob("docs/**")));
  EXPECT_TRUE(glob("docs/*.md").within(glob("**")));
  EXPECT_TRUE(glob("src/a/*").within(glob("src/*")));
  EXPECT_FALSE(glob("docs").within(glob("docs/api")));  // a carve-out, not an overlap
  EXPECT_FALSE(glob("*/docs").within(glob("docs")));
  EXPECT_FALSE(glob("docs").within(glob("docs/*.md")));
}

TEST(DirGlob, MayMatchBelowFollowsThePatternDownwards) {
  EXPECT_TRUE(glob("docs/**").may_match_below("."));
  EXPECT_TRUE(glob("src/*/docs").may_match_below("src"));
  EXPECT_TRUE(glob("src/*/docs").may_match_below("src/a"));
  EXPECT_FALSE(glob("src/*/docs").may_match_below("lib"));
  EXPECT_FALSE(glob("src/*/docs").may_match_below("src/a/b"));
}

TEST(AccessRules, NoRulesAllowEverythingButTheReservedPlaces) {
  const access_rules rules;
  EXPECT_TRUE(rules.check_read("src/main.cpp"));
  EXPECT_TRUE(rules.check_write("notes.md"));
  EXPECT_TRUE(rules.check_read(".", path_kind::directory));
  EXPECT_FALSE(rules.restricts());
}

TEST(AccessRules, ReservedPlacesAreAlwaysDeniedForReadsAndWrites) {
  access_rules rules;
  rules.read.allow_dirs = globs({"**"});
  rules.write.allow_dirs = globs({"**"});
  for (const auto path : {".minds", ".minds/team.yaml", ".minds/memory/individual/lead/x.md", ".dialogs/run/a"}) {
    EXPECT_FALSE(rules.check_read(path)) << path;
    EXPECT_FALSE(rules.check_write(path)) << path;
  }
  for (const auto path : {"plan.tsk", "plan.tsk/goals.md", "a/b/Launch.TSK/progress.md"}) {
    const auto verdict = rules.check_write(path);
    EXPECT_FALSE(verdict) << path;
    EXPECT_NE(verdict.reason.find("change_mind"), std::string::npos) << verdict.reason;
    EXPECT_FALSE(rules.check_read(path)) << path;
  }
  EXPECT_NE(rules.check_read(".minds/llm.yaml").reason.find(".minds/"), std::string::npos);
  // Only at the workspace root, as in Dominds.
  EXPECT_TRUE(rules.check_read("sub/.minds/team.yaml"));
  EXPECT_TRUE(rules.check_read("sub/.dialogs/x"));
}

TEST(AccessRules, AnAllowListConfinesThatDirectionOnly) {
  access_rules rules;
  rules.write.allow_dirs = globs({"docs/**"});
  EXPECT_TRUE(rules.check_write("docs/guide.md"));
  const auto outside = rules.check_write("src/main.cpp");
  EXPECT_FALSE(outside);
  EXPECT_EQ(outside.reason, "it is outside write_dirs ('docs/**')");
  EXPECT_TRUE(rules.check_read("src/main.cpp"));  // reads are a separate direction
}

TEST(AccessRules, DenyIsCheckedBeforeAllow) {
  access_rules rules;
  rules.read.allow_dirs = globs({"src"});
  rules.read.deny_dirs = globs({"src/secrets"});
  EXPECT_TRUE(rules.check_read("src/a.cpp"));
  const auto denied = rules.check_read("src/secrets/key.pem");
  EXPECT_FALSE(denied);
  EXPECT_EQ(denied.reason, "it is inside no_read_dirs 'src/secrets'");
  rules.write.deny_dirs = globs({"**/*.lock"});
  EXPECT_EQ(rules.check_write("deps/yarn.lock").reason, "it is inside no_write_dirs '**/*.lock'");
}

TEST(AccessRules, ExtensionListsApplyToFilesWithAnExtension) {
  access_rules rules;
  rules.write.allow_exts = {"md", "txt"};
  rules.write.deny_exts = {"exe"};
  EXPECT_TRUE(rules.check_write("docs/a.md"));
  EXPECT_TRUE(rules.check_write("docs/A.MD"));  // compared in lower case
  EXPECT_EQ(rules.check_write("a.py").reason, "its extension 'py' is not in write_file_ext_names ('md', 'txt')");
  EXPECT_EQ(rules.check_write("tool.exe").reason, "its extension 'exe' is in no_write_file_ext_names");
  // As in Dominds: no extension, no extension rule (a dot file has none).
  EXPECT_TRUE(rules.check_write("Makefile"));
  EXPECT_TRUE(rules.check_write(".env"));
  EXPECT_TRUE(rules.check_write("trailing."));
  // Folders have no extension even with a dot in their name.
  EXPECT_TRUE(rules.check_write("v1.2", path_kind::directory));
  EXPECT_FALSE(rules.check_write("v1.2"));
}

TEST(AccessRules, ExtensionDenyWinsOverTheAllowList) {
  access_rules rules;
  rules.read.allow_exts = {"env"};
  rules.read.deny_exts = {"env"};
  EXPECT_FALSE(rules.check_read("prod.env"));
}

TEST(AccessRules, ADirectoryAndAnExtensionDimensionMustBothPass) {
  access_rules rules;
  rules.read.allow_dirs = globs({"docs"});
  rules.read.allow_exts = {"md"};
  EXPECT_TRUE(rules.check_read("docs/a.md"));
  EXPECT_FALSE(rules.check_read("docs/a.pdf"));
  EXPECT_FALSE(rules.check_read("src/a.md"));
}

TEST(AccessRules, ListingMayPassThroughFoldersThatLeadToAReadScope) {
  access_rules rules;
  rules.read.allow_dirs = globs({"project/docs/**"});
  rules.read.deny_dirs = globs({"private"});
  EXPECT_FALSE(rules.check_read(".", path_kind::directory));
  EXPECT_TRUE(rules.may_pass_through("."));
  EXPECT_TRUE(rules.may_pass_through("project"));
  EXPECT_FALSE(rules.may_pass_through("other"));
  EXPECT_FALSE(rules.may_pass_through("private"));
  EXPECT_FALSE(rules.may_pass_through(".minds"));
}

TEST(AccessRules, ExtensionsAreNormalisedAndNonsenseIsRefused) {
  EXPECT_EQ(normalize_extension(" .MD ").value(), "md");
  EXPECT_EQ(normalize_extension("..ts").value(), "ts");
  EXPECT_FALSE(normalize_extension(""));
  EXPECT_FALSE(normalize_extension("."));
  EXPECT_NE(normalize_extension("tar.gz").err().message.find("use 'gz'"), std::string::npos);
  EXPECT_NE(normalize_extension("*.md").err().message.find("wildcards"), std::string::npos);
  EXPECT_NE(normalize_extension("a/md").err().message.find("path separator"), std::string::npos);
  EXPECT_EQ(extension_of("a/b/c.Tar.GZ"), "gz");
  EXPECT_EQ(extension_of(".bashrc"), "");
}

TEST(AccessRules, AllowPatternsForReservedPlacesAreRecognised) {
  EXPECT_TRUE(names_reserved_place(glob(".minds/**")));
  EXPECT_TRUE(names_reserved_place(glob(".dialogs")));
  EXPECT_TRUE(names_reserved_place(glob("tasks/plan.tsk")));
  EXPECT_FALSE(names_reserved_place(glob("docs/**")));
  EXPECT_FALSE(names_reserved_place(glob("sub/.minds")));
}

}  // namespace
}  // namespace parley::access

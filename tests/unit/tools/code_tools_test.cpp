// The code-sized file tools: read_file by line range, replace_lines, insert_at_anchor, edit_file's
// occurrence, apply_patch, move_path, remove_path, make_dir and search_files (ripgrep) — each
// happy path and each refusal, and that a refusal leaves the disk as it was.
#include <boost/json/serialize.hpp>

#include <gtest/gtest.h>

#include "parley/access/access_rules.hpp"
#include "workspace_fixture.hpp"

namespace parley::tools {
namespace {

namespace fs = std::filesystem;

using CodeTools = testing::workspace_fixture;

std::string numbered(int count) {
  std::string text;
  for (int i = 1; i <= count; ++i) text += "line " + std::to_string(i) + "\n";
  return text;
}

TEST_F(CodeTools, ReadFileByLineRange) {
  put("a.txt", numbered(10));
  const auto out = call("read_file", R"({"path": "a.txt", "start_line": 3, "end_line": 5})");
  EXPECT_TRUE(out.ok) << out.content;
  EXPECT_EQ(out.content, "'a.txt' lines 3-5 of 10:\nline 3\nline 4\nline 5\n");
  EXPECT_EQ(call("read_file", R"({"path": "a.txt", "start_line": 9})").content,
            "'a.txt' lines 9-10 of 10:\nline 9\nline 10\n");
  const auto past = call("read_file", R"({"path": "a.txt", "start_line": 11})");
  EXPECT_FALSE(past.ok);
  EXPECT_EQ(past.content, "start_line 11 is past the end of 'a.txt', which has 10 lines");
  EXPECT_EQ(call("read_file", R"({"path": "a.txt", "start_line": 5, "end_line": 4})").content,
            "end_line 4 is before start_line 5");
  EXPECT_FALSE(call("read_file", R"({"path": "a.txt", "start_line": 0})").ok);  // the schema's minimum
}

TEST_F(CodeTools, ReadFileByLineRangeCutsAtMaxBytesOnALine) {
  put("a.txt", numbered(10));
  const auto out = call("read_file", R"({"path": "a.txt", "start_line": 1, "max_bytes": 14})");
  EXPECT_TRUE(out.ok);
  EXPECT_EQ(out.content,
            "'a.txt' lines 1-2 of 10:\nline 1\nline 2\n[cut at max_bytes: lines 3-10 not shown; read them with "
            "start_line 3]");
}

TEST_F(CodeTools, ReplaceLinesReplacesInsertsDeletesAndAppends) {
  put("a.txt", numbered(4));
  auto out = call("replace_lines", R"({"path": "a.txt", "start_line": 2, "end_line": 3, "new_text": "two and three"})");
  EXPECT_TRUE(out.ok) << out.content;
  EXPECT_EQ(out.content, "replaced lines 2-3 (2 lines) with 1 line of 'a.txt' (28 -> 28 bytes)");
  EXPECT_EQ(contents("a.txt"), "line 1\ntwo and three\nline 4\n");
  EXPECT_TRUE(call("replace_lines", R"({"path": "a.txt", "start_line": 1, "end_line": 0, "new_text": "top\n"})").ok);
  EXPECT_EQ(contents("a.txt"), "top\nline 1\ntwo and three\nline 4\n");
  EXPECT_TRUE(call("replace_lines", R"({"path": "a.txt", "start_line": 2, "end_line": 2, "new_text": ""})").ok);
  EXPECT_EQ(contents("a.txt"), "top\ntwo and three\nline 4\n");
  EXPECT_TRUE(call("replace_lines", R"({"path": "a.txt", "start_line": 4, "end_line": 3, "new_text": "end"})").ok);
  EXPECT_EQ(contents("a.txt"), "top\ntwo and three\nline 4\nend\n");
}

TEST_F(CodeTools, ReplaceLinesRefusesRangesOutsideTheFile) {
  put("a.txt", numbered(3));
  EXPECT_EQ(call("replace_lines", R"({"path": "a.txt", "start_line": 5, "end_line": 5, "new_text": "x"})").content,
            "start_line 5 is past the end of 'a.txt', which has 3 lines (use 4 to append)");
  EXPECT_EQ(call("replace_lines", R"({"path": "a.txt", "start_line": 2, "end_line": 9, "new_text": "x"})").content,
            "end_line 9 is past the end of 'a.txt', which has 3 lines");
  EXPECT_EQ(call("replace_lines", R"({"path": "a.txt", "start_line": 3, "end_line": 1, "new_text": "x"})").content,
            "end_line 1 is before start_line 3 (end_line = start_line - 1 inserts without replacing)");
  EXPECT_EQ(contents("a.txt"), numbered(3));
}

TEST_F(CodeTools, ReplaceLinesKeepsAMissingFinalNewline) {
  put("a.txt", "one\ntwo");
  EXPECT_TRUE(call("replace_lines", R"({"path": "a.txt", "start_line": 2, "end_line": 2, "new_text": "TWO"})").ok);
  EXPECT_EQ(contents("a.txt"), "one\nTWO");
}

TEST_F(CodeTools, InsertAtAnchorNeedsOneMatchingLineOrAnOccurrence) {
  put("a.cpp", "int a;\nint b;\nvoid f();\n");
  auto out =
      call("insert_at_anchor", R"({"path": "a.cpp", "anchor": "void f", "text": "void g();", "position": "before"})");
  EXPECT_TRUE(out.ok) << out.content;
  EXPECT_EQ(out.content, "inserted 1 line before line 3 of 'a.cpp' (24 -> 34 bytes)");
  EXPECT_EQ(contents("a.cpp"), "int a;\nint b;\nvoid g();\nvoid f();\n");
  const auto twice = call("insert_at_anchor", R"({"path": "a.cpp", "anchor": "int ", "text": "x"})");
  EXPECT_FALSE(twice.ok);
  EXPECT_EQ(twice.content,
            "anchor matches 2 lines of 'a.cpp' (lines 1, 2); give a longer anchor that matches one line, or occurrence "
            "to choose one");
  EXPECT_TRUE(call("insert_at_anchor", R"({"path": "a.cpp", "anchor": "int ", "text": "int c;", "occurrence": 2})").ok);
  EXPECT_EQ(contents("a.cpp"), "int a;\nint b;\nint c;\nvoid g();\nvoid f();\n");
  EXPECT_EQ(call("insert_at_anchor", R"({"path": "a.cpp", "anchor": "nope", "text": "x"})").content,
            "anchor was not found in 'a.cpp'; copy it exactly from the file");
  EXPECT_EQ(call("insert_at_anchor", R"({"path": "a.cpp", "anchor": "int ", "text": "x", "occurrence": 7})").content,
            "occurrence 7 asked, but anchor matches only 3 lines of 'a.cpp'");
  EXPECT_FALSE(call("insert_at_anchor", R"({"path": "a.cpp", "anchor": "int", "text": "x", "position": "inside"})").ok);
  EXPECT_EQ(contents("a.cpp"), "int a;\nint b;\nint c;\nvoid g();\nvoid f();\n");
}

TEST_F(CodeTools, EditFileReplacesTheChosenOccurrence) {
  put("a.txt", "x=1; x=1; x=1;");
  auto out = call("edit_file", R"({"path": "a.txt", "old_text": "x=1", "new_text": "x=2", "occurrence": 2})");
  EXPECT_TRUE(out.ok) << out.content;
  EXPECT_EQ(contents("a.txt"), "x=1; x=2; x=1;");
  EXPECT_EQ(call("edit_file", R"({"path": "a.txt", "old_text": "x=1", "new_text": "y", "occurrence": 3})").content,
            "occurrence 3 asked, but old_text occurs 2 times in 'a.txt'");
}

constexpr const char* kPatch = R"(--- a/src/a.txt
+++ b/src/a.txt
@@ -2,3 +2,3 @@
 line 2
-line 3
+LINE THREE
 line 4
@@ -8,2 +8,3 @@
 line 8
+line 8.5
 line 9
)";

TEST_F(CodeTools, ApplyPatchAppliesEveryHunk) {
  put("src/a.txt", numbered(10));
  boost::json::object args{{"patch", kPatch}};
  const auto out = call("apply_patch", boost::json::serialize(args));
  EXPECT_TRUE(out.ok) << out.content;
  EXPECT_EQ(out.content, "applied 2 hunks: patched 'src/a.txt'");
  EXPECT_EQ(contents("src/a.txt"),
            "line 1\nline 2\nLINE THREE\nline 4\nline 5\nline 6\nline 7\nline 8\nline 8.5\nline 9\nline 10\n");
}

TEST_F(CodeTools, ApplyPatchFindsAHunkThatMovedAndCreatesAndRemovesFiles) {
  put("src/a.txt", "new top\n" + numbered(10));
  put("old.txt", "bye\n");
  const std::string patch = std::string(kPatch) +
                            "--- /dev/null\n+++ b/docs/new.md\n@@ -0,0 +1,2 @@\n+hello\n+world\n"
                            "--- a/old.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-bye\n";
  const auto out = call("apply_patch", boost::json::serialize(boost::json::object{{"patch", patch}}));
  EXPECT_TRUE(out.ok) << out.content;
  EXPECT_EQ(out.content,
            "applied 4 hunks: created 'docs/new.md', patched 'src/a.txt', removed 'old.txt' (2 hunk(s) matched away "
            "from the line their header named)");
  EXPECT_EQ(contents("docs/new.md"), "hello\nworld\n");
  EXPECT_FALSE(fs::exists(workspace_ / "old.txt"));
  EXPECT_EQ(contents("src/a.txt").substr(0, 35), "new top\nline 1\nline 2\nLINE THREE\nli");
}

TEST_F(CodeTools, ApplyPatchIsAllOrNothingAndSaysWhyAHunkWasRejected) {
  std::string changed = numbered(10);
  changed.replace(changed.find("line 8\n"), 7, "eight\n");
  put("src/a.txt", changed);
  put("b.txt", "keep\n");
  const std::string patch = "--- a/b.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-keep\n+changed\n" + std::string(kPatch);
  const auto out = call("apply_patch", boost::json::serialize(boost::json::object{{"patch", patch}}));
  EXPECT_FALSE(out.ok);
  EXPECT_EQ(out.content,
            "patch not applied (nothing was changed):\n- hunk 2 of 'src/a.txt' (@@ -8,2 +8,3 @@) was rejected: line 8 "
            "of the file is 'eight' where the hunk expects 'line 8', and its lines match nowhere else after the "
            "previous hunk");
  EXPECT_EQ(contents("b.txt"), "keep\n");
  EXPECT_EQ(contents("src/a.txt"), changed);
}

TEST_F(CodeTools, ApplyPatchRefusesMalformedPatchesAndForbiddenPaths) {
  put("a.txt", "a\n");
  auto apply = [&](const std::string& patch) {
    return call("apply_patch", boost::json::serialize(boost::json::object{{"patch", patch}}));
  };
  EXPECT_EQ(apply("hello").content,
            "patch not applied (nothing was changed): no file in the patch: expected '--- a/<path>' then '+++ "
            "b/<path>' and hunks");
  EXPECT_EQ(apply("--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n").content,
            "patch not applied (nothing was changed): patch line 4: the patch ends inside hunk @@ -1 +1 @@ (expected "
            "1 old and 1 new lines)");
  EXPECT_EQ(apply("--- a/a.txt\n+++ b/a.txt\n@@ one @@\n-a\n").content,
            "patch not applied (nothing was changed): patch line 3: expected a hunk header like '@@ -12,3 +12,4 @@', "
            "found '@@ one @@'");
  const auto minds = apply("--- /dev/null\n+++ b/.minds/team.yaml\n@@ -0,0 +1 @@\n+x\n");
  EXPECT_FALSE(minds.ok);
  EXPECT_NE(minds.content.find("'.minds/team.yaml' is not writable for you"), std::string::npos) << minds.content;
  const auto outside = apply("--- a/../x.txt\n+++ b/../x.txt\n@@ -1 +1 @@\n-a\n+b\n");
  EXPECT_FALSE(outside.ok);
  EXPECT_NE(outside.content.find("'../x.txt'"), std::string::npos) << outside.content;
  const auto exists = apply("--- /dev/null\n+++ b/a.txt\n@@ -0,0 +1 @@\n+x\n");
  EXPECT_EQ(exists.content,
            "patch not applied (nothing was changed):\n- 'a.txt' already exists; a patch creates only new files");
  EXPECT_EQ(contents("a.txt"), "a\n");
  EXPECT_FALSE(fs::exists(workspace_ / ".minds"));
}

TEST_F(CodeTools, MoveRemoveAndMakeDir) {
  put("src/a.txt", "a");
  EXPECT_EQ(call("make_dir", R"({"path": "build/out"})").content, "created the folder 'build/out'");
  EXPECT_TRUE(fs::is_directory(workspace_ / "build/out"));
  EXPECT_EQ(call("move_path", R"({"from": "src/a.txt", "to": "lib/b.txt"})").content,
            "moved 'src/a.txt' to 'lib/b.txt'");
  EXPECT_EQ(contents("lib/b.txt"), "a");
  put("lib/c.txt", "c");
  EXPECT_EQ(call("move_path", R"({"from": "lib/c.txt", "to": "lib/b.txt"})").content,
            "'lib/b.txt' already exists; pass overwrite: true to replace it");
  EXPECT_TRUE(call("move_path", R"({"from": "lib/c.txt", "to": "lib/b.txt", "overwrite": true})").ok);
  EXPECT_EQ(contents("lib/b.txt"), "c");
  EXPECT_EQ(call("remove_path", R"({"path": "lib"})").content,
            "'lib' is a folder that is not empty; pass recursive: true to remove it with all it holds");
  EXPECT_EQ(call("remove_path", R"({"path": "lib", "recursive": true})").content, "removed 'lib' (2 entries)");
  EXPECT_FALSE(fs::exists(workspace_ / "lib"));
  EXPECT_EQ(call("remove_path", R"({"path": "lib"})").content, "'lib' does not exist");
  EXPECT_EQ(call("move_path", R"({"from": "build", "to": "build/out/x"})").content, "cannot move a folder into itself");
}

TEST_F(CodeTools, MoveAndRemoveRefuseReservedAndProtectedPlaces) {
  put("docs/a.md", "a");
  put(".minds/team.yaml", "t");
  fs::create_directories(workspace_ / "data/store");
  std::vector<protected_dir> protected_dirs{{fs::canonical(workspace_ / "data"), "Parley's data directory"}};
  ctx_.protected_dirs = &protected_dirs;
  EXPECT_FALSE(call("remove_path", R"({"path": ".minds", "recursive": true})").ok);
  EXPECT_FALSE(call("move_path", R"({"from": "docs/a.md", "to": ".minds/a.md"})").ok);
  EXPECT_FALSE(call("move_path", R"({"from": "docs/a.md", "to": "x.tsk/a.md"})").ok);
  EXPECT_FALSE(call("make_dir", R"({"path": "data/more"})").ok);
  EXPECT_FALSE(call("remove_path", R"({"path": "data", "recursive": true})").ok);
  put("outer/inner.txt", "x");
  fs::create_directories(workspace_ / "outer/data");
  EXPECT_TRUE(fs::exists(workspace_ / ".minds/team.yaml"));
  EXPECT_TRUE(fs::exists(workspace_ / "data/store"));
  EXPECT_EQ(contents("docs/a.md"), "a");
}

TEST_F(CodeTools, RemoveRefusesAFolderHoldingWhatTheRulesProtect) {
  put("out/keep/a.txt", "a");
  put("out/b.txt", "b");
  access::access_rules rules;
  rules.write.deny_dirs.push_back(*access::dir_glob::parse("out/keep"));
  ctx_.access = &rules;
  const auto out = call("remove_path", R"({"path": "out", "recursive": true})");
  EXPECT_FALSE(out.ok);
  EXPECT_EQ(out.content.substr(0, 48), "'out' contains 'out/keep', which is not writable");
  EXPECT_TRUE(fs::exists(workspace_ / "out/b.txt"));
}

TEST_F(CodeTools, SearchFilesFindsMatchesWithContextAndLimits) {
  put("src/a.cpp", "int main() {\n  return 0;\n}\n");
  put("src/b.hpp", "int helper();\n");
  put("notes.md", "main idea\n");
  auto out = call("search_files", R"({"pattern": "ma[i]n", "glob": ["*.cpp"]})");
  EXPECT_TRUE(out.ok) << out.content;
  EXPECT_EQ(out.content, "src/a.cpp:1:int main() {\n");
  out = call("search_files", R"({"pattern": "return", "path": "src", "context_lines": 1})");
  EXPECT_EQ(out.content, "src/a.cpp-1-int main() {\nsrc/a.cpp:2:  return 0;\nsrc/a.cpp-3-}\n");
  out = call("search_files", R"({"pattern": "int", "max_results": 1})");
  EXPECT_EQ(out.content.substr(out.content.find('\n') + 1),
            "[1 more matching lines not shown; raise max_results or narrow the search]\n");
  EXPECT_EQ(call("search_files", R"({"pattern": "zebra"})").content, "no matches");
  EXPECT_EQ(call("search_files", R"({"pattern": "MAIN IDEA", "ignore_case": true})").content, "notes.md:1:main idea\n");
  EXPECT_EQ(call("search_files", R"x({"pattern": "main()", "fixed_strings": true})x").content,
            "src/a.cpp:1:int main() {\n");
}

TEST_F(CodeTools, SearchFilesReportsAnInvalidRegexAsAToolError) {
  put("a.txt", "x\n");
  const auto out = call("search_files", R"({"pattern": "(unclosed"})");
  EXPECT_FALSE(out.ok);
  EXPECT_NE(out.content.find("search_files: regex parse error"), std::string::npos) << out.content;
  EXPECT_FALSE(call("search_files", R"({"pattern": "x", "path": "../"})").ok);
  EXPECT_EQ(call("search_files", R"({"pattern": "x", "path": "nope"})").content, "'nope' does not exist");
}

TEST_F(CodeTools, SearchFilesNeverShowsWhatTheMemberMayNotRead) {
  put("docs/a.md", "secret word\n");
  put("secret/b.md", "secret word\n");
  put(".minds/team.yaml", "secret word\n");
  put("data/x.txt", "secret word\n");
  std::vector<protected_dir> protected_dirs{{fs::canonical(workspace_ / "data"), "Parley's data directory"}};
  ctx_.protected_dirs = &protected_dirs;
  access::access_rules rules;
  rules.read.deny_dirs.push_back(*access::dir_glob::parse("secret"));
  ctx_.access = &rules;
  const auto out = call("search_files", R"({"pattern": "secret"})");
  EXPECT_TRUE(out.ok) << out.content;
  EXPECT_EQ(out.content, "docs/a.md:1:secret word\n[1 matches in files you may not read, not shown]\n");
  EXPECT_FALSE(call("search_files", R"({"pattern": "secret", "path": "secret"})").ok);
}

// A tool reads its arguments strictly even where no schema checked them first: a wrong-typed field
// is an error naming it, where it used to read as "" or 0 (an empty file written, line 0 ...).
TEST_F(CodeTools, AWrongTypedArgumentIsANamedErrorAndChangesNothing) {
  const auto content = call_unchecked("write_file", boost::json::object{{"path", "a.txt"}, {"content", 5}});
  EXPECT_FALSE(content.ok);
  EXPECT_EQ(content.content, "field 'content': expected a string, got an integer");
  EXPECT_FALSE(fs::exists(workspace_ / "a.txt"));
  put("b.txt", numbered(3));
  const auto line =
      call_unchecked("replace_lines",
                     boost::json::object{{"path", "b.txt"}, {"start_line", "2"}, {"end_line", 2}, {"new_text", "two"}});
  EXPECT_FALSE(line.ok);
  EXPECT_EQ(line.content, "field 'start_line': expected an integer, got a string");
  EXPECT_EQ(contents("b.txt"), numbered(3));
  const auto flag = call_unchecked("remove_path", boost::json::object{{"path", "b.txt"}, {"recursive", "yes"}});
  EXPECT_EQ(flag.content, "field 'recursive': expected a boolean, got a string");
  EXPECT_TRUE(fs::exists(workspace_ / "b.txt"));
}

}  // namespace
}  // namespace parley::tools

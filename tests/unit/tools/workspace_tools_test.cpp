// The workspace file tools inside a temporary workspace: happy paths and every refusal.
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/json/parse.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include <unistd.h>

#include "parley/tools/workspace_path.hpp"
#include "workspace_fixture.hpp"

namespace parley::tools {
namespace {

namespace fs = std::filesystem;

using WorkspaceTools = testing::workspace_fixture;

TEST_F(WorkspaceTools, RegistersToolsAndToolsets) {
  EXPECT_EQ(registry_.names(), (std::vector<std::string>{"apply_patch", "edit_file", "insert_at_anchor", "list_dir",
                                                         "make_dir", "move_path", "read_file", "remove_path",
                                                         "replace_lines", "search_files", "write_file"}));
  ASSERT_NE(registry_.toolset("workspace"), nullptr);
  EXPECT_EQ(
      *registry_.toolset("workspace"),
      (std::vector<std::string>{"list_dir", "read_file", "search_files", "write_file", "edit_file", "replace_lines",
                                "insert_at_anchor", "apply_patch", "move_path", "remove_path", "make_dir"}));
  ASSERT_NE(registry_.toolset("workspace_read"), nullptr);
  EXPECT_EQ(*registry_.toolset("workspace_read"), (std::vector<std::string>{"list_dir", "read_file", "search_files"}));
}

TEST_F(WorkspaceTools, ReadFileReturnsTheText) {
  put("notes.md", "sunny tomorrow\n");
  const auto out = call("read_file", R"({"path": "notes.md"})");
  EXPECT_TRUE(out.ok) << out.content;
  EXPECT_EQ(out.content, "sunny tomorrow\n");
}

TEST_F(WorkspaceTools, ReadFileTruncatesOnACharacterBoundary) {
  put("zh.txt", "你好世界");  // 12 bytes, 3 per character
  const auto out = call("read_file", R"({"path": "zh.txt", "max_bytes": 5})");
  EXPECT_TRUE(out.ok) << out.content;
  EXPECT_EQ(out.content, "你\n[truncated: showing the first 3 of 12 bytes; pass a larger max_bytes to read more]");
}

TEST_F(WorkspaceTools, ReadFileRefusesMissingDirectoriesAndBinaries) {
  fs::create_directories(workspace_ / "docs");
  put("blob.bin", std::string("a\0b", 3));
  EXPECT_EQ(call("read_file", R"({"path": "nope.md"})").content, "'nope.md' does not exist");
  EXPECT_EQ(call("read_file", R"({"path": "docs"})").content, "'docs' is a directory; use list_dir");
  EXPECT_EQ(call("read_file", R"({"path": "blob.bin"})").content,
            "'blob.bin' looks like a binary file (3 bytes); read_file returns text only");
  EXPECT_FALSE(call("read_file", R"({"path": "nope.md"})").ok);
}

TEST_F(WorkspaceTools, WriteFileCreatesFoldersAndReplacesAtomically) {
  const auto created = call("write_file", R"({"path": "a/b/c.txt", "content": "one"})");
  EXPECT_TRUE(created.ok) << created.content;
  EXPECT_EQ(created.content, "created 'a/b/c.txt' (3 bytes)");
  EXPECT_EQ(contents("a/b/c.txt"), "one");
  const auto replaced = call("write_file", R"({"path": "a/b/c.txt", "content": "second"})");
  EXPECT_TRUE(replaced.ok) << replaced.content;
  EXPECT_EQ(replaced.content, "wrote 'a/b/c.txt' (6 bytes)");
  EXPECT_EQ(contents("a/b/c.txt"), "second");
  // No temporary file is left behind.
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(workspace_ / "a" / "b")) names.push_back(entry.path().filename());
  EXPECT_EQ(names, (std::vector<std::string>{"c.txt"}));
}

TEST_F(WorkspaceTools, WriteFileRefusesDirectoriesAndTheRoot) {
  fs::create_directories(workspace_ / "docs");
  EXPECT_EQ(call("write_file", R"({"path": "docs", "content": "x"})").content, "'docs' is a directory");
  EXPECT_EQ(call("write_file", R"({"path": ".", "content": "x"})").content, "'.' is the workspace itself; name a file");
}

TEST_F(WorkspaceTools, EditFileReplacesExactlyOneOccurrence) {
  put("plan.md", "step one\nstep two\n");
  const auto out = call("edit_file", R"({"path": "plan.md", "old_text": "two", "new_text": "2"})");
  EXPECT_TRUE(out.ok) << out.content;
  EXPECT_EQ(out.content, "edited 'plan.md' (18 -> 16 bytes)");
  EXPECT_EQ(contents("plan.md"), "step one\nstep 2\n");
}

TEST_F(WorkspaceTools, EditFileRefusesZeroOrSeveralMatches) {
  put("plan.md", "step one\nstep two\n");
  const auto none = call("edit_file", R"({"path": "plan.md", "old_text": "three", "new_text": "3"})");
  EXPECT_FALSE(none.ok);
  EXPECT_EQ(none.content,
            "old_text was not found in 'plan.md'; read the file and copy the text exactly, including whitespace "
            "and line breaks");
  const auto twice = call("edit_file", R"({"path": "plan.md", "old_text": "step", "new_text": "Step"})");
  EXPECT_FALSE(twice.ok);
  EXPECT_EQ(twice.content,
            "old_text occurs 2 times in 'plan.md'; include more of the surrounding text so that it matches "
            "exactly once, or give occurrence");
  EXPECT_EQ(contents("plan.md"), "step one\nstep two\n");
  put("aaa.txt", "aaa");  // "aa" overlaps itself: ambiguous, so refused
  EXPECT_FALSE(call("edit_file", R"({"path": "aaa.txt", "old_text": "aa", "new_text": "b"})").ok);
  EXPECT_EQ(call("edit_file", R"({"path": "plan.md", "old_text": "", "new_text": "x"})").content,
            "old_text is empty; give the exact text to replace");
  EXPECT_EQ(call("edit_file", R"({"path": "missing.md", "old_text": "a", "new_text": "b"})").content,
            "'missing.md' does not exist; use write_file to create it");
}

TEST_F(WorkspaceTools, ListDirShowsEntriesAndMarksTaskdocPackages) {
  put("notes.md", "12345");
  fs::create_directories(workspace_ / "docs");
  fs::create_directories(workspace_ / "plan.tsk");
  put("plan.tsk/goals.md", "secret");
  const auto out = call("list_dir", "{}");
  EXPECT_TRUE(out.ok) << out.content;
  EXPECT_EQ(out.content, "docs/\nnotes.md  (5 bytes)\nplan.tsk/  (taskdoc package)\n");
  EXPECT_EQ(call("list_dir", R"({"path": "docs"})").content, "(empty directory)");
  EXPECT_EQ(call("list_dir", R"({"path": "plan.tsk"})").content,
            "'plan.tsk' is a Taskdoc package (*.tsk/); use change_mind");
  EXPECT_EQ(call("list_dir", R"({"path": "notes.md"})").content, "'notes.md' is not a directory; use read_file");
  EXPECT_EQ(call("list_dir", R"({"path": "gone"})").content, "'gone' does not exist");
}

TEST_F(WorkspaceTools, RefusesAbsolutePaths) {
  const auto out = call("read_file", R"({"path": "/etc/passwd"})");
  EXPECT_FALSE(out.ok);
  EXPECT_EQ(out.content, "'/etc/passwd' is an absolute path; paths are relative to the workspace");
}

TEST_F(WorkspaceTools, RefusesParentEscapes) {
  std::ofstream(root_ / "x") << "outside";
  EXPECT_EQ(call("read_file", R"({"path": "../x"})").content, "'../x' is outside the workspace");
  EXPECT_EQ(call("write_file", R"({"path": "a/../../x", "content": "pwned"})").content,
            "'a/../../x' is outside the workspace");
  put("a/inside.md", "ok");
  EXPECT_TRUE(call("read_file", R"({"path": "a/../a/inside.md"})").ok);
}

TEST_F(WorkspaceTools, RefusesSymlinksThatLeadOutside) {
  fs::create_directories(root_ / "outside");
  std::ofstream(root_ / "outside" / "secret.txt") << "secret";
  fs::create_directory_symlink(root_ / "outside", workspace_ / "link");
  fs::create_symlink(root_ / "outside" / "secret.txt", workspace_ / "secret-link");
  fs::create_symlink(root_ / "outside" / "new.txt", workspace_ / "dangling");
  EXPECT_EQ(call("read_file", R"({"path": "link/secret.txt"})").content,
            "'link/secret.txt' resolves outside the workspace (through a symbolic link)");
  EXPECT_EQ(call("read_file", R"({"path": "secret-link"})").content,
            "'secret-link' resolves outside the workspace (through a symbolic link)");
  EXPECT_EQ(call("write_file", R"({"path": "link/new.txt", "content": "x"})").content,
            "'link/new.txt' resolves outside the workspace (through a symbolic link)");
  EXPECT_EQ(call("write_file", R"({"path": "dangling", "content": "x"})").content,
            "'dangling' goes through a symbolic link whose target does not exist");
  EXPECT_FALSE(fs::exists(root_ / "outside" / "new.txt"));
  EXPECT_EQ(call("list_dir", R"({"path": "link"})").content,
            "'link' resolves outside the workspace (through a symbolic link)");
}

TEST_F(WorkspaceTools, FollowsSymlinksThatStayInside) {
  put("real/data.txt", "inside");
  fs::create_directory_symlink(workspace_ / "real", workspace_ / "alias");
  const auto out = call("read_file", R"({"path": "alias/data.txt"})");
  EXPECT_TRUE(out.ok) << out.content;
  EXPECT_EQ(out.content, "inside");
}

TEST_F(WorkspaceTools, RefusesPathsInsideTaskdocPackages) {
  put("notes.tsk/goals.md", "goals");
  EXPECT_EQ(call("read_file", R"({"path": "notes.tsk/goals.md"})").content,
            "'notes.tsk/goals.md' is inside a Taskdoc package (*.tsk/); use change_mind");
  EXPECT_EQ(call("write_file", R"({"path": "notes.tsk/new.md", "content": "x"})").content,
            "'notes.tsk/new.md' is inside a Taskdoc package (*.tsk/); use change_mind");
  EXPECT_EQ(call("edit_file", R"({"path": "Notes.TSK/goals.md", "old_text": "g", "new_text": "h"})").content,
            "'Notes.TSK/goals.md' is inside a Taskdoc package (*.tsk/); use change_mind");
  // Reaching a package through a symbolic link is refused as well.
  fs::create_directory_symlink(workspace_ / "notes.tsk", workspace_ / "sneaky");
  EXPECT_EQ(call("read_file", R"({"path": "sneaky/goals.md"})").content,
            "'sneaky/goals.md' is inside a Taskdoc package (*.tsk/); use change_mind");
  EXPECT_EQ(contents("notes.tsk/goals.md"), "goals");
}

TEST_F(WorkspaceTools, ArgumentsAreCheckedAgainstTheSchema) {
  EXPECT_EQ(call("read_file", R"({"pth": "notes.md"})").content,
            "invalid arguments: arguments: unknown property 'pth' (did you mean 'path'?)");
  EXPECT_EQ(call("read_file", R"({"path": "a", "max_bytes": 0})").content,
            "invalid arguments: arguments.max_bytes: 0 is less than the minimum 1");
}

TEST(WorkspacePath, ReportsAnUnusableWorkspace) {
  const auto resolved = resolve_workspace_path("/nonexistent/parley/workspace", "a.md");
  ASSERT_FALSE(resolved.has_value());
  EXPECT_EQ(resolved.err().code, errc::io_error);
  EXPECT_EQ(resolved.err().message.rfind("the workspace '/nonexistent/parley/workspace' is not usable: ", 0), 0U);
}

TEST(WorkspacePath, RecognisesTaskdocPackageNames) {
  EXPECT_TRUE(is_taskdoc_package_name("plan.tsk"));
  EXPECT_TRUE(is_taskdoc_package_name("PLAN.Tsk"));
  EXPECT_FALSE(is_taskdoc_package_name("plan.tskx"));
  EXPECT_FALSE(is_taskdoc_package_name("tsk"));
}

}  // namespace
}  // namespace parley::tools

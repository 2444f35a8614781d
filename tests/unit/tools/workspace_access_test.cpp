// The file tools under a member's access rules and with protected folders: every tool checks the
// right direction, list_dir hides what cannot be read, links neither launder nor leak, and a
// refused write leaves the disk as it was.
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include <unistd.h>

#include "access_globs.hpp"
#include "workspace_fixture.hpp"

namespace parley::tools {
namespace {

namespace fs = std::filesystem;

using testing::globs;

class WorkspaceAccess : public testing::workspace_fixture {
 protected:
  void SetUp() override {
    workspace_fixture::SetUp();
    ctx_.access = &rules_;
    ctx_.protected_dirs = &protected_;
  }
  static bool has(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

  access::access_rules rules_;
  std::vector<protected_dir> protected_;
};

TEST_F(WorkspaceAccess, AWriteOutsideWriteDirsIsRefusedAndWritesNothing) {
  rules_.write.allow_dirs = globs({"docs/**"});
  auto out = call("write_file", R"({"path": "src/main.cpp", "content": "x"})");
  EXPECT_FALSE(out.ok);
  EXPECT_EQ(out.content, "'src/main.cpp' is not writable for you: it is outside write_dirs ('docs/**')");
  EXPECT_FALSE(fs::exists(workspace_ / "src"));  // not even the folder
  out = call("write_file", R"({"path": "docs/guide.md", "content": "ok"})");
  EXPECT_TRUE(out.ok) << out.content;
  EXPECT_EQ(contents("docs/guide.md"), "ok");
  put("src/main.cpp", "int main() {}");
  out = call("edit_file", R"({"path": "src/main.cpp", "old_text": "main", "new_text": "x"})");
  EXPECT_FALSE(out.ok);
  EXPECT_TRUE(has(out.content, "not writable for you")) << out.content;
  EXPECT_EQ(contents("src/main.cpp"), "int main() {}");
  EXPECT_TRUE(call("read_file", R"({"path": "src/main.cpp"})").ok);  // reads are not confined
}

TEST_F(WorkspaceAccess, ReadsAreJudgedByTheReadRulesDenyFirst) {
  rules_.read.allow_dirs = globs({"src"});
  rules_.read.deny_dirs = globs({"src/secrets"});
  put("src/a.cpp", "a");
  put("src/secrets/key.pem", "k");
  put("notes.md", "n");
  EXPECT_TRUE(call("read_file", R"({"path": "src/a.cpp"})").ok);
  auto out = call("read_file", R"({"path": "src/secrets/key.pem"})");
  EXPECT_FALSE(out.ok);
  EXPECT_EQ(out.content, "'src/secrets/key.pem' is not readable for you: it is inside no_read_dirs 'src/secrets'");
  out = call("read_file", R"({"path": "notes.md"})");
  EXPECT_FALSE(out.ok);
  EXPECT_TRUE(has(out.content, "outside read_dirs ('src')")) << out.content;
  out = call("list_dir", R"({"path": "src/secrets"})");
  EXPECT_FALSE(out.ok);
  EXPECT_TRUE(has(out.content, "no_read_dirs")) << out.content;
}

TEST_F(WorkspaceAccess, ExtensionRulesApplyToEveryTool) {
  rules_.read.deny_exts = {"env"};
  rules_.write.allow_exts = {"md"};
  put("prod.env", "SECRET=1");
  put("a.md", "alpha");
  EXPECT_FALSE(call("read_file", R"({"path": "prod.env"})").ok);
  EXPECT_FALSE(call("write_file", R"({"path": "run.py", "content": "x"})").ok);
  EXPECT_FALSE(fs::exists(workspace_ / "run.py"));
  EXPECT_TRUE(call("write_file", R"({"path": "b.md", "content": "x"})").ok);
  EXPECT_TRUE(call("edit_file", R"({"path": "a.md", "old_text": "alpha", "new_text": "beta"})").ok);
  const auto listed = call("list_dir", "{}");
  EXPECT_TRUE(listed.ok);
  EXPECT_FALSE(has(listed.content, "prod.env")) << listed.content;
  EXPECT_TRUE(has(listed.content, "(1 entries hidden: not readable for you)")) << listed.content;
}

TEST_F(WorkspaceAccess, AnEditMustBeAllowedToReadTheFileToo) {
  rules_.read.deny_dirs = globs({"private"});
  put("private/plan.md", "the plan");
  const auto out = call("edit_file", R"({"path": "private/plan.md", "old_text": "plan", "new_text": "x"})");
  EXPECT_FALSE(out.ok);
  EXPECT_TRUE(has(out.content, "is not readable for you")) << out.content;
  EXPECT_EQ(contents("private/plan.md"), "the plan");
}

TEST_F(WorkspaceAccess, ListDirShowsTheWayToAReadScopeAndNothingElse) {
  rules_.read.allow_dirs = globs({"project/docs/**"});
  put("project/docs/a.md", "a");
  put("project/src/b.cpp", "b");
  put("top.txt", "t");
  auto out = call("list_dir", R"({"path": "."})");
  ASSERT_TRUE(out.ok) << out.content;
  EXPECT_EQ(out.content, "project/\n(1 entries hidden: not readable for you)\n");
  out = call("list_dir", R"({"path": "project"})");
  ASSERT_TRUE(out.ok) << out.content;
  EXPECT_EQ(out.content, "docs/\n(1 entries hidden: not readable for you)\n");
  out = call("list_dir", R"({"path": "project/docs"})");
  EXPECT_EQ(out.content, "a.md  (1 bytes)\n");
  out = call("list_dir", R"({"path": "project/src"})");
  EXPECT_FALSE(out.ok);
  EXPECT_TRUE(has(out.content, "outside read_dirs")) << out.content;
  EXPECT_FALSE(call("read_file", R"({"path": "top.txt"})").ok);
}

TEST_F(WorkspaceAccess, ReservedPlacesAreRefusedAndHidden) {
  put(".minds/team.yaml", "members: {}");
  put(".dialogs/run/x.yaml", "x");
  put("plan.tsk/goals.md", "g");
  for (const auto* call_text :
       {R"({"path": ".minds/team.yaml"})", R"({"path": ".dialogs/run/x.yaml"})", R"({"path": "plan.tsk/goals.md"})"}) {
    EXPECT_FALSE(call("read_file", call_text).ok) << call_text;
  }
  const auto out = call("write_file", R"({"path": ".minds/team.yaml", "content": "x"})");
  EXPECT_FALSE(out.ok);
  EXPECT_TRUE(has(out.content, ".minds/ holds the team's configuration")) << out.content;
  EXPECT_EQ(contents(".minds/team.yaml"), "members: {}");
  EXPECT_FALSE(call("list_dir", R"({"path": ".minds"})").ok);
  const auto listed = call("list_dir", "{}");
  EXPECT_EQ(listed.content, "plan.tsk/  (taskdoc package)\n(2 entries hidden: not readable for you)\n");
}

TEST_F(WorkspaceAccess, AMembersOwnMemoryFolderIsTheOnePlaceOpenUnderMinds) {
  ctx_.member_id = "lead";
  rules_.write.allow_dirs = globs({"docs/**"});
  auto out = call("write_file", R"({"path": ".minds/memory/individual/lead/lesson.md", "content": "short"})");
  EXPECT_TRUE(out.ok) << out.content;
  EXPECT_TRUE(call("read_file", R"({"path": ".minds/memory/individual/lead/lesson.md"})").ok);
  EXPECT_TRUE(call("list_dir", R"({"path": ".minds/memory/individual/lead"})").ok);
  out = call("write_file", R"({"path": ".minds/memory/individual/clerk/lesson.md", "content": "x"})");
  EXPECT_FALSE(out.ok);
  EXPECT_TRUE(has(out.content, "(your own memory folder, .minds/memory/individual/lead/, excepted)")) << out.content;
  EXPECT_FALSE(fs::exists(workspace_ / ".minds/memory/individual/clerk"));
  EXPECT_FALSE(call("write_file", R"({"path": ".minds/memory/team_shared/x.md", "content": "x"})").ok);
  EXPECT_FALSE(call("write_file", R"({"path": ".minds/team.yaml", "content": "x"})").ok);
  // A link in the memory folder is judged by where it leads.
  put("src/main.cpp", "int main() {}");
  fs::create_symlink(workspace_ / "src" / "main.cpp", workspace_ / ".minds/memory/individual/lead/code.md");
  out = call("write_file", R"({"path": ".minds/memory/individual/lead/code.md", "content": "x"})");
  EXPECT_FALSE(out.ok);
  EXPECT_TRUE(has(out.content, "outside write_dirs")) << out.content;
  EXPECT_EQ(contents("src/main.cpp"), "int main() {}");
}

TEST_F(WorkspaceAccess, ALinkCannotLaunderADeniedFolder) {
  rules_.read.deny_dirs = globs({"secrets"});
  rules_.write.deny_dirs = globs({"secrets"});
  put("secrets/key.pem", "k");
  fs::create_directories(workspace_ / "docs");
  fs::create_directory_symlink(workspace_ / "secrets", workspace_ / "docs" / "innocent");
  auto out = call("read_file", R"({"path": "docs/innocent/key.pem"})");
  EXPECT_FALSE(out.ok);
  EXPECT_EQ(out.content,
            "'docs/innocent/key.pem' is not readable for you: it leads through a symbolic link to "
            "'secrets/key.pem', and it is inside no_read_dirs 'secrets'");
  out = call("write_file", R"({"path": "docs/innocent/new.txt", "content": "x"})");
  EXPECT_FALSE(out.ok);
  EXPECT_FALSE(fs::exists(workspace_ / "secrets" / "new.txt"));
  EXPECT_FALSE(call("list_dir", R"({"path": "docs/innocent"})").ok);
  const auto listed = call("list_dir", R"({"path": "docs"})");
  EXPECT_TRUE(listed.ok);
  EXPECT_FALSE(has(listed.content, "innocent")) << listed.content;
}

TEST_F(WorkspaceAccess, ADeniedPathStaysDeniedThroughALinkToAnAllowedOne) {
  rules_.write.deny_dirs = globs({"locked"});
  put("open/file.md", "o");
  fs::create_directories(workspace_ / "locked");
  fs::create_symlink(workspace_ / "open" / "file.md", workspace_ / "locked" / "door.md");
  const auto out = call("write_file", R"({"path": "locked/door.md", "content": "x"})");
  EXPECT_FALSE(out.ok);
  EXPECT_TRUE(has(out.content, "inside no_write_dirs 'locked'")) << out.content;
  EXPECT_EQ(contents("open/file.md"), "o");
}

TEST_F(WorkspaceAccess, ProtectedFoldersAreRefusedWhereverTheyAre) {
  put(".parley/parley.db", "the store");
  protected_.push_back({fs::weakly_canonical(workspace_ / ".parley"), "Parley's data directory"});
  auto out = call("write_file", R"({"path": ".parley/parley.db", "content": "x"})");
  EXPECT_FALSE(out.ok);
  EXPECT_EQ(out.content, "'.parley/parley.db' is inside Parley's data directory (" +
                             fs::weakly_canonical(workspace_ / ".parley").string() + "), which file tools never touch");
  EXPECT_EQ(contents(".parley/parley.db"), "the store");
  EXPECT_FALSE(call("read_file", R"({"path": ".parley/parley.db"})").ok);
  EXPECT_FALSE(call("edit_file", R"({"path": ".parley/parley.db", "old_text": "store", "new_text": "x"})").ok);
  EXPECT_FALSE(call("list_dir", R"({"path": ".parley"})").ok);
  // Through a link, too; and list_dir does not show either way in.
  fs::create_directory_symlink(workspace_ / ".parley", workspace_ / "data");
  out = call("write_file", R"({"path": "data/parley.db", "content": "x"})");
  EXPECT_FALSE(out.ok);
  EXPECT_TRUE(has(out.content, "Parley's data directory")) << out.content;
  EXPECT_EQ(contents(".parley/parley.db"), "the store");
  const auto listed = call("list_dir", "{}");
  EXPECT_EQ(listed.content, "(2 entries hidden: not readable for you)\n");
}

}  // namespace
}  // namespace parley::tools

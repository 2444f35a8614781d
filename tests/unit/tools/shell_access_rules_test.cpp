// A member's access rules bind its shell tools as they bind its file tools (issue 46, item 5):
// inside the sandbox no_read_dirs are hidden, only read_dirs show, no_write_dirs are read-only and
// only write_dirs are writable — whatever path the command names (`../secrets`, an absolute one).
// Without a sandbox, or with rules no mount can express, a member with rules gets no shell at all.
// Each rule is tried through shell_cmd and, for reads, readonly_shell too.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iostream>

#include "access_globs.hpp"
#include "parley/access/access_rules.hpp"
#include "shell_fixture.hpp"
#include "support/text_contains.hpp"

namespace parley::tools {
namespace {

using parley::testing::contains;
using testing::why_bwrap_cannot_run;

using testing::globs;

std::string command_json(std::string_view command, std::string_view cwd = ".") {
  return R"({"command": ")" + std::string(command) + R"(", "cwd": ")" + std::string(cwd) + R"("})";
}

// What the command printed, after the "$ command" line (which repeats the paths it names).
std::string printed(const tool_outcome& out) {
  const auto status = out.content.find("\n[");
  return status == std::string::npos ? out.content : out.content.substr(status);
}

class ShellAccessRules : public testing::shell_fixture {
 protected:
  // True when this machine cannot run the sandbox; then the test checks that a sandboxed member
  // with rules is refused rather than run unconfined.
  bool no_sandbox_here(std::string_view tool_name, std::string_view command) {
    const std::string why = why_bwrap_cannot_run();
    if (why.empty()) return false;
    std::cout << "[sandbox] " << why << "\n";
    EXPECT_FALSE(call(tool_name, command_json(command)).ok);
    return true;
  }
};

TEST_F(ShellAccessRules, NoReadDirsAreHiddenFromBothShellTools) {
  put("secrets/key.txt", "the-secret-key");
  put("src/main.c", "int main;");
  rules_.read.deny_dirs = globs({"secrets"});
  policy_.sandbox = access::shell_sandbox::bubblewrap;
  if (no_sandbox_here("shell_cmd", "cat secrets/key.txt")) return;
  const std::string absolute = (std::filesystem::canonical(workspace_) / "secrets/key.txt").string();
  for (const char* tool : {"shell_cmd", "readonly_shell"}) {
    SCOPED_TRACE(tool);
    const auto relative = call(tool, command_json("cat main.c ../secrets/key.txt", "src"));
    EXPECT_FALSE(relative.ok) << relative.content;
    EXPECT_TRUE(contains(printed(relative), "int main;")) << relative.content;
    EXPECT_FALSE(contains(printed(relative), "the-secret-key")) << relative.content;
    const auto direct = call(tool, command_json("cat " + absolute + "; ls secrets"));
    EXPECT_FALSE(contains(printed(direct), "the-secret-key")) << direct.content;
    EXPECT_FALSE(contains(printed(direct), "key.txt\n")) << direct.content;
  }
}

TEST_F(ShellAccessRules, ReadDirsShowOnlyTheirFolders) {
  put("docs/a.md", "the-doc-text");
  put("notes.txt", "private-notes");
  rules_.read.allow_dirs = globs({"docs/**"});
  policy_.sandbox = access::shell_sandbox::bubblewrap;
  if (no_sandbox_here("readonly_shell", "cat docs/a.md")) return;
  for (const char* tool : {"shell_cmd", "readonly_shell"}) {
    SCOPED_TRACE(tool);
    const auto out = call(tool, command_json("cat a.md ../notes.txt", "docs"));
    EXPECT_FALSE(out.ok) << out.content;
    EXPECT_TRUE(contains(printed(out), "the-doc-text")) << out.content;
    EXPECT_FALSE(contains(printed(out), "private-notes")) << out.content;
  }
}

TEST_F(ShellAccessRules, NoWriteDirsAreReadOnly) {
  put("src/main.c", "int main;");
  rules_.write.deny_dirs = globs({"src"});
  policy_.sandbox = access::shell_sandbox::bubblewrap;
  if (no_sandbox_here("shell_cmd", "true")) return;
  const auto out = call("shell_cmd", command_json("echo pwn > src/pwn.c; echo fine > build.log"));
  EXPECT_TRUE(contains(printed(out), "Read-only file system")) << out.content;
  EXPECT_FALSE(std::filesystem::exists(workspace_ / "src/pwn.c"));
  EXPECT_TRUE(std::filesystem::exists(workspace_ / "build.log"));
  EXPECT_TRUE(contains(call("shell_cmd", command_json("cat src/main.c")).content, "int main;"));
}

TEST_F(ShellAccessRules, WriteDirsAreTheOnlyWritableFolders) {
  put("out/.keep", "");
  put("src/main.c", "int main;");
  rules_.write.allow_dirs = globs({"out"});
  policy_.sandbox = access::shell_sandbox::bubblewrap;
  if (no_sandbox_here("shell_cmd", "true")) return;
  const auto out = call("shell_cmd", command_json("echo built > out/r.txt; echo pwn > src/main.c; echo x > top.txt"));
  EXPECT_TRUE(contains(printed(out), "Read-only file system")) << out.content;
  EXPECT_TRUE(std::filesystem::exists(workspace_ / "out/r.txt"));
  EXPECT_FALSE(std::filesystem::exists(workspace_ / "top.txt"));
  std::ifstream in(workspace_ / "src/main.c");
  std::string text;
  std::getline(in, text);
  EXPECT_EQ(text, "int main;");
}

TEST_F(ShellAccessRules, WithoutTheSandboxAMemberWithRulesGetsNoShell) {
  put("secrets/key.txt", "the-secret-key");
  rules_.read.deny_dirs = globs({"secrets"});
  policy_.sandbox = access::shell_sandbox::none;
  for (const char* tool : {"shell_cmd", "readonly_shell", "start_process"}) {
    SCOPED_TRACE(tool);
    const bool inspects = std::string_view(tool) == "readonly_shell";
    const auto out = call(tool, command_json(inspects ? "cat secrets/key.txt" : "cat secrets/key.txt; touch ran.txt"));
    EXPECT_FALSE(out.ok);
    EXPECT_TRUE(contains(out.content, "no shell for you: this member has access rules")) << out.content;
    EXPECT_TRUE(contains(out.content, "sandbox: bubblewrap")) << out.content;
    EXPECT_FALSE(contains(out.content, "the-secret-key")) << out.content;
  }
  EXPECT_FALSE(std::filesystem::exists(workspace_ / "ran.txt"));
  // The control: a member without rules keeps its shell outside the sandbox.
  rules_ = access::access_rules{};
  EXPECT_TRUE(call("shell_cmd", command_json("touch ran.txt")).ok);
  EXPECT_TRUE(std::filesystem::exists(workspace_ / "ran.txt"));
}

TEST_F(ShellAccessRules, RulesNoMountCanExpressLeaveNoShell) {
  policy_.sandbox = access::shell_sandbox::bubblewrap;
  rules_.read.deny_exts = {"env"};
  const auto by_extension = call("shell_cmd", command_json("touch ran.txt"));
  EXPECT_FALSE(by_extension.ok);
  EXPECT_TRUE(contains(by_extension.content, "file extension rules cannot be applied to a shell"))
      << by_extension.content;
  rules_ = access::access_rules{};
  rules_.read.deny_dirs = globs({"**/secrets"});
  const auto by_pattern = call("shell_cmd", command_json("touch ran.txt"));
  EXPECT_FALSE(by_pattern.ok);
  EXPECT_TRUE(contains(by_pattern.content, "no_read_dirs pattern '**/secrets' has a wildcard")) << by_pattern.content;
  EXPECT_FALSE(std::filesystem::exists(workspace_ / "ran.txt"));
}

}  // namespace
}  // namespace parley::tools

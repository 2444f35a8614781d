// apply_patch given the Codex patch format, as GPT-5 and Codex models send it: each operation on
// real files of a temporary workspace, each refusal, and that a refusal leaves every file as it was.
#include <boost/json/serialize.hpp>

#include <gtest/gtest.h>

#include "workspace_fixture.hpp"

namespace parley::tools {
namespace {

namespace fs = std::filesystem;

class ApplyCodexPatch : public testing::workspace_fixture {
 protected:
  tool_outcome apply(const std::string& patch) {
    return call("apply_patch", boost::json::serialize(boost::json::object{{"patch", patch}}));
  }
};

constexpr const char* kInventory = R"(import json


def load_items(path):
    with open(path) as f:
        return json.load(f)


def total_price(items):
    total = 0
    for item in items:
        total += item["price"]
    return total


def total_weight(items):
    total = 0
    for item in items:
        total += item["weight"]
    return total
)";

// kInventory with `from` (which must be in it) replaced by `to` at its `nth` occurrence.
std::string inventory_with(const std::string& from, const std::string& to, int nth = 1) {
  std::string text = kInventory;
  std::size_t at = text.find(from);
  for (int i = 1; i < nth; ++i) at = text.find(from, at + 1);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

TEST_F(ApplyCodexPatch, AddFileCreatesTheFileAndItsFolders) {
  const auto out = apply(R"(*** Begin Patch
*** Add File: src/greet.py
+def greet(name):
+    return f"Hello, {name}!"
*** End Patch
)");
  EXPECT_TRUE(out.ok) << out.content;
  EXPECT_EQ(out.content, "applied the patch: created 'src/greet.py'");
  EXPECT_EQ(contents("src/greet.py"), "def greet(name):\n    return f\"Hello, {name}!\"\n");
}

TEST_F(ApplyCodexPatch, UpdateFileReplacesLinesBetweenTheirContext) {
  put("inventory.py", kInventory);
  const auto out = apply(R"(*** Begin Patch
*** Update File: inventory.py
     total = 0
     for item in items:
-        total += item["price"]
+        total += item["price"] * item.get("count", 1)
     return total
*** End Patch
)");
  EXPECT_TRUE(out.ok) << out.content;
  EXPECT_EQ(out.content, "applied 1 hunk: patched 'inventory.py'");
  EXPECT_EQ(contents("inventory.py"), inventory_with(R"(item["price"])", R"(item["price"] * item.get("count", 1))"));
}

TEST_F(ApplyCodexPatch, AnAnchorPicksTheSecondOfTwoIdenticalPassages) {
  put("inventory.py", kInventory);
  const auto out = apply(R"(*** Begin Patch
*** Update File: inventory.py
@@ def total_weight(items):
     total = 0
-    for item in items:
+    for item in items or []:
*** End Patch
)");
  EXPECT_TRUE(out.ok) << out.content;
  EXPECT_EQ(contents("inventory.py"), inventory_with("for item in items:", "for item in items or []:", 2));
}

TEST_F(ApplyCodexPatch, SeveralHunksInOneFileApplyInTheirOrder) {
  put("inventory.py", kInventory);
  const auto out = apply(R"(*** Begin Patch
*** Update File: inventory.py
@@
 import json
+import logging
@@ def load_items(path):
     with open(path) as f:
-        return json.load(f)
+        items = json.load(f)
+    logging.info("loaded %d items", len(items))
+    return items
@@ def total_weight(items):
-    return total
+    return round(total, 3)
*** End Patch
)");
  EXPECT_TRUE(out.ok) << out.content;
  EXPECT_EQ(out.content, "applied 3 hunks: patched 'inventory.py'");
  std::string expected = inventory_with("import json\n", "import json\nimport logging\n");
  expected.replace(
      expected.find("        return json.load(f)\n"), 28,
      "        items = json.load(f)\n    logging.info(\"loaded %d items\", len(items))\n    return items\n");
  expected.replace(expected.rfind("return total"), 12, "return round(total, 3)");
  EXPECT_EQ(contents("inventory.py"), expected);
}

TEST_F(ApplyCodexPatch, MoveToRenamesThePatchedFileAndKeepsItExecutable) {
  put("scripts/run.sh", "#!/bin/sh\necho old\n");
  fs::permissions(workspace_ / "scripts/run.sh", fs::perms::owner_exec, fs::perm_options::add);
  const auto out = apply(R"(*** Begin Patch
*** Update File: scripts/run.sh
*** Move to: bin/run.sh
@@
 #!/bin/sh
-echo old
+echo new
*** End Patch
)");
  EXPECT_TRUE(out.ok) << out.content;
  EXPECT_EQ(out.content, "applied 1 hunk: moved 'scripts/run.sh' to 'bin/run.sh'");
  EXPECT_FALSE(fs::exists(workspace_ / "scripts/run.sh"));
  EXPECT_EQ(contents("bin/run.sh"), "#!/bin/sh\necho new\n");
  EXPECT_NE(fs::status(workspace_ / "bin/run.sh").permissions() & fs::perms::owner_exec, fs::perms::none);
}

TEST_F(ApplyCodexPatch, DeleteFileRemovesIt) {
  put("notes/old.txt", "obsolete\n");
  const auto out = apply("*** Begin Patch\n*** Delete File: notes/old.txt\n*** End Patch\n");
  EXPECT_TRUE(out.ok) << out.content;
  EXPECT_EQ(out.content, "applied the patch: removed 'notes/old.txt'");
  EXPECT_FALSE(fs::exists(workspace_ / "notes/old.txt"));
}

TEST_F(ApplyCodexPatch, EndOfFileChangesTheLastLinesOnly) {
  put("main.py", "x = 1\nprint(x)\nx = 2\nprint(x)\n");
  const auto out = apply(
      "*** Begin Patch\n*** Update File: main.py\n-print(x)\n+print(x * 10)\n*** End of File\n"
      "*** End Patch\n");
  EXPECT_TRUE(out.ok) << out.content;
  EXPECT_EQ(contents("main.py"), "x = 1\nprint(x)\nx = 2\nprint(x * 10)\n");
}

TEST_F(ApplyCodexPatch, AHunkWithOtherWhitespaceMatchesLooselyAndTheAnswerSaysSo) {
  put("tabs.py", "def f():\n\treturn 1  \n");
  put("trailing.py", "x = 1   \ny = 2\n");
  const auto out = apply(
      "*** Begin Patch\n"
      "*** Update File: tabs.py\n"
      " def f():\n"
      "-    return 1\n"
      "+    return 2\n"
      "*** Update File: trailing.py\n"
      " x = 1\n"
      "-y = 2\n"
      "+y = 3\n"
      "*** End Patch\n");
  EXPECT_TRUE(out.ok) << out.content;
  EXPECT_EQ(out.content,
            "applied 2 hunks: patched 'tabs.py', patched 'trailing.py' (hunk 1 of 'tabs.py' matched only ignoring "
            "leading and trailing whitespace; hunk 1 of 'trailing.py' matched only ignoring trailing whitespace)");
  EXPECT_EQ(contents("tabs.py"), "def f():\n    return 2\n");
  EXPECT_EQ(contents("trailing.py"), "x = 1   \ny = 3\n");
}

constexpr const char* kWrongHunk = R"(*** Update File: inventory.py
@@ def total_price(items):
     total = 0
     for item in items:
-        total += item["cost"]
+        total += item["cost"] * 2
)";

TEST_F(ApplyCodexPatch, AHunkThatDoesNotApplyChangesNothingAndNamesTheHunkAndTheLine) {
  put("inventory.py", kInventory);
  const auto out = apply(std::string("*** Begin Patch\n") + kWrongHunk + "*** End Patch\n");
  EXPECT_FALSE(out.ok);
  EXPECT_EQ(out.content,
            "patch not applied (nothing was changed):\n- hunk 1 of 'inventory.py' (patch line 3, @@ def "
            "total_price(items):) was rejected: its old lines (context and removals) do not match from line 9 of the "
            "file on; the closest place starts at line 10, where line 12 of the file is '        total += "
            "item[\"price\"]' but the hunk expects '        total += item[\"cost\"]'");
  EXPECT_EQ(contents("inventory.py"), kInventory);
}

TEST_F(ApplyCodexPatch, WhenTheSecondFileFailsNeitherIsWritten) {
  put("inventory.py", kInventory);
  put("README.md", "# Inventory\n");
  const auto out =
      apply(std::string("*** Begin Patch\n*** Update File: README.md\n-# Inventory\n+# Inventory tools\n") +
            "*** Add File: CHANGES.md\n+- totals\n" + kWrongHunk + "*** End Patch\n");
  EXPECT_FALSE(out.ok);
  EXPECT_EQ(out.content,
            "patch not applied (nothing was changed):\n- hunk 1 of 'inventory.py' (patch line 8, @@ def "
            "total_price(items):) was rejected: its old lines (context and removals) do not match from line 9 of the "
            "file on; the closest place starts at line 10, where line 12 of the file is '        total += "
            "item[\"price\"]' but the hunk expects '        total += item[\"cost\"]'");
  EXPECT_EQ(contents("README.md"), "# Inventory\n");
  EXPECT_EQ(contents("inventory.py"), kInventory);
  EXPECT_FALSE(fs::exists(workspace_ / "CHANGES.md"));
}

TEST_F(ApplyCodexPatch, RefusesToAddAFileThatExistsToDeleteOneThatDoesNotAndToMoveOntoAFile) {
  put("inventory.py", kInventory);
  put("a.txt", "a\n");
  put("b.txt", "b\n");
  EXPECT_EQ(apply("*** Begin Patch\n*** Add File: inventory.py\n+print('hi')\n*** End Patch\n").content,
            "patch not applied (nothing was changed):\n- 'inventory.py' already exists; a patch creates only new "
            "files");
  EXPECT_EQ(apply("*** Begin Patch\n*** Delete File: gone.txt\n*** End Patch\n").content,
            "patch not applied (nothing was changed):\n- 'gone.txt' does not exist, so a patch cannot change or "
            "remove it");
  EXPECT_EQ(apply("*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n-a\n+A\n*** End Patch\n").content,
            "patch not applied (nothing was changed):\n- 'b.txt' already exists; a patch moves a file only to a new "
            "path");
  EXPECT_EQ(contents("inventory.py"), kInventory);
  EXPECT_EQ(contents("a.txt"), "a\n");
  EXPECT_EQ(contents("b.txt"), "b\n");
}

TEST_F(ApplyCodexPatch, AMalformedPatchIsRefusedNamingTheLine) {
  put("inventory.py", kInventory);
  EXPECT_EQ(apply("*** Begin Patch\n*** Update File: inventory.py\n-import json\n+import ujson as json\n").content,
            "patch not applied (nothing was changed): patch line 4: the patch ends without '*** End Patch'");
  EXPECT_EQ(apply("*** Begin Patch\n*** Update File: inventory.py\n@@ def total_price(items):\n     total = 0\n"
                  "for item in items:\n*** End Patch\n")
                .content,
            "patch not applied (nothing was changed): patch line 5: expected a line starting with ' ', '-', '+', '@@' "
            "or '*** ', got 'for item in items:' (a context line starts with a space)");
  EXPECT_EQ(contents("inventory.py"), kInventory);
}

TEST_F(ApplyCodexPatch, TextBeforeBeginPatchIsRefusedWithAHint) {
  put("a.txt", "a\n");
  EXPECT_EQ(apply("apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: a.txt\n-a\n+b\n*** End Patch\nEOF\n").content,
            "patch not applied (nothing was changed): no file in the patch: expected '--- a/<path>' then '+++ "
            "b/<path>' and hunks (for a Codex patch, '*** Begin Patch' must be its first line, with nothing before "
            "it)");
  EXPECT_EQ(contents("a.txt"), "a\n");
}

TEST_F(ApplyCodexPatch, RefusesPathsOutsideTheWorkspaceAndProtectedOnes) {
  std::ofstream(root_ / "outside.txt") << "outside\n";
  const auto up = apply("*** Begin Patch\n*** Update File: ../outside.txt\n-outside\n+pwned\n*** End Patch\n");
  EXPECT_FALSE(up.ok);
  EXPECT_NE(up.content.find("'../outside.txt' is outside the workspace"), std::string::npos) << up.content;
  const auto absolute = apply("*** Begin Patch\n*** Delete File: /etc/hostname\n*** End Patch\n");
  EXPECT_NE(absolute.content.find("'/etc/hostname' is an absolute path; paths are relative to the workspace"),
            std::string::npos)
      << absolute.content;
  const auto added = apply("*** Begin Patch\n*** Add File: ../new.txt\n+x\n*** End Patch\n");
  EXPECT_NE(added.content.find("'../new.txt' is outside the workspace"), std::string::npos) << added.content;
  const auto minds = apply("*** Begin Patch\n*** Add File: .minds/team.yaml\n+members: {}\n*** End Patch\n");
  EXPECT_NE(minds.content.find("'.minds/team.yaml' is not writable for you"), std::string::npos) << minds.content;
  EXPECT_EQ(contents("../outside.txt"), "outside\n");
  EXPECT_FALSE(fs::exists(root_ / "new.txt"));
  EXPECT_FALSE(fs::exists(workspace_ / ".minds"));
}

}  // namespace
}  // namespace parley::tools

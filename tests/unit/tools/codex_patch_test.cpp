// The Codex apply_patch format on its own, without files: what the parser makes of the patches
// GPT-5 and Codex models send (and what it says about broken ones, by patch line), and how hunks
// without line numbers find their place in a text.
#include "parley/tools/codex_patch.hpp"

#include <gtest/gtest.h>

namespace parley::tools {
namespace {

std::vector<codex_file_change> parsed(std::string_view patch) {
  auto changes = parse_codex_patch(patch);
  EXPECT_TRUE(changes) << (changes ? "" : changes.err().message);
  return changes ? std::move(changes).value() : std::vector<codex_file_change>{};
}

std::string parse_error(std::string_view patch) {
  auto changes = parse_codex_patch(patch);
  EXPECT_FALSE(changes);
  if (changes) return "<parsed>";
  EXPECT_EQ(changes.err().code, errc::invalid_argument);
  return changes.err().message;
}

// The text with every hunk of the patch's one Update File applied; fails the test on a rejection.
std::string applied(std::string_view original, std::string_view patch) {
  const auto changes = parsed(patch);
  if (changes.size() != 1) return "<not one change>";
  auto out = apply_codex_hunks(original, changes.front().hunks);
  for (const auto& rejection : out.rejected) ADD_FAILURE() << rejection.header << ": " << rejection.why;
  return out.text;
}

// The one rejection of applying the patch's one Update File.
hunk_rejection rejection(std::string_view original, std::string_view patch) {
  const auto changes = parsed(patch);
  if (changes.size() != 1) return {};
  auto out = apply_codex_hunks(original, changes.front().hunks);
  EXPECT_EQ(out.rejected.size(), 1u);
  return out.rejected.empty() ? hunk_rejection{} : out.rejected.front();
}

constexpr std::string_view kPriceModule =
    "def subtotal(items):\n"
    "    total = 0\n"
    "    for item in items:\n"
    "        total += item.price\n"
    "    return total\n"
    "\n"
    "\n"
    "def total_with_tax(items, rate):\n"
    "    total = 0\n"
    "    for item in items:\n"
    "        total += item.price\n"
    "    return total * (1 + rate)\n";

TEST(CodexPatchParse, ReadsAddUpdateAndDeleteAsTypedChanges) {
  const auto changes = parsed(
      "*** Begin Patch\n"
      "*** Add File: docs/notes.md\n"
      "+# Notes\n"
      "+\n"
      "+first\n"
      "*** Update File: src/app.py\n"
      "*** Move to: src/main.py\n"
      "@@ def run():\n"
      "-    print('hi')\n"
      "+    print('hello')\n"
      "*** End of File\n"
      "*** Delete File: old.txt\n"
      "*** End Patch\n");
  ASSERT_EQ(changes.size(), 3u);
  EXPECT_EQ(changes[0].action, codex_action::add);
  EXPECT_EQ(changes[0].path, "docs/notes.md");
  EXPECT_EQ(changes[0].content, "# Notes\n\nfirst\n");
  EXPECT_EQ(changes[1].action, codex_action::update);
  EXPECT_EQ(changes[1].path, "src/app.py");
  EXPECT_EQ(changes[1].move_to, "src/main.py");
  EXPECT_EQ(changes[1].patch_line, 6u);
  ASSERT_EQ(changes[1].hunks.size(), 1u);
  const auto& hunk = changes[1].hunks[0];
  EXPECT_EQ(hunk.anchors, std::vector<std::string>{"def run():"});
  EXPECT_TRUE(hunk.end_of_file);
  EXPECT_EQ(hunk.patch_line, 8u);
  EXPECT_EQ(hunk.label(), "patch line 8, @@ def run():");
  ASSERT_EQ(hunk.lines.size(), 2u);
  EXPECT_EQ(hunk.lines[0].kind, '-');
  EXPECT_EQ(hunk.lines[0].text, "    print('hi')");
  EXPECT_EQ(hunk.lines[1].kind, '+');
  EXPECT_EQ(hunk.lines[1].text, "    print('hello')");
  EXPECT_EQ(changes[2].action, codex_action::remove);
  EXPECT_EQ(changes[2].path, "old.txt");
}

TEST(CodexPatchParse, AnchorsInARowBelongToOneHunkAndABareAtAtStartsTheNext) {
  const auto changes = parsed(
      "*** Begin Patch\n"
      "*** Update File: shop.py\n"
      "@@ class Cart:\n"
      "@@     def total(self):\n"
      "-        return 0\n"
      "+        return sum(self.items)\n"
      "@@\n"
      " x = 1\n"
      "-y = 2\n"
      "*** End Patch\n");
  ASSERT_EQ(changes.size(), 1u);
  ASSERT_EQ(changes[0].hunks.size(), 2u);
  EXPECT_EQ(changes[0].hunks[0].anchors, (std::vector<std::string>{"class Cart:", "    def total(self):"}));
  EXPECT_TRUE(changes[0].hunks[1].anchors.empty());
  EXPECT_EQ(changes[0].hunks[1].patch_line, 7u);
  EXPECT_EQ(changes[0].hunks[1].lines.size(), 2u);
}

TEST(CodexPatchParse, AUnifiedRangeHeaderCountsAsABareAtAt) {
  const auto changes = parsed("*** Begin Patch\n*** Update File: a.txt\n@@ -3,2 +3,2 @@\n-a\n+b\n*** End Patch");
  ASSERT_EQ(changes.size(), 1u);
  ASSERT_EQ(changes[0].hunks.size(), 1u);
  EXPECT_TRUE(changes[0].hunks[0].anchors.empty());
}

TEST(CodexPatchParse, AFirstHunkNeedsNoAtAt) {
  const auto changes = parsed("*** Begin Patch\n*** Update File: a.txt\n keep\n-old\n+new\n*** End Patch\n");
  ASSERT_EQ(changes[0].hunks.size(), 1u);
  EXPECT_EQ(changes[0].hunks[0].patch_line, 3u);
  EXPECT_EQ(changes[0].hunks[0].lines.size(), 3u);
}

TEST(CodexPatchParse, AnEmptyLineInAHunkIsAnEmptyContextLineButBlankLinesBetweenSectionsAreNot) {
  const auto changes = parsed(
      "\n"
      "*** Begin Patch\n"
      "*** Update File: a.py\n"
      "@@\n"
      " import os\n"
      "\n"
      "-import sys\n"
      "\n"
      "\n"
      "*** Add File: b.txt\n"
      "+b\n"
      "\n"
      "*** End Patch\n"
      "\n");
  ASSERT_EQ(changes.size(), 2u);
  const auto& lines = changes[0].hunks.at(0).lines;
  ASSERT_EQ(lines.size(), 3u);  // the two empty lines before "*** Add File" separate sections
  EXPECT_EQ(lines[1].kind, ' ');
  EXPECT_EQ(lines[1].text, "");
  EXPECT_EQ(changes[1].content, "b\n");
}

TEST(CodexPatchParse, EmptyLinesBeforeEndOfFileAreContext) {
  const auto changes = parsed("*** Begin Patch\n*** Update File: a.txt\n x\n\n*** End of File\n*** End Patch\n");
  ASSERT_EQ(changes[0].hunks.at(0).lines.size(), 2u);
  EXPECT_TRUE(changes[0].hunks[0].end_of_file);
}

TEST(CodexPatchParse, ReadsCarriageReturnLineEndsAndSpacesAfterMarkers) {
  const auto changes = parsed("*** Begin Patch  \r\n*** Update File: a.txt\r\n-a\r\n+b\r\n*** End Patch \r\n");
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].path, "a.txt");
  EXPECT_EQ(changes[0].hunks.at(0).lines.at(1).text, "b");
}

TEST(CodexPatchParse, AMoveWithoutHunksIsAPureRename) {
  const auto changes = parsed("*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n*** End Patch\n");
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].move_to, "b.txt");
  EXPECT_TRUE(changes[0].hunks.empty());
}

TEST(CodexPatchParse, TellsTheFormatByItsFirstNonBlankLine) {
  EXPECT_TRUE(is_codex_patch("\n  \n*** Begin Patch\n*** End Patch\n"));
  EXPECT_FALSE(is_codex_patch("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n"));
  EXPECT_FALSE(is_codex_patch("Here is the patch:\n*** Begin Patch\n"));
  EXPECT_FALSE(is_codex_patch(""));
}

TEST(CodexPatchParse, ALineWithABadPrefixNamesItsLineAndWhatWasExpected) {
  EXPECT_EQ(parse_error("*** Begin Patch\n*** Update File: a.py\n@@ def f():\n x = 1\nfoo\n*** End Patch\n"),
            "patch line 5: expected a line starting with ' ', '-', '+', '@@' or '*** ', got 'foo' (a context line "
            "starts with a space)");
}

TEST(CodexPatchParse, RefusesAPatchWithoutItsBeginOrEnd) {
  EXPECT_EQ(parse_error(""), "the patch is empty: expected '*** Begin Patch'");
  EXPECT_EQ(parse_error("\n*** Add File: a.txt\n+a\n*** End Patch\n"),
            "patch line 2: expected '*** Begin Patch', got '*** Add File: a.txt'");
  EXPECT_EQ(parse_error("*** Begin Patch\n*** Add File: a.txt\n+a\n"),
            "patch line 3: the patch ends without '*** End Patch'");
  EXPECT_EQ(parse_error("*** Begin Patch\n*** End Patch\n"),
            "patch line 2: '*** End Patch' before any '*** Add File:', '*** Update File:' or '*** Delete File:'");
  EXPECT_EQ(parse_error("*** Begin Patch\n*** Delete File: a.txt\n*** End Patch\nEOF\n"),
            "patch line 4: nothing may follow '*** End Patch', got 'EOF'");
}

TEST(CodexPatchParse, RefusesAnUnknownSectionAndAnEmptyPath) {
  EXPECT_EQ(parse_error("*** Begin Patch\n*** Create File: a.txt\n+a\n*** End Patch\n"),
            "patch line 2: expected '*** Add File: <path>', '*** Update File: <path>', '*** Delete File: <path>' or "
            "'*** End Patch', got '*** Create File: a.txt'");
  EXPECT_EQ(parse_error("*** Begin Patch\n*** Add File:   \n+a\n*** End Patch\n"),
            "patch line 2: '*** Add File:' names no file: a path must follow the colon");
  EXPECT_EQ(parse_error("*** Begin Patch\n*** Update File: a.txt\n*** Move to:\n-a\n*** End Patch\n"),
            "patch line 3: '*** Move to:' names no file: a path must follow the colon");
}

TEST(CodexPatchParse, AnAddedFileTakesOnlyPlusLines) {
  EXPECT_EQ(parse_error("*** Begin Patch\n*** Add File: hello.py\n+def hello():\n    print('hi')\n*** End Patch\n"),
            "patch line 4: in added file 'hello.py': expected a line starting with '+', got '    print('hi')' "
            "(every line of a new file, even an empty one, is written '+')");
  EXPECT_EQ(parse_error("*** Begin Patch\n*** Add File: a.txt\n+a\n\n+b\n*** End Patch\n"),
            "patch line 4: in added file 'a.txt': expected a line starting with '+', got '' (every line of a new "
            "file, even an empty one, is written '+')");
}

TEST(CodexPatchParse, AnUpdateNeedsAHunkAndADeleteTakesNoLines) {
  EXPECT_EQ(parse_error("*** Begin Patch\n*** Update File: a.txt\n*** End Patch\n"),
            "patch line 3: expected a hunk for '*** Update File: a.txt' (patch line 2): lines starting with ' ', "
            "'-' or '+', after an optional '@@ <anchor>' line; got '*** End Patch'");
  EXPECT_EQ(parse_error("*** Begin Patch\n*** Update File: a.txt\n@@ def f():\n*** End Patch\n"),
            "patch line 3: the hunk after '@@ def f():' has no lines starting with ' ', '-' or '+'");
  EXPECT_EQ(parse_error("*** Begin Patch\n*** Delete File: a.txt\n-a\n*** End Patch\n"),
            "patch line 3: '*** Delete File: a.txt' takes no lines; expected a '*** ' line, got '-a'");
  EXPECT_EQ(parse_error("*** Begin Patch\n*** Update File: a.txt\n-a\n*** End of File\n+b\n*** End Patch\n"),
            "patch line 5: expected '@@' or a '*** ' line after '*** End of File', got '+b'");
}

TEST(CodexPatchApply, ReplacesLinesBetweenTheirContext) {
  EXPECT_EQ(applied("a\nb\nc\n", "*** Begin Patch\n*** Update File: x\n a\n-b\n+B\n+B2\n c\n*** End Patch\n"),
            "a\nB\nB2\nc\n");
}

TEST(CodexPatchApply, AnAnchorPicksTheOccurrenceBelowIt) {
  const std::string patched = applied(kPriceModule,
                                      "*** Begin Patch\n"
                                      "*** Update File: prices.py\n"
                                      "@@ def total_with_tax(items, rate):\n"
                                      "     total = 0\n"
                                      "     for item in items:\n"
                                      "-        total += item.price\n"
                                      "+        total += item.price * item.quantity\n"
                                      "*** End Patch\n");
  std::string expected(kPriceModule);
  const auto second = expected.rfind("item.price\n");
  expected.insert(second + std::string("item.price").size(), " * item.quantity");
  EXPECT_EQ(patched, expected);
}

TEST(CodexPatchApply, AnchorsInARowNarrowSuccessively) {
  const std::string text = "class A:\n  def f(self):\n    return 1\nclass B:\n  def f(self):\n    return 1\n";
  EXPECT_EQ(applied(text,
                    "*** Begin Patch\n*** Update File: x\n@@ class B:\n@@   def f(self):\n-    return 1\n+    "
                    "return 2\n*** End Patch\n"),
            "class A:\n  def f(self):\n    return 1\nclass B:\n  def f(self):\n    return 2\n");
}

TEST(CodexPatchApply, EachHunkIsSearchedBelowThePreviousOne) {
  EXPECT_EQ(applied("x = 1\ny = 1\nx = 1\ny = 1\n",
                    "*** Begin Patch\n*** Update File: x\n@@\n x = 1\n-y = 1\n+y = 2\n@@\n x = 1\n-y = 1\n+y = 3\n"
                    "*** End Patch\n"),
            "x = 1\ny = 2\nx = 1\ny = 3\n");
}

TEST(CodexPatchApply, EndOfFileMatchesOnlyTheLastLines) {
  EXPECT_EQ(applied("end\nmiddle\nend\n",
                    "*** Begin Patch\n*** Update File: x\n-end\n+END\n*** End of File\n*** End "
                    "Patch\n"),
            "end\nmiddle\nEND\n");
}

TEST(CodexPatchApply, PureAdditionsGoAfterTheAnchorOrAtTheEnd) {
  EXPECT_EQ(applied("import os\n\ndef f():\n    pass\n",
                    "*** Begin Patch\n*** Update File: x\n@@ import os\n+import sys\n*** End Patch\n"),
            "import os\nimport sys\n\ndef f():\n    pass\n");
  EXPECT_EQ(applied("a\nb", "*** Begin Patch\n*** Update File: x\n+c\n*** End Patch\n"), "a\nb\nc\n");
}

TEST(CodexPatchApply, AHunkMayRepeatItsAnchorAsItsFirstContextLine) {
  EXPECT_EQ(
      applied("def f():\n    return 1\n",
              "*** Begin Patch\n*** Update File: x\n@@ def f():\n def f():\n-    return 1\n+    return 2\n*** End "
              "Patch\n"),
      "def f():\n    return 2\n");
}

TEST(CodexPatchApply, MatchesIgnoringTrailingThenSurroundingWhitespaceAndSaysSo) {
  const auto changes = parsed("*** Begin Patch\n*** Update File: x\n@@\n a\n-b\n+B\n@@\n c\n-d\n+D\n*** End Patch\n");
  auto out = apply_codex_hunks("a  \nb\n\tc\n  d\n", changes.at(0).hunks);
  EXPECT_TRUE(out.rejected.empty());
  EXPECT_EQ(out.text, "a  \nB\n\tc\nD\n");  // context lines stay as the file has them
  ASSERT_EQ(out.loose.size(), 2u);
  EXPECT_EQ(out.loose[0].number, 1u);
  EXPECT_EQ(describe(out.loose[0].how), "ignoring trailing whitespace");
  EXPECT_EQ(out.loose[1].number, 2u);
  EXPECT_EQ(describe(out.loose[1].how), "ignoring leading and trailing whitespace");
}

TEST(CodexPatchApply, AnExactMatchFurtherDownWinsOverALooseOneAbove) {
  const auto changes = parsed("*** Begin Patch\n*** Update File: x\n-a\n+b\n*** End Patch\n");
  const auto out = apply_codex_hunks("a \na\n", changes.at(0).hunks);
  EXPECT_EQ(out.text, "a \nb\n");
  EXPECT_TRUE(out.loose.empty());
}

TEST(CodexPatchApply, KeepsCarriageReturnLineEnds) {
  EXPECT_EQ(applied("a\r\nb\r\n", "*** Begin Patch\n*** Update File: x\n a\n-b\n+c\n+d\n*** End Patch\n"),
            "a\r\nc\r\nd\r\n");
}

TEST(CodexPatchApply, RejectsAHunkWithTheLineThatDiffersWhereItCameClosest) {
  const auto rejected = rejection(kPriceModule,
                                  "*** Begin Patch\n"
                                  "*** Update File: prices.py\n"
                                  "@@ def subtotal(items):\n"
                                  "     total = 0\n"
                                  "     for item in items:\n"
                                  "-        total += item.cost\n"
                                  "+        total += item.cost * 2\n"
                                  "*** End Patch\n");
  EXPECT_EQ(rejected.number, 1u);
  EXPECT_EQ(rejected.header, "patch line 3, @@ def subtotal(items):");
  EXPECT_EQ(rejected.why,
            "its old lines (context and removals) do not match anywhere in the file; the closest place starts at line "
            "2, where line 4 of the file is '        total += item.price' but the hunk expects '        total += "
            "item.cost'");
}

TEST(CodexPatchApply, RejectsAHunkWhoseFirstLineIsNowhere) {
  const auto rejected = rejection("a\nb\n", "*** Begin Patch\n*** Update File: x\n-zzz\n+y\n*** End Patch\n");
  EXPECT_EQ(rejected.header, "patch line 3");
  EXPECT_EQ(rejected.why,
            "its first old line 'zzz' matches no line anywhere in the file, not even ignoring whitespace");
}

TEST(CodexPatchApply, RejectsAHunkThatRunsPastTheEndOfTheFile) {
  const auto rejected = rejection("a\nb\n", "*** Begin Patch\n*** Update File: x\n a\n b\n-c\n*** End Patch\n");
  EXPECT_EQ(rejected.why, "its old lines match from line 1 to the end of the file, where it expects 'c' next");
}

TEST(CodexPatchApply, RejectsAnAnchorThatIsNotInTheFile) {
  const auto rejected =
      rejection(kPriceModule,
                "*** Begin Patch\n*** Update File: x\n@@ def grand_total(items):\n-    return total\n+    "
                "return 0\n*** End Patch\n");
  EXPECT_EQ(rejected.why, "its anchor '@@ def grand_total(items):' matches no line anywhere in the file");
}

TEST(CodexPatchApply, RejectsHunksOutOfFileOrderAndSaysWhereTheirLinesAre) {
  const auto changes = parsed("*** Begin Patch\n*** Update File: x\n-c\n+C\n@@\n-a\n+A\n*** End Patch\n");
  const auto out = apply_codex_hunks("a\nb\nc\n", changes.at(0).hunks);
  ASSERT_EQ(out.rejected.size(), 1u);
  EXPECT_EQ(out.rejected[0].number, 2u);
  EXPECT_EQ(out.rejected[0].why,
            "its old lines (context and removals) do not match from line 4 of the file on (they are at line 1, above "
            "the previous hunk or anchor: hunks must come in the order of the file)");
}

TEST(CodexPatchApply, RejectsAnEndOfFileHunkThatDoesNotEndTheFile) {
  const auto rejected =
      rejection("a\nb\nc\n", "*** Begin Patch\n*** Update File: x\n-a\n+A\n*** End of File\n*** End Patch\n");
  EXPECT_EQ(rejected.why,
            "with '*** End of File' its old lines must be the file's last 1 lines, but line 3 of the file is 'c' "
            "where the hunk expects 'a'");
}

}  // namespace
}  // namespace parley::tools

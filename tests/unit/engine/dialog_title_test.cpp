// Titles of untitled roots, made from their first message (issue 24).
#include <gtest/gtest.h>

#include "parley/engine/dialog_title.hpp"

namespace parley::engine {
namespace {

TEST(DialogTitle, IsTheFirstLineWithWordsWithoutMarkdownMarkers) {
  EXPECT_EQ(title_from_message("Plan the launch"), "Plan the launch");
  EXPECT_EQ(title_from_message("\n\n  # Plan   the\tlaunch  \nand book a venue"), "Plan the launch");
  EXPECT_EQ(title_from_message("- > **bold** start"), "**bold** start");
  EXPECT_EQ(title_from_message("   \n#\n"), "");
  EXPECT_EQ(title_from_message(""), "");
}

TEST(DialogTitle, ALongLineIsCutAtAWordAndMarked) {
  const std::string line = "Please read every file of the project and write a summary of what each module does and why";
  const auto title = title_from_message(line);
  EXPECT_EQ(title, "Please read every file of the project and write a summary…");
  EXPECT_EQ(line.rfind(title.substr(0, title.size() - std::string("…").size()), 0), 0U);
}

TEST(DialogTitle, CountsCharactersNotBytesAndNeverSplitsOne) {
  std::string text;
  for (int i = 0; i < 80; ++i) text += "计";
  const auto title = title_from_message(text);
  std::string expected;
  for (std::size_t i = 0; i + 1 < kTitleMaxChars; ++i) expected += "计";
  EXPECT_EQ(title, expected + "…");
}

}  // namespace
}  // namespace parley::engine

// Text from outside on its way to a terminal (core/terminal_text.hpp, issue 36).
#include "parley/core/terminal_text.hpp"

#include <gtest/gtest.h>

namespace parley {
namespace {

TEST(TerminalText, EscapesControlsButNewlineAndTab) {
  EXPECT_EQ(terminal_safe("x\x01y\x1b[31m.txt"), "x\\x01y\\x1b[31m.txt");
  EXPECT_EQ(terminal_safe("a\tb\nc"), "a\tb\nc");
  EXPECT_EQ(terminal_safe("over\rwrite\x7f"), "over\\x0dwrite\\x7f");
  EXPECT_EQ(terminal_safe(std::string_view("nul\0byte", 8)), "nul\\x00byte");
}

TEST(TerminalText, EscapesC1ControlsAndKeepsOtherUtf8) {
  EXPECT_EQ(terminal_safe("\xc2\x9b"
                          "31m"),
            "\\u009b31m");  // CSI as one character
  EXPECT_EQ(terminal_safe("caf\xc3\xa9 \xc2\xa0 \xe4\xbd\xa0"), "caf\xc3\xa9 \xc2\xa0 \xe4\xbd\xa0");
}

TEST(TerminalText, FindsAC1ControlSplitBetweenPieces) {
  terminal_escaper escaper;
  std::string out = escaper.feed("a\xc2");
  out += escaper.feed(
      "\x9d"
      "b\xc2");
  out += escaper.feed("\xa9");
  out += escaper.feed("\xc2");
  out += escaper.finish();
  EXPECT_EQ(out, "a\\u009db\xc2\xa9\xc2");
}

}  // namespace
}  // namespace parley

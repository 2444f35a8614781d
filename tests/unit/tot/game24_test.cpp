#include <gtest/gtest.h>

#include "parley/tot/game24/state.hpp"
#include "parley/tot/game24/verifier.hpp"

namespace parley::tot::game24 {
namespace {

TEST(Game24Verifier, AcceptsAnExactAnswerWithAnyOperatorSpelling) {
  EXPECT_TRUE(verify_answer("4 9 10 13", "(10 - (13 - 9)) * 4 = 24").valid);
  EXPECT_TRUE(verify_answer("4 9 10 13", "Answer: (10 - (13 - 9)) × 4 = 24").valid);
  EXPECT_TRUE(verify_answer("3 3 8 8", "8 ÷ (3 - 8 / 3)").valid);  // only exact rationals make this 24
}

TEST(Game24Verifier, RefusesWrongNumbersRepeatsValuesAndProse) {
  auto v = verify_answer("4 9 10 13", "(10 - (13 - 9)) * 4 * 1");
  EXPECT_FALSE(v.valid);
  ASSERT_FALSE(v.errors.empty());
  EXPECT_EQ(v.errors[0], "uses the numbers 1 4 9 10 13, the puzzle's are 4 9 10 13");
  v = verify_answer("4 9 10 13", "4 + 9 + 10 + 13");
  EXPECT_FALSE(v.valid);
  EXPECT_EQ(v.errors.back(), "evaluates to 36, not 24");
  v = verify_answer("1 1 4 6", "4 * 6 * 1 * 1 * 1");
  EXPECT_FALSE(v.valid);
  v = verify_answer("4 9 10 13", "I could not find one.");
  EXPECT_FALSE(v.valid);
  EXPECT_NE(v.errors[0].find("not an arithmetic expression"), std::string::npos) << v.errors[0];
  EXPECT_FALSE(verify_answer("3 3 8 8", "8 / (3 - 3) + 8 * 8").valid);  // division by zero
  EXPECT_FALSE(verify_answer("4 9 10 13", "(10 - (13 - 9) * 4").valid);
}

TEST(Game24State, AStepIsCheckedInExactArithmeticAgainstTheNumbersLeft) {
  auto start = state::from_puzzle("4 9 10 13");
  ASSERT_TRUE(start);
  auto good = start->apply(*parse_step("13 - 9 = 4 (left: 4 4 10)"));
  ASSERT_TRUE(good) << good.err().message;
  EXPECT_EQ(good->key(), "4 4 10");
  auto wrong = start->apply(*parse_step("13 - 9 = 5"));
  ASSERT_FALSE(wrong);
  EXPECT_EQ(wrong.err().message, "13 - 9 = 5: 13 - 9 is 4");
  auto absent = start->apply(*parse_step("13 - 7 = 6"));
  ASSERT_FALSE(absent);
  EXPECT_EQ(absent.err().message, "13 - 7 = 6: its operands are not among 4 9 10 13");
  auto fraction = state::from_puzzle("3 3 8 8")->apply(*parse_step("8 / 3 = 8/3"));
  ASSERT_TRUE(fraction);
  EXPECT_EQ(fraction->key(), "8/3 3 8");
  EXPECT_FALSE(parse_step("Let us add 4 and 4"));
  EXPECT_EQ(parse_step("4 × 6 = 24")->op, '*');
}

TEST(Game24State, PuzzlesWithoutFourNumbersAreRefused) {
  EXPECT_EQ(state::from_puzzle("1 2 3").err().message, "problem: a Game of 24 puzzle has four numbers, this one has 3");
  EXPECT_TRUE(state::from_puzzle("用4、9、10、13得到24"));
}

}  // namespace
}  // namespace parley::tot::game24

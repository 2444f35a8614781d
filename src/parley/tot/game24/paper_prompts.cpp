#include "parley/tot/game24/paper_prompts.hpp"

namespace parley::tot::game24 {

std::string propose_prompt(std::string_view numbers_left) {
  return "Input: 2 8 8 14\n" + std::string(kProposeMarker) +
         "\n2 + 8 = 10 (left: 8 10 14)\n8 / 2 = 4 (left: 4 8 14)\n14 + 2 = 16 (left: 8 8 16)\n"
         "2 * 8 = 16 (left: 8 14 16)\n8 - 2 = 6 (left: 6 8 14)\n14 - 8 = 6 (left: 2 6 8)\n"
         "14 / 2 = 7 (left: 7 8 8)\n14 - 2 = 12 (left: 8 8 12)\n"
         "Input: " +
         std::string(numbers_left) + "\n" + std::string(kProposeMarker) + "\n";
}

std::string value_prompt(std::string_view numbers_left) {
  return std::string(kValueMarker) +
         "\nTry a few quick combinations. Say sure when 24 is reached, likely when the numbers are in a "
         "reasonable range, impossible when they are all too big or too small. The last line is one word.\n"
         "Input: 10 14\n10 + 14 = 24\nsure\nInput: 1 3 3\n1 * 3 * 3 = 9\n(1 + 3) * 3 = 12\n1 3 3 are all too small\n"
         "impossible\nInput: " +
         std::string(numbers_left) + "\n";
}

std::string judge_prompt(std::string_view puzzle, std::string_view answer) {
  return "Use the numbers and + - * / to obtain 24. Given an input and an answer, judge whether the answer uses "
         "each input number exactly once and equals 24 (sure/impossible).\nInput: 4 4 6 8\nAnswer: (4 + 8) * (6 - 4) "
         "= 24\nJudge: sure\nInput: " +
         std::string(puzzle) + "\nAnswer: " + std::string(answer) + "\n" + std::string(kJudgeMarker);
}

std::string answer_prompt(std::string_view puzzle, const std::vector<std::string>& steps) {
  std::string text = "Use the numbers and + - * / to obtain 24. " + std::string(kAnswerMarker) +
                     " that uses each input number once, after \"Answer:\".\nInput: " + std::string(puzzle) +
                     "\nSteps:\n";
  for (const auto& step : steps) text += step + "\n";
  return text + "Answer:";
}

std::string_view input_of(std::string_view prompt) {
  const auto at = prompt.rfind("Input: ");
  if (at == std::string_view::npos) return {};
  auto rest = prompt.substr(at + 7);
  return rest.substr(0, rest.find('\n'));
}

}  // namespace parley::tot::game24

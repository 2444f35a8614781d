// The prompts of the paper's Game of 24 BFS, in our own words (notes/tot-reference.md §2): a
// one-shot "propose" prompt listing next steps, a "value" prompt ending in sure/likely/impossible,
// a last-step "judge" prompt for a finished answer, and the answer prompt once 24 is left. The
// noisy model recognises them by the marker lines below, as a real model follows the examples.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace parley::tot::game24 {

inline constexpr std::string_view kProposeMarker = "Possible next steps:";
inline constexpr std::string_view kValueMarker = "Evaluate if the given numbers can reach 24 (sure/likely/impossible)";
inline constexpr std::string_view kJudgeMarker = "Judge:";
inline constexpr std::string_view kAnswerMarker = "Write the answer as one expression";

std::string propose_prompt(std::string_view numbers_left);
std::string value_prompt(std::string_view numbers_left);
std::string judge_prompt(std::string_view puzzle, std::string_view answer);
// `steps`: the path's lines "a op b = c (left: …)".
std::string answer_prompt(std::string_view puzzle, const std::vector<std::string>& steps);

// The text after the last "Input:" up to the end of its line.
std::string_view input_of(std::string_view prompt);

}  // namespace parley::tot::game24

// The paper's Game of 24 data set (data/game24.csv: Rank, Puzzles, …), read by rank.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "parley/core/result.hpp"

namespace parley::tot::game24 {

struct puzzle {
  int rank = 0;
  std::string numbers;  // "4 9 10 13"
};

// The puzzles with first_rank ≤ rank ≤ last_rank, in rank order.
result<std::vector<puzzle>> load_puzzles(const std::filesystem::path& csv, int first_rank, int last_rank);

}  // namespace parley::tot::game24

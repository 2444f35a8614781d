// The paper's own Game of 24 search (official code, scripts/game24/bfs.sh), implemented beside
// Parley's as the benchmark's baseline: 4 steps; at each, one propose call per kept path (the
// answer prompt once only 24 is left); each new path valued with `value_samples` samples of the
// value prompt (the judge prompt for an answer line), sure/likely/impossible = 20/1/0.001 summed,
// a duplicate path in a step valued 0, values cached per prompt; the best `keep` paths go on.
// Solved when any final output verifies (the paper's reported figure).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "parley/tot/model_channel.hpp"

namespace parley::tot::game24 {

struct paper_bfs_options {
  int value_samples = 3;
  int keep = 5;
  int steps = 4;
};

struct paper_bfs_result {
  bool solved = false;
  std::vector<std::string> outputs;  // the kept paths after the last step
  std::int64_t model_calls = 0;      // provider calls (each value sample is one)
  std::int64_t prompts = 0;          // the paper's count: a value prompt with its samples is one
};

class paper_bfs {
 public:
  paper_bfs(model_channel& channel, paper_bfs_options options = {});
  boost::asio::awaitable<paper_bfs_result> solve(std::string puzzle);

 private:
  boost::asio::awaitable<double> value_of(const std::string& puzzle, const std::string& path, paper_bfs_result& tally);
  model_channel& channel_;
  paper_bfs_options options_;
  std::map<std::string, double> cache_;  // value prompt → value, for the whole run as the official code
};

}  // namespace parley::tot::game24

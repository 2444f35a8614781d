// A scripted "noisy model" for Game of 24, reached through the normal provider interface: it
// answers the paper's prompts (paper_prompts.hpp) and Parley's protocol messages
// (generate_thoughts, evaluate_thoughts) the way an LLM does in the paper, with configurable
// mistakes: wrong arithmetic in a proposed step, moves it fails to propose, states it values
// wrongly, and replies in prose instead of the protocol. Every choice is drawn from a generator
// seeded by (seed, what is asked, the request's `seed` parameter), so two searches that ask the
// same question of the same model get the same answer — the comparison in `parley-bench tot24`
// is between searches, not between dice.
#pragma once

#include <cstdint>
#include <memory>

#include "parley/llm/provider.hpp"

namespace parley::tot::game24 {

struct noise_settings {
  std::uint64_t seed = 1;
  double arithmetic_error_rate = 0.0;  // a proposed step's result is off by one (and so is its "left")
  double missed_move_rate = 0.0;       // a valid move is left out of a proposal
  double misvalue_rate = 0.0;          // a state is valued as if the truth were the opposite
  double format_error_rate = 0.0;      // a protocol reply comes as prose instead of JSON
  int max_proposals = 8;               // moves listed per proposal, as the paper's one-shot example
  int delay_ms = 0;                    // before answering (stop() cuts it short): for timeout tests
};

class noisy_model final : public llm::provider {
 public:
  explicit noisy_model(noise_settings settings);
  ~noisy_model() override;

  boost::asio::awaitable<result<llm::model_response>> stream(const llm::model_request& request, llm::stream_sink& sink,
                                                             llm::generation_control& control) override;
  std::string_view kind() const override { return "noisy24"; }

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace parley::tot::game24

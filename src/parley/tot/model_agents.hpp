// The generator, evaluator and synthesizer as model agents: each call sends the seed's request
// message as JSON to a model channel under the role's persona, and reads the reply strictly as
// the expected message. A reply that does not parse is sent back with the parse error, at most
// `format_retries` times, then becomes INVALID_FORMAT (not recoverable); a call that outlives its
// time becomes EVALUATION_TIMEOUT and a failed call GENERATION_FAILED (both recoverable: the
// explorer retries them). A reply that carries the seed's `error {code, message, recoverable}` is
// that error, as the role said it: not a format problem to correct.
#pragma once

#include <functional>
#include <string>

#include "parley/tot/agents.hpp"
#include "parley/tot/model_channel.hpp"

namespace parley::tot {

struct model_agent_options {
  task_type type = task_type::math_reasoning;
  int format_retries = 2;
  // The persona of a role (default_persona unless a team overrides it).
  std::function<std::string(agent_role)> persona;
  json::object params;  // passed with every call
  std::string task_id;  // the run's: every request message carries it (seed 003's envelope)
};

// One protocol exchange: request → reply of type Reply, with the retries above.
template <class Reply>
boost::asio::awaitable<agent_answer<Reply>> exchange(model_channel& channel, const model_agent_options& options,
                                                     agent_role role, const message& request, std::int64_t& calls);

class model_generator final : public thought_generator {
 public:
  model_generator(model_channel& channel, model_agent_options options);
  boost::asio::awaitable<agent_answer<generated_thoughts>> generate(const generate_thoughts& request) override;
  std::int64_t model_calls() const override { return calls_; }

 private:
  model_channel& channel_;
  model_agent_options options_;
  std::int64_t calls_ = 0;
};

class model_evaluator final : public thought_evaluator {
 public:
  model_evaluator(model_channel& channel, model_agent_options options);
  boost::asio::awaitable<agent_answer<evaluation_results>> evaluate(const evaluate_thoughts& request) override;
  std::int64_t model_calls() const override { return calls_; }

 private:
  model_channel& channel_;
  model_agent_options options_;
  std::int64_t calls_ = 0;
};

}  // namespace parley::tot

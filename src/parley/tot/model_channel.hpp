// How a ToT agent reaches a model: one call with a persona (system prompt) and a conversation,
// answered with text. Two channels exist: straight to a provider (the benchmark, tests) and
// through Parley's engine as a team member's dialog (engine_channel.hpp). Both count calls and
// tokens, and bound each call in time.
#pragma once

#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "parley/core/json.hpp"
#include "parley/core/result.hpp"
#include "parley/llm/provider.hpp"
#include "parley/tot/protocol.hpp"

namespace parley::tot {

struct call_meter {
  std::int64_t calls = 0;
  std::int64_t input_tokens = 0;
  std::int64_t output_tokens = 0;
};

struct agent_call {
  agent_role role = agent_role::generator;
  std::string system_prompt;
  std::vector<llm::chat_message> messages;  // the request, then any corrections
  json::object params;                      // passed to the provider (temperature, seed ...)
  // Set by a channel that keeps a conversation (the engine's subdialog), so that a correction
  // sent with the same call continues it.
  std::string conversation;
};

// errc::limit_exceeded: the call outlived its time; errc::provider_error: the model failed.
class model_channel {
 public:
  virtual ~model_channel() = default;
  virtual boost::asio::awaitable<result<std::string>> ask(agent_call& call) = 0;
  virtual const call_meter& meter() const = 0;
};

// Straight to a provider, each call bounded by `timeout` (the generation is stopped when it is up).
class provider_channel final : public model_channel {
 public:
  provider_channel(std::shared_ptr<llm::provider> provider, std::string model,
                   std::chrono::milliseconds timeout = std::chrono::seconds(120));
  boost::asio::awaitable<result<std::string>> ask(agent_call& call) override;
  const call_meter& meter() const override { return meter_; }

 private:
  std::shared_ptr<llm::provider> provider_;
  std::string model_;
  std::chrono::milliseconds timeout_;
  call_meter meter_;
};

}  // namespace parley::tot

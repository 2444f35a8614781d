// Seed 002's message analysis off the critical path (docs/records.md "Analysis and embeddings").
// An observer of the engine: once a human's message or answer to a question is durable (its drive
// already scheduled), the team's analyst member reads it and the embedder embeds it; an AI's final
// answer is embedded too. The analysis records seed 002's MultiModalInputParser steps: the
// medium's (the caption or transcription the team's describer made when the message was taken),
// the text's (the analyst, instructed in the message's language) and their merge.
// Each result — or its failure — is appended to the message's dialog as `record_message_analyzed`
// / `record_message_embedded`, which the records reducer folds into the message. Nothing here is
// awaited by a drive: the work runs in coroutines of its own, at most kMaxRunning at a time, with
// at most kMaxQueued waiting; past that a message is recorded as a failed analysis.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include <cstddef>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "parley/config/team.hpp"
#include "parley/engine/observer.hpp"
#include "parley/llm/openai/openai_embeddings.hpp"
#include "parley/llm/provider.hpp"

namespace parley::engine {

class engine;

class message_analyst final : public engine_observer {
 public:
  static constexpr std::size_t kMaxRunning = 2;
  static constexpr std::size_t kMaxQueued = 1024;

  // `embedder` may be null (no embeddings configured); the analyst member is the team's
  // `records.analyst`, if any.
  message_analyst(boost::asio::any_io_executor executor, engine& eng, std::unique_ptr<llm::embeddings_client> embedder);
  ~message_analyst() override;

  void on_durable(const event& ev) override;
  // Stops the calls in flight and takes no more work (shutdown).
  void stop();

  llm::embeddings_client* embedder() const noexcept { return embedder_.get(); }
  std::size_t in_flight() const noexcept { return running_ + queue_.size(); }

 private:
  struct job {
    std::string dialog_id;
    std::string message_id;
    std::int64_t seq = 0;
    std::string text;
    bool analyse = false;
    std::optional<events::attachment> media;  // an image's or a recording's: its parser's step
  };
  void enqueue(job work);
  void pump();
  boost::asio::awaitable<void> run(job work);
  boost::asio::awaitable<void> analyse(const job& work);
  boost::asio::awaitable<void> embed(const job& work);

  boost::asio::any_io_executor executor_;
  engine& engine_;
  std::unique_ptr<llm::embeddings_client> embedder_;
  std::deque<job> queue_;
  std::size_t running_ = 0;
  bool stopped_ = false;
  std::vector<std::shared_ptr<llm::generation_control>> controls_;  // of the calls in flight
};

}  // namespace parley::engine

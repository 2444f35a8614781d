// The sink a generation streams into: it forwards every segment to the observers and checks
// seed 001's ordering contract — thinking and saying segments never overlap, and every chunk
// belongs to an open segment. A violation stops the generation and is reported by `violation()`.
#pragma once

#include <chrono>
#include <functional>

#include <string>
#include <vector>

#include "parley/engine/observer.hpp"
#include "parley/llm/provider.hpp"

namespace parley::engine {

class stream_relay final : public llm::stream_sink {
 public:
  stream_relay(const std::vector<engine_observer*>& observers, std::string_view dialog_id, std::string_view root_id,
               std::int64_t course, std::int64_t genseq, llm::generation_control& control)
      : observers_(observers),
        dialog_id_(dialog_id),
        root_id_(root_id),
        course_(course),
        genseq_(genseq),
        control_(control) {}

  void on_thinking_start() override { open(segment::thinking, stream_kind::thinking_start); }
  void on_thinking_chunk(std::string_view text) override {
    chunk(segment::thinking, stream_kind::thinking_chunk, text);
  }
  void on_thinking_finish() override { close(segment::thinking, stream_kind::thinking_finish); }
  void on_saying_start() override { open(segment::saying, stream_kind::saying_start); }
  void on_saying_chunk(std::string_view text) override { chunk(segment::saying, stream_kind::saying_chunk, text); }
  void on_saying_finish() override { close(segment::saying, stream_kind::saying_finish); }
  void on_discard(std::string_view reason) override;

  const std::string& violation() const noexcept { return violation_; }

  // Called with the text streamed so far once a generation has run for `every` since the last
  // call, so a long generation cut by a crash keeps its partial output in the log.
  using checkpoint_fn = std::function<void(const std::string& thinking, const std::string& saying)>;
  // Called when the provider discards what it streamed and starts the call again.
  void on_discarded(std::function<void(std::string_view reason)> fn) { discarded_ = std::move(fn); }
  void on_checkpoint(std::chrono::steady_clock::duration every, checkpoint_fn fn) {
    checkpoint_every_ = every;
    checkpoint_ = std::move(fn);
    last_checkpoint_ = std::chrono::steady_clock::now();
  }

 private:
  enum class segment { none, thinking, saying };
  void open(segment which, stream_kind kind);
  void chunk(segment which, stream_kind kind, std::string_view text);
  void close(segment which, stream_kind kind);
  void publish(stream_kind kind, std::string_view text) const;
  void fail(std::string message);

  const std::vector<engine_observer*>& observers_;
  std::string_view dialog_id_;
  std::string_view root_id_;
  std::int64_t course_;
  std::int64_t genseq_;
  llm::generation_control& control_;
  segment active_ = segment::none;
  std::string violation_;
  std::string thinking_;
  std::string saying_;
  checkpoint_fn checkpoint_;
  std::function<void(std::string_view)> discarded_;
  std::chrono::steady_clock::duration checkpoint_every_{};
  std::chrono::steady_clock::time_point last_checkpoint_{};
};

}  // namespace parley::engine

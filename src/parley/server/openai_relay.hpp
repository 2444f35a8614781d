// What a chat completion (openai_chat_handler.hpp) learns of its root dialog's tree while it is
// answered: the engine reports every drive's stream and events to one observer, openai_relay,
// which hands those of a root's tree to the answer_collectors following that root.
//
// A collector starts with the user message it waits for: the request's own, whose id it made.
// Everything before that message in the root is not this request's answer (a drive still under way
// for an earlier input), and a new root's drive may run before create_root_dialog returns to its
// caller, so a collector is followed from before the message is posted, by that id, and attached
// to the message's root when the message is staged.
//
// A collector only gathers: the root's saying as it streams and as it ends, the tokens of every
// model call in the tree, a failure of the root's drive. It wakes its handler through an
// async_signal, which resumes it later on the loop, never inside the engine's call.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "parley/engine/async_signal.hpp"
#include "parley/engine/engine.hpp"
#include "parley/engine/observer.hpp"
#include "parley/server/openai_wire.hpp"

namespace parley::server {

class answer_collector {
 public:
  // Gathers from the user message `awaited_msg_id` on, in the root that takes it: `root_id` when
  // known (a dialog that goes on), else the root the message turns up in (a new one).
  answer_collector(std::string root_id, std::string awaited_msg_id);

  // Empty until the awaited message turned up in a new root.
  const std::string& root_id() const noexcept { return root_id_; }
  const std::string& awaited_msg_id() const noexcept { return awaited_msg_id_; }
  // The root of the awaited message, for a collector that did not know it.
  void attach(std::string root_id) { root_id_ = std::move(root_id); }
  void take_stream(const engine::stream_event& ev);
  void take_event(const event& ev);

  // The root's saying streamed and not yet taken, "\n\n" between generations that say something.
  std::string take_pending() { return std::exchange(pending_, {}); }
  bool has_pending() const noexcept { return !pending_.empty(); }
  // Whether the root streamed any saying for this request.
  bool streamed_any() const noexcept { return streamed_any_; }
  // The last non-empty saying of the root's generations since the request began.
  const std::string& final_saying() const noexcept { return final_saying_; }
  token_counts usage() const noexcept { return usage_; }
  // Why the root's drive failed (drive_failed), if it did.
  const std::optional<std::string>& failure() const noexcept { return failure_; }

  // Set once the tree is at rest (no drive queued or running), by whoever waits for that.
  void mark_settled();
  bool settled() const noexcept { return settled_; }
  // Wakes on the next change (text, settling). Check the state before waiting: a change that
  // came first does not wake a later wait.
  engine::async_signal& changed() noexcept { return changed_; }

 private:
  std::string root_id_;
  std::string awaited_msg_id_;
  bool active_ = false;
  std::string pending_;
  bool streamed_any_ = false;
  std::int64_t streaming_genseq_ = -1;
  std::string final_saying_;
  token_counts usage_;
  std::optional<std::string> failure_;
  bool settled_ = false;
  engine::async_signal changed_;
};

class openai_relay final : public engine::engine_observer {
 public:
  // Registers itself with `eng`, whose drives it must outlive.
  explicit openai_relay(engine::engine& eng);
  openai_relay(const openai_relay&) = delete;
  openai_relay& operator=(const openai_relay&) = delete;

  // While it lives, `collector` hears of its root's tree, from its awaited message on. It may
  // outlive the relay (a coroutine torn down at exit): it then lets go of nothing.
  class following {
   public:
    following() = default;
    following(following&& other) noexcept;
    following& operator=(following&& other) noexcept;
    following(const following&) = delete;
    ~following();

   private:
    friend class openai_relay;
    struct registry;
    void release() noexcept;
    following(std::weak_ptr<registry> owner, answer_collector* collector);
    std::weak_ptr<registry> owner_;
    answer_collector* collector_ = nullptr;
  };
  // Call before the awaited message is posted.
  [[nodiscard]] following follow(answer_collector& collector);

  // When this server began serving: the `created` of its model objects.
  std::int64_t started_at() const noexcept { return started_at_; }

  void on_stream(const engine::stream_event& ev) override;
  void on_event(const event& ev) override;

 private:
  std::shared_ptr<following::registry> registry_;
  std::int64_t started_at_;
};

}  // namespace parley::server

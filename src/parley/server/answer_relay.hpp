// What a request that waits for a root dialog's answer learns of the root's tree while it is
// answered — a chat completion (openai_chat_handler.hpp) or an MCP tool call (mcp_tool_calls.hpp):
// the engine reports every drive's stream and events to one observer, answer_relay, which hands
// those of a root's tree to the answer_collectors following that root.
//
// A collector starts with the input it waits for: the request's own user message, or its answer
// to a question of the tree (Q4H), whose msgId it made. Everything before that input is not this
// request's answer (a drive still under way for an earlier input), and a new root's drive may run
// before create_root_dialog returns to its caller, so a collector is followed from before the
// message is posted, by that id, and attached to the message's root when the message is staged.
// A collector given no id gathers from the moment it is followed (a caller that waits again).
//
// A collector only gathers: the root's saying as it streams and as it ends, the tokens of every
// model call in the tree, a failure of the root's drive. It wakes its handler through an
// async_signal, which resumes it later on the loop, never inside the engine's call.
#pragma once

#include <cstdint>
#include <functional>
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
  // Gathers from the input `awaited_msg_id` on (a user message in the root, or an answer to a
  // question anywhere in its tree), in the root that takes it: `root_id` when known (a dialog that
  // goes on), else the root the message turns up in (a new one). An empty id: from now on, in
  // `root_id`.
  answer_collector(std::string root_id, std::string awaited_msg_id);
  // Every event of the tree after the awaited input is also handed to the tap (progress reports),
  // which says whether the event wakes the waiter. The tap only records; it must not follow or
  // release collectors. Set before the input is posted, so that no event is missed.
  using event_tap = std::function<bool(const event&)>;
  void set_event_tap(event_tap tap) { tap_ = std::move(tap); }

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
  event_tap tap_;
};

class answer_relay final : public engine::engine_observer {
 public:
  // Registers itself with `eng`, whose drives it must outlive.
  explicit answer_relay(engine::engine& eng);
  answer_relay(const answer_relay&) = delete;
  answer_relay& operator=(const answer_relay&) = delete;

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
    friend class answer_relay;
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

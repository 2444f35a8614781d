#include "parley/server/answer_relay.hpp"

#include <vector>

#include "parley/core/time.hpp"

namespace parley::server {

answer_collector::answer_collector(std::string root_id, std::string awaited_msg_id)
    : root_id_(std::move(root_id)), awaited_msg_id_(std::move(awaited_msg_id)), active_(awaited_msg_id_.empty()) {}

void answer_collector::take_stream(const engine::stream_event& ev) {
  if (!active_ || ev.dialog_id != root_id_ || ev.kind != engine::stream_kind::saying_chunk || ev.text.empty()) return;
  // A later generation of the root that says more (after a tool call, a subdialog's reply) is set
  // off from what was said before, as two paragraphs.
  if (streamed_any_ && ev.genseq != streaming_genseq_) pending_ += "\n\n";
  streamed_any_ = true;
  streaming_genseq_ = ev.genseq;
  pending_ += ev.text;
  changed_.notify_all();
}

void answer_collector::take_event(const event& ev) {
  if (!active_) {
    // The answer to a question goes to the dialog that asked it, which may be a subdialog.
    const auto* input = ev.as<events::user_message>();
    const auto* answer = ev.as<events::question_answered>();
    active_ = (input != nullptr && ev.dialog_id == root_id_ && input->msg_id == awaited_msg_id_) ||
              (answer != nullptr && answer->msg_id == awaited_msg_id_);
    return;
  }
  if (tap_ && tap_(ev)) changed_.notify_all();
  if (const auto* finished = ev.as<events::generation_finished>()) {
    // Every model call of the tree counts, the subdialogs' too: they were made for this answer.
    usage_.prompt_tokens += finished->usage.input_tokens;
    usage_.completion_tokens += finished->usage.output_tokens;
    if (ev.dialog_id == root_id_ && !finished->saying.empty()) final_saying_ = finished->saying;
    return;
  }
  if (const auto* failed = ev.as<events::drive_failed>(); failed != nullptr && ev.dialog_id == root_id_) {
    failure_ = failed->message;
  }
}

void answer_collector::mark_settled() {
  settled_ = true;
  changed_.notify_all();
}

// The collectors by root, and those whose root is not known yet by the message they wait for.
// Shared with the `following` handles, which may outlive the relay.
struct answer_relay::following::registry {
  std::unordered_multimap<std::string, answer_collector*> by_root;
  std::unordered_map<std::string, answer_collector*> by_message;

  static void erase(std::unordered_multimap<std::string, answer_collector*>& map, const std::string& key,
                    const answer_collector* collector) {
    auto [first, last] = map.equal_range(key);
    for (auto it = first; it != last; ++it) {
      if (it->second == collector) {
        map.erase(it);
        return;
      }
    }
  }

  // A new root's first message: its collector follows that root from here on.
  void attach_waiting(const event& ev) {
    const auto* input = ev.as<events::user_message>();
    if (input == nullptr) return;
    const auto found = by_message.find(input->msg_id);
    if (found == by_message.end()) return;
    auto* collector = found->second;
    by_message.erase(found);
    collector->attach(ev.root_id);
    by_root.emplace(ev.root_id, collector);
  }
};

answer_relay::following::following(std::weak_ptr<registry> owner, answer_collector* collector)
    : owner_(std::move(owner)), collector_(collector) {}

answer_relay::following::following(following&& other) noexcept
    : owner_(std::move(other.owner_)), collector_(std::exchange(other.collector_, nullptr)) {}

answer_relay::following& answer_relay::following::operator=(following&& other) noexcept {
  if (this != &other) {
    release();
    owner_ = std::move(other.owner_);
    collector_ = std::exchange(other.collector_, nullptr);
  }
  return *this;
}

answer_relay::following::~following() { release(); }

void answer_relay::following::release() noexcept {
  const auto owner = owner_.lock();
  auto* collector = std::exchange(collector_, nullptr);
  if (owner == nullptr || collector == nullptr) return;
  if (collector->root_id().empty()) {
    owner->by_message.erase(collector->awaited_msg_id());
  } else {
    registry::erase(owner->by_root, collector->root_id(), collector);
  }
}

answer_relay::answer_relay(engine::engine& eng)
    : registry_(std::make_shared<following::registry>()), started_at_(now_ms() / 1000) {
  eng.add_observer(this);
}

answer_relay::following answer_relay::follow(answer_collector& collector) {
  if (collector.root_id().empty()) {
    registry_->by_message.emplace(collector.awaited_msg_id(), &collector);
  } else {
    registry_->by_root.emplace(collector.root_id(), &collector);
  }
  return following(registry_, &collector);
}

// Collectors only gather and post their wake-ups, so none leaves the map during these loops.
void answer_relay::on_stream(const engine::stream_event& ev) {
  if (registry_->by_root.empty()) return;
  auto [first, last] = registry_->by_root.equal_range(std::string(ev.root_id));
  for (auto it = first; it != last; ++it) it->second->take_stream(ev);
}

void answer_relay::on_event(const event& ev) {
  if (!registry_->by_message.empty()) registry_->attach_waiting(ev);
  if (registry_->by_root.empty()) return;
  auto [first, last] = registry_->by_root.equal_range(ev.root_id);
  for (auto it = first; it != last; ++it) it->second->take_event(ev);
}

}  // namespace parley::server

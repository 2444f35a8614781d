#include "parley/server/ws_outbound_queue.hpp"

#include <string_view>
#include <unordered_map>
#include <vector>

namespace parley::server {

outbound_queue::push_result outbound_queue::push(packet_ptr packet) {
  bytes_ += packet->json.size();
  items_.push_back(std::move(packet));
  if (!over()) return push_result::queued;
  coalesce();
  return over() ? push_result::overflow : push_result::coalesced;
}

packet_ptr outbound_queue::pop() {
  if (items_.empty()) return nullptr;
  auto packet = std::move(items_.front());
  items_.pop_front();
  bytes_ -= packet->json.size();
  return packet;
}

void outbound_queue::coalesce() {
  // Runs of chunks are grouped per dialog: a chunk joins the group of the previous packet of the
  // same dialog when that one is a chunk of the same segment. Packets of other dialogs in between
  // do not break a run (their order relative to this dialog does not matter); any other packet of
  // the same dialog does, so each dialog's events stay in order.
  std::vector<std::vector<packet_ptr>> groups;
  groups.reserve(items_.size());
  std::unordered_map<std::string_view, std::size_t> open_run;  // dialog → index of its chunk group
  for (auto& packet : items_) {
    const std::string_view dialog = packet->dialog_id;
    if (packet->chunk != chunk_segment::none) {
      if (const auto it = open_run.find(dialog); it != open_run.end()) {
        const auto& head = groups[it->second].front();
        if (head->chunk == packet->chunk && head->genseq == packet->genseq) {
          groups[it->second].push_back(std::move(packet));
          continue;
        }
      }
      groups.push_back({});
      groups.back().push_back(std::move(packet));
      open_run[dialog] = groups.size() - 1;
      continue;
    }
    if (!dialog.empty()) open_run.erase(dialog);
    groups.push_back({});
    groups.back().push_back(std::move(packet));
  }
  items_.clear();
  bytes_ = 0;
  for (const auto& group : groups) {
    auto merged = merge_chunks(group);
    bytes_ += merged->json.size();
    items_.push_back(std::move(merged));
  }
}

}  // namespace parley::server

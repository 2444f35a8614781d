#include "parley/engine/group_routing.hpp"

#include <algorithm>

namespace parley::engine {
namespace {

bool is_id_char(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

}  // namespace

std::string first_mention(std::string_view content, const std::vector<std::string>& candidates) {
  for (std::size_t at = content.find('@'); at != std::string_view::npos; at = content.find('@', at + 1)) {
    if (at > 0 && is_id_char(content[at - 1])) continue;
    std::size_t end = at + 1;
    while (end < content.size() && is_id_char(content[end])) ++end;
    const auto name = content.substr(at + 1, end - at - 1);
    if (std::find(candidates.begin(), candidates.end(), name) != candidates.end()) return std::string(name);
  }
  return {};
}

std::string responder_for(const dialog_row& root, std::string_view content) {
  if (auto mentioned = first_mention(content, root.members); !mentioned.empty()) return mentioned;
  // A LIO: the human talks to their own AIs, so someone always answers. A group of humans whose
  // AI hosts it (its member_id) hears from the host too; without a host nobody answers unasked.
  if (!root.members.empty()) return root.member_id;
  return {};
}

}  // namespace parley::engine

// store::dialog_heads for stores with no query that answers it at once: one read per dialog.
#include "parley/store/store.hpp"

namespace parley {

result<std::vector<std::pair<std::string, std::int64_t>>> store::dialog_heads(
    const std::vector<std::string>& dialog_ids) {
  std::vector<std::pair<std::string, std::int64_t>> heads;
  heads.reserve(dialog_ids.size());
  for (const auto& id : dialog_ids) {
    auto row = get_dialog(id);
    if (!row) return std::move(row).err();
    if (*row) heads.emplace_back(id, (*row)->last_seq);
  }
  return heads;
}

}  // namespace parley

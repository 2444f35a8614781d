// store::read_since for stores with no query that answers it at once: two reads per dialog.
#include "parley/store/store.hpp"

namespace parley {

result<std::vector<dialog_since>> store::read_since(const std::vector<std::pair<std::string, std::int64_t>>& watched) {
  std::vector<dialog_since> found;
  for (const auto& [id, after] : watched) {
    auto row = get_dialog(id);
    if (!row) return std::move(row).err();
    if (!*row) continue;
    auto events = read_events(id, after);
    if (!events) return std::move(events).err();
    found.push_back(dialog_since{std::move(**row), std::move(*events)});
  }
  return found;
}

}  // namespace parley

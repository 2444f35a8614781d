// store::count_dialogs for stores without an index to answer from: every row, counted.
#include "parley/store/store.hpp"

namespace parley {

result<dialog_counts> store::count_dialogs() {
  auto rows = list_dialogs(dialog_filter{});
  if (!rows) return std::move(rows).err();
  dialog_counts counts;
  for (const auto& row : *rows) counts.add(row.status);
  return counts;
}

}  // namespace parley

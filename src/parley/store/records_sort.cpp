#include "parley/store/records_sort.hpp"

#include <string>

namespace parley {

result<records_sort> records_sort_of(const records_filter& f, std::string_view fallback,
                                     std::initializer_list<std::string_view> allowed) {
  const std::string_view wanted = f.sort_by.empty() ? fallback : std::string_view(f.sort_by);
  for (const std::string_view name : allowed) {
    if (name == wanted) return records_sort{name, f.descending};
  }
  return make_error(errc::invalid_argument, "sort_by: unknown column " + std::string(wanted));
}

result<records_sort> dialogues_sort_of(const records_filter& f) {
  if (f.sort_by.empty()) return records_sort{"created_at", true};
  auto sort = records_sort_of(f, "created_at", {"created_at", "last_activity_at"});
  if (!sort) return std::move(sort).err();
  return *sort;
}

}  // namespace parley

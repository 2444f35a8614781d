#include "parley/store/sqlite/records_select.hpp"

#include "parley/store/records_sort.hpp"

namespace parley::sqlite {

result<std::string> order_by(const records_filter& f, std::string_view alias, std::string_view fallback,
                             std::initializer_list<std::string_view> allowed) {
  auto sort = records_sort_of(f, fallback, allowed);
  if (!sort) return std::move(sort).err();
  const char* direction = sort->descending ? " DESC" : " ASC";
  return " ORDER BY " + std::string(alias) + "." + std::string(sort->column) + direction + ", " + std::string(alias) +
         ".rowid" + direction;
}

}  // namespace parley::sqlite

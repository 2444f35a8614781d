#include "parley/store/sqlite/records_select.hpp"

namespace parley::sqlite {

result<std::string> order_by(const records_filter& f, std::string_view alias, std::string_view fallback,
                             std::initializer_list<std::string_view> allowed) {
  std::string_view column = f.sort_by.empty() ? fallback : std::string_view(f.sort_by);
  bool known = false;
  for (std::string_view name : allowed) known = known || name == column;
  if (!known) return make_error(errc::invalid_argument, "sort_by: unknown column " + std::string(column));
  const char* direction = f.descending ? " DESC" : " ASC";
  return " ORDER BY " + std::string(alias) + "." + std::string(column) + direction + ", " + std::string(alias) +
         ".rowid" + direction;
}

}  // namespace parley::sqlite

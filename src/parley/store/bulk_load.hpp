// How a command that writes a whole history once (`parley import --rtws`) opens the SQLite store so
// that its memory stays flat in the number of dialogs (bench/README.md "import"): the store's
// caches are sized for a server that comes back to the same dialogs, which a one-pass load never
// does. It keeps 64 dialogs in the writer's cache instead of 4,096 and gives the writer connection
// a 2 MiB page cache instead of 32 MiB (SQLite's own default size: each page is written once, in
// id order, and not read again).
#pragma once

#include <cstdint>

#include "parley/store/store.hpp"

namespace parley {

inline constexpr std::int64_t kBulkLoadCachedDialogs = 64;
inline constexpr std::int64_t kBulkLoadPageCacheKib = 2048;
inline constexpr std::int64_t kServingPageCacheKib = 32768;

// The options of the bulk load; call use_bulk_load_page_cache() before opening with them.
sqlite_options bulk_load_options();
// From now on this process opens SQLite writer connections with the bulk load's page cache. A
// process-wide setting rather than an option: only the one-shot commands that load call it, before
// they open their one store.
void use_bulk_load_page_cache();
// The page cache (KiB) a writer connection opened now gets.
std::int64_t writer_page_cache_kib();

}  // namespace parley

#include "parley/store/bulk_load.hpp"

#include <atomic>

namespace parley {

namespace {

std::atomic<std::int64_t> writer_page_cache_kib_now{kServingPageCacheKib};

}  // namespace

sqlite_options bulk_load_options() {
  sqlite_options options;
  options.cached_dialogs = kBulkLoadCachedDialogs;
  return options;
}

void use_bulk_load_page_cache() { writer_page_cache_kib_now.store(kBulkLoadPageCacheKib); }

std::int64_t writer_page_cache_kib() { return writer_page_cache_kib_now.load(); }

}  // namespace parley

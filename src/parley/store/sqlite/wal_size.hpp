// How large a durable store lets its WAL grow before a checkpoint, and so how much it reserves for
// it at open (sqlite_open.cpp): a quarter of the database, between 4 MiB and 64 MiB of pages.
// Fewer, larger checkpoints cost less per event on a big store, where a checkpoint's pages are
// spread over a big file; a fixed 64 MiB made an empty store take 64 MiB of disk for its WAL alone.
#pragma once

#include <algorithm>
#include <cstdint>

namespace parley::sqlite {

inline constexpr std::int64_t kMinWalPages = 1024;   // 4 MiB of 4 KiB pages
inline constexpr std::int64_t kMaxWalPages = 16384;  // 64 MiB

// The wal_autocheckpoint, in pages, for a database of `database_pages` pages.
constexpr std::int64_t wal_pages_for(std::int64_t database_pages) {
  return std::clamp(database_pages / 4, kMinWalPages, kMaxWalPages);
}

// A WAL of `pages` frames: a 32-byte header, then a 24-byte frame header and a page per page.
constexpr std::int64_t wal_bytes_for(std::int64_t pages, std::int64_t page_size) {
  return 32 + pages * (24 + page_size);
}

}  // namespace parley::sqlite

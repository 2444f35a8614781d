// A map from dialog id to what the writer thread keeps about that dialog (its latest row, its
// projected row, its records cursor), bounded by count: past `limit` entries, a trim keeps the
// most recently used three quarters and drops the rest, which are read from their table again if
// their dialog comes back. A server runs for months and a dialog is short-lived, so a cache that
// only grew (or was dropped whole at a high mark, as these were) held memory in proportion to
// history instead of to the work in flight (issue 25, `parley-bench soak`).
//
// The trim is amortized O(1) per insertion: it sorts partially over all entries, but only after
// a quarter of `limit` new ones. Entries have stable addresses until a trim or clear, so callers
// may keep pointers to them within one transaction and trim only once it has ended.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace parley::sqlite {

template <class Value>
class recency_cache {
 public:
  explicit recency_cache(std::size_t limit) : limit_(std::max<std::size_t>(limit, 1)) {}

  // The entry of `key`, marked as just used; nullptr when it is not cached.
  Value* find(const std::string& key) {
    const auto it = entries_.find(key);
    if (it == entries_.end()) return nullptr;
    it->second.last_used = ++clock_;
    return &it->second.value;
  }
  // The entry of `key`, made (value-initialized) if missing, marked as just used.
  Value& operator[](const std::string& key) {
    entry& e = entries_[key];
    e.last_used = ++clock_;
    return e.value;
  }
  // `value` is taken by reference and moved only after `key` is copied in: a caller may pass a key
  // that lives inside the value it moves (a row and its own id).
  template <class V>
  Value& insert_or_assign(const std::string& key, V&& value) {
    Value& slot = (*this)[key];
    slot = std::forward<V>(value);
    return slot;
  }

  // Past the limit, drops the least recently used entries down to three quarters of it.
  void trim() {
    if (entries_.size() <= limit_) return;
    const std::size_t keep = limit_ - limit_ / 4;
    std::vector<std::pair<std::uint64_t, const std::string*>> by_use;
    by_use.reserve(entries_.size());
    for (const auto& [key, e] : entries_) by_use.emplace_back(e.last_used, &key);
    const std::size_t drop = entries_.size() - keep;
    std::nth_element(by_use.begin(), by_use.begin() + static_cast<std::ptrdiff_t>(drop), by_use.end());
    // Copy the keys first: erasing an entry frees the key a pointer refers to.
    std::vector<std::string> dropped;
    dropped.reserve(drop);
    for (std::size_t i = 0; i < drop; ++i) dropped.push_back(*by_use[i].second);
    for (const auto& key : dropped) entries_.erase(key);
  }
  void clear() noexcept { entries_.clear(); }
  std::size_t size() const noexcept { return entries_.size(); }
  std::size_t limit() const noexcept { return limit_; }

 private:
  struct entry {
    Value value{};
    std::uint64_t last_used = 0;
  };
  std::unordered_map<std::string, entry> entries_;
  std::size_t limit_;
  std::uint64_t clock_ = 0;
};

}  // namespace parley::sqlite

// The SQLite writer keeps some state per dialog in memory (its latest row, its projected row, its
// records cursor) so that checking and projecting an event is a fold, not a read. A server runs
// for months: that state must stay bounded by count however many dialogs have come and gone
// (issue 25 item 1), and a dialog dropped from it must go on exactly as if it had stayed.
#include <gtest/gtest.h>

#include <string>

#include "parley/store/sqlite/recency_cache.hpp"
#include "sqlite_raw.hpp"
#include "store_scenarios.hpp"

namespace parley {
namespace {

using test::dialog_script;
using test::temp_dir;

std::unique_ptr<store> open_with_cache_of(const temp_dir& dir, std::int64_t cached_dialogs) {
  sqlite_options options;
  options.cached_dialogs = cached_dialogs;
  auto opened = open_sqlite_store(dir.str(), options);
  EXPECT_TRUE(opened) << opened.err().message;
  return opened ? std::move(*opened) : nullptr;
}

TEST(RecencyCache, PastItsLimitKeepsTheMostRecentlyUsedThreeQuarters) {
  sqlite::recency_cache<int> cache(8);
  for (int i = 0; i < 8; ++i) cache["k" + std::to_string(i)] = i;
  ASSERT_NE(cache.find("k0"), nullptr);  // k0 is now the most recently used
  cache.trim();
  EXPECT_EQ(cache.size(), 8U) << "at its limit nothing is dropped";
  cache["k8"] = 8;
  cache.trim();
  EXPECT_EQ(cache.size(), 6U);
  for (const char* kept : {"k0", "k8", "k7", "k6", "k5", "k4"}) EXPECT_NE(cache.find(kept), nullptr) << kept;
  for (const char* dropped : {"k1", "k2", "k3"}) EXPECT_EQ(cache.find(dropped), nullptr) << dropped;
}

TEST(RecencyCache, AValueMovedInUnderAKeyItHoldsIsKeptUnderThatKey) {
  struct row {
    std::string id;
  };
  sqlite::recency_cache<row> cache(4);
  row r{"dialog-with-a-long-id-beyond-small-strings"};
  cache.insert_or_assign(r.id, std::move(r));
  const row* found = cache.find("dialog-with-a-long-id-beyond-small-strings");
  ASSERT_NE(found, nullptr);
  EXPECT_EQ(found->id, "dialog-with-a-long-id-beyond-small-strings");
  EXPECT_EQ(cache.size(), 1U);
}

TEST(RecencyCache, StaysWithinItsLimitHoweverManyKeysPassThrough) {
  sqlite::recency_cache<std::string> cache(100);
  for (int i = 0; i < 100'000; ++i) {
    cache.insert_or_assign("dialog-" + std::to_string(i), "row");
    cache.trim();
    ASSERT_LE(cache.size(), 100U);
  }
}

TEST(StoreMemory, TheWritersPerDialogStateStaysBoundedByCountAfterManyDialogs) {
  temp_dir dir;
  auto s = open_with_cache_of(dir, 32);
  ASSERT_NE(s, nullptr);
  for (int i = 0; i < 400; ++i) {
    dialog_script d("d" + std::to_string(i), "d" + std::to_string(i));
    ASSERT_TRUE(test::append_sync(*s, test::realistic_dialog(d)));
    if (i % 50 == 0) s->flush();  // projections (and their caches) too, not only the log's
  }
  s->flush();
  const auto held = s->stats().cached_dialogs;
  EXPECT_GT(held, 0);
  EXPECT_LE(held, 32) << "400 dialogs passed through a cache of 32";
  EXPECT_EQ(test::query(dir.db_file(), "SELECT count(*) FROM dialogs").at(0).at(0), "400");
}

TEST(StoreMemory, ADialogDroppedFromTheCachesGoesOnAsIfItHadStayed) {
  temp_dir dir;
  auto s = open_with_cache_of(dir, 4);
  ASSERT_NE(s, nullptr);
  dialog_script early("early", "early");
  auto history = test::realistic_dialog(early);
  const std::vector<event> later(history.begin() + 6, history.end());
  history.resize(6);
  ASSERT_TRUE(test::append_sync(*s, history));
  // Enough other dialogs, some of them projected in between, to push `early` out of every cache.
  for (int i = 0; i < 40; ++i) {
    dialog_script d("d" + std::to_string(i), "d" + std::to_string(i));
    ASSERT_TRUE(test::append_sync(*s, test::realistic_dialog(d)));
    if (i % 10 == 0) s->flush();
  }
  // Its events are still checked against its state, read back from the tables: a gap is refused ...
  dialog_script gap("early", "early");
  for (std::size_t i = 0; i < 7; ++i) gap.skip_seq();
  EXPECT_FALSE(test::append_sync(*s, {gap.user("skips seq 7")}));
  // ... and its next events fit.
  ASSERT_TRUE(test::append_sync(*s, later));
  s->flush();
  const auto row = s->get_dialog("early");
  ASSERT_TRUE(row && *row);
  EXPECT_EQ((*row)->last_seq, 10);
  EXPECT_LE(s->stats().cached_dialogs, 4);

  const auto projected = test::dump_projections(dir.db_file());
  ASSERT_TRUE(s->rebuild_projections());
  EXPECT_EQ(test::dump_projections(dir.db_file()), projected);
}

}  // namespace
}  // namespace parley

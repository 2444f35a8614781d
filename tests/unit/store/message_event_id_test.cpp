// Schema version 22: a records message names its event by the log's row id (records_v22.hpp)
// instead of by (dialog_id, seq). A store written by version 21 answers every records route and
// every root listing by text the same after the migration, a rebuild of the projections gives the
// same rows, and every message the projector writes names the event it was made from.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "parley/store/root_listing.hpp"
#include "parley/store/sqlite/schema.hpp"
#include "records_route_answers.hpp"
#include "sqlite_raw.hpp"
#include "store_scenarios.hpp"
#include "store_test_support.hpp"

namespace parley {
namespace {

using test::answers_of;
using test::open_or_fail;
using test::route_answers;
using test::temp_dir;

constexpr const char* kMessageColumns =
    "SELECT group_concat(name, ',') FROM (SELECT name FROM pragma_table_info('message') WHERE name IN "
    "('dialog_id', 'seq', 'event_id') ORDER BY name)";

// The roots each listing by text finds (the indexed one for three characters or more, the scan
// below), page by page, with their totals.
std::vector<std::string> roots_mentioning(store& s, const std::vector<std::string>& texts) {
  std::vector<std::string> out;
  for (const std::string& text : texts) {
    root_listing listing;
    listing.text = text;
    listing.limit = 1000;
    listing.with_total = true;
    auto page = s.list_roots(listing);
    EXPECT_TRUE(page) << page.err().message;
    if (!page) continue;
    out.push_back(text + ": " + std::to_string(page->total.value_or(-1)));
    for (const dialog_row& row : page->rows) out.push_back(row.id);
  }
  return out;
}

// Texts that some human message of the store holds (and one no message holds).
std::vector<std::string> human_texts(const route_answers& answers) {
  std::vector<std::string> texts{"zzz-none"};
  for (const record_message& m : answers.messages) {
    if (m.sender_role != events::record_role::human || m.content.size() < 4) continue;
    texts.push_back(m.content.substr(0, 4));
    texts.push_back(m.content.substr(1, 2));
    if (texts.size() >= 7) break;
  }
  return texts;
}

TEST(MessageEventId, EveryMessageTheProjectorWritesNamesTheEventItWasMadeFrom) {
  temp_dir dir;
  {
    auto s = open_or_fail(dir);
    ASSERT_NE(s, nullptr);
    for (auto& batch : test::varied_history(37, 3, 20)) ASSERT_TRUE(test::append_sync(*s, std::move(batch)));
  }
  EXPECT_EQ(test::query(dir.db_file(), kMessageColumns), (test::table_dump{{"event_id"}}));
  const auto counts = test::query(dir.db_file(),
                                  "SELECT count(*), count(m.event_id), count(e.id) FROM message AS m "
                                  "LEFT JOIN events AS e ON e.id = m.event_id");
  ASSERT_NE(counts[0][0], "0");
  EXPECT_EQ(counts[0][1], counts[0][0]);
  EXPECT_EQ(counts[0][2], counts[0][0]);
  // The route answers the event's dialog and seq, and a message's text read from the log is its event's.
  auto opened = sqlite::records_reader::open(dir.db_file());
  ASSERT_TRUE(opened) << opened.err().message;
  records_filter all;
  all.limit = 100000;
  auto messages = (*opened)->messages(all);
  ASSERT_TRUE(messages) << messages.err().message;
  const auto pairs = test::query(dir.db_file(),
                                 "SELECT e.dialog_id, e.seq FROM message AS m JOIN events AS e ON e.id = m.event_id "
                                 "ORDER BY m.created_at, m.rowid");
  ASSERT_EQ(pairs.size(), messages->items.size());
  test::table_dump answered;
  for (const record_message& m : messages->items) answered.push_back({m.dialog_id, std::to_string(m.seq)});
  std::sort(answered.begin(), answered.end());
  auto sorted_pairs = pairs;
  std::sort(sorted_pairs.begin(), sorted_pairs.end());
  EXPECT_EQ(answered, sorted_pairs);
}

TEST(MessageEventId, AVersionTwentyOneStoreAnswersEveryRecordsRouteTheSameAfterTheMigrationAndAfterARebuild) {
  temp_dir dir;
  {
    auto s = open_or_fail(dir);
    ASSERT_NE(s, nullptr);
    for (auto& batch : test::varied_history(41, 4, 30)) ASSERT_TRUE(test::append_sync(*s, std::move(batch)));
  }
  const auto written = answers_of(dir);
  ASSERT_GE(written.messages.size(), 50U);
  const auto texts = human_texts(written);
  ASSERT_GE(texts.size(), 3U);
  std::vector<std::string> listed;
  {
    auto s = open_or_fail(dir);
    ASSERT_NE(s, nullptr);
    listed = roots_mentioning(*s, texts);
  }
  ASSERT_GT(listed.size(), texts.size());  // some root is found by a text
  const auto projections = test::dump_projections(dir.db_file());
  const auto search = test::query(dir.db_file(), "SELECT * FROM message_search ORDER BY message_rowid");
  const auto utterances = test::query(dir.db_file(), "SELECT * FROM system_utterance_log ORDER BY rowid");

  test::exec(dir.db_file(), test::back_to_version_twenty_one().c_str());
  test::exec(dir.db_file(), "DELETE FROM schema_version; INSERT INTO schema_version (version) VALUES (21);");
  EXPECT_EQ(test::query(dir.db_file(), kMessageColumns), (test::table_dump{{"dialog_id,seq"}}));
  // Version 21's layout answers the same: the pair names the same events.
  EXPECT_EQ(test::query(dir.db_file(), "SELECT * FROM message_search ORDER BY message_rowid"), search);

  auto s = open_or_fail(dir);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(test::query(dir.db_file(), "SELECT version FROM schema_version"),
            (test::table_dump{{std::to_string(sqlite::latest_schema_version())}}));
  EXPECT_EQ(test::query(dir.db_file(), kMessageColumns), (test::table_dump{{"event_id"}}));
  EXPECT_EQ(test::query(dir.db_file(), "SELECT count(*) FROM message WHERE event_id IS NULL"),
            (test::table_dump{{"0"}}));
  EXPECT_EQ(test::dump_projections(dir.db_file()), projections);
  EXPECT_EQ(test::query(dir.db_file(), "SELECT * FROM message_search ORDER BY message_rowid"), search);
  EXPECT_EQ(test::query(dir.db_file(), "SELECT * FROM system_utterance_log ORDER BY rowid"), utterances);
  EXPECT_TRUE(answers_of(dir) == written);
  EXPECT_EQ(roots_mentioning(*s, texts), listed);
  // The indexed listing agrees with the scan that reads every root's messages.
  for (const std::string& text : texts) {
    root_listing listing;
    listing.text = text;
    listing.limit = 1000;
    auto indexed = s->list_roots(listing);
    auto scanned = scan_roots(*s, listing);
    ASSERT_TRUE(indexed && scanned);
    std::vector<std::string> a, b;
    for (const auto& row : indexed->rows) a.push_back(row.id);
    for (const auto& row : scanned->rows) b.push_back(row.id);
    EXPECT_EQ(a, b) << text;
  }

  ASSERT_TRUE(s->rebuild_projections());
  EXPECT_EQ(test::dump_projections(dir.db_file()), projections);
  EXPECT_TRUE(answers_of(dir) == written);
  EXPECT_EQ(roots_mentioning(*s, texts), listed);
}

}  // namespace
}  // namespace parley

// Search over trigram indexes without positions (schema version 20, trigram_text.hpp) finds
// exactly what a phrase query of a `detail=full` trigram index — today's search, built here in
// the same test as the oracle — finds: over many texts and needles (ASCII, mixed case, CJK,
// Greek, Cyrillic and Latin-1 in both cases, quotes, `%`, `_`, `*`, FTS5 syntax, needles of one
// to many characters, one that only spans a word boundary).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "parley/store/sqlite/schema.hpp"
#include "parley/store/sqlite/sqlite_handle.hpp"
#include "parley/store/sqlite/sqlite_store.hpp"
#include "parley/store/sqlite/trigram_text.hpp"
#include "sqlite_raw.hpp"
#include "store_test_support.hpp"
#include "support/pg_test_schema.hpp"

namespace parley {
namespace {

using test::temp_dir;

const std::vector<std::string>& texts() {
  static const std::vector<std::string> all = {
      "Weather in Tokyo is sunny",
      "WEATHER REPORT: London, rainy",
      "the weatherman said \"maybe\"",
      "明天新加坡38°C，不需要带伞。",
      "新加坡的天气很热",
      "ΑΘΗΝΑ: καιρός ηλιόλουστος",
      "αθηνα και ΚΑΙΡΟΣ",
      "МОСКВА сегодня снег",
      "москва и Снег",
      "ÉCOLE Über straße ÇA",
      "école über STRASSE ça",
      "100% of 50_000 items * done",
      "a_b%c*d \"quoted\" (paren) NEAR AND OR NOT ^col:x {a b}",
      "split task 68 of 100",
      "sunny days",
      "ab",
      "x",
      "",
      "Tokyo\tweather\nnext line",
  };
  return all;
}

const std::vector<std::string>& needles() {
  static const std::vector<std::string> all = {
      // 1 and 2 characters: no trigram; a phrase of them finds nothing.
      "a", "W", "新", "ab", "Ok",
      // 3 characters and more, in every case.
      "wea", "WEA", "weather", "WeAtHeR", "tokyo", "TOKYO", "rainy", "sunny", "sun", "nny d", "y d", "新加坡", "加坡的",
      "明天新加坡38", "°C，", "αθη", "ΑΘΗΝΑ", "καιρός", "ΚΑΙΡΌΣ", "καιρος", "москва", "МОСКВА", "снег", "СНЕГ", "école",
      "ÉCOLE", "ecole", "über", "ÜBER", "straße", "STRASSE", "ça ", "ÇA",
      // Characters that are syntax somewhere: literal here.
      "100%", "% of", "50_000", "_00", "* d", "\"maybe\"", "\"quoted\"", "d \"q", "(paren)", "NEAR", "AND OR", "^col",
      "col:x", "{a b}", "a_b%c*d", "\"\"\"", "%%%", "___",
      // Across a word boundary only, and across a tab and a newline.
      "her rep", "yo\twe", "er\nne", "ask 68", "68 of",
      // Not there.
      "zzz", "weatherx", "tokyo is rainy"};
  return all;
}

std::string phrase_of(const std::string& needle) {
  std::string out = "\"";
  for (const char c : needle) {
    out += c;
    if (c == '"') out += '"';
  }
  return out + "\"";
}

std::set<std::int64_t> rowids(sqlite::statement& stmt, const std::string& bound) {
  std::set<std::int64_t> out;
  sqlite::reset_guard guard(stmt);
  stmt.bind_text(1, bound);
  for (;;) {
    auto row = stmt.step();
    EXPECT_TRUE(row) << row.err().message;
    if (!row || !*row) break;
    out.insert(stmt.int_at(0));
  }
  return out;
}

// The same texts in a `detail=full` index (today's) and in one without positions (schema 20's).
class trigram_search_fixture : public ::testing::Test {
 protected:
  void SetUp() override {
    auto opened = sqlite::connection::open_read_write(dir_.db_file());
    ASSERT_TRUE(opened) << opened.err().message;
    db_ = std::move(*opened);
    ASSERT_TRUE(db_.exec(
        "CREATE VIRTUAL TABLE reference USING fts5 (x, tokenize = 'trigram');"
        "CREATE VIRTUAL TABLE positionless USING fts5 (x, tokenize = 'trigram', detail = none, columnsize = 0);"));
    auto insert_reference = db_.prepare("INSERT INTO reference (rowid, x) VALUES (?1, ?2)", false);
    auto insert_positionless = db_.prepare("INSERT INTO positionless (rowid, x) VALUES (?1, ?2)", false);
    ASSERT_TRUE(insert_reference && insert_positionless);
    for (std::size_t i = 0; i < texts().size(); ++i) {
      for (sqlite::statement* insert : {&*insert_reference, &*insert_positionless}) {
        insert->bind_int(1, static_cast<std::int64_t>(i + 1));
        insert->bind_text(2, texts()[i]);
        ASSERT_TRUE(insert->run());
      }
    }
  }

  temp_dir dir_;
  sqlite::connection db_;
};
using TrigramSearch = trigram_search_fixture;

TEST_F(TrigramSearch, FindsExactlyTheRowsThePhraseOfAFullIndexFinds) {
  auto reference = db_.prepare("SELECT rowid FROM reference WHERE reference MATCH ?1", false);
  auto positionless = db_.prepare(
      "SELECT rowid FROM positionless WHERE positionless MATCH parley_trigram_match(?1) AND "
      "instr(parley_trigram_fold(x), parley_trigram_fold(?1)) > 0",
      false);
  ASSERT_TRUE(reference && positionless);
  std::size_t found_somewhere = 0;
  for (const std::string& needle : needles()) {
    const auto expected = rowids(*reference, phrase_of(needle));
    found_somewhere += expected.empty() ? 0 : 1;
    if (trigram_characters(needle) < 3) {
      EXPECT_TRUE(expected.empty()) << needle;  // the oracle's own rule for short needles
      continue;
    }
    EXPECT_EQ(rowids(*positionless, needle), expected) << "needle: " << needle;
  }
  // The needles are not all misses: most of them find rows, some several.
  EXPECT_GT(found_somewhere, needles().size() / 2);
}

TEST_F(TrigramSearch, FoldsCaseAsTheTokenizerDoesNotAsciiOnly) {
  auto folded = db_.prepare("SELECT parley_trigram_fold(?1)", false);
  ASSERT_TRUE(folded);
  const auto fold = [&](const std::string& text) {
    sqlite::reset_guard guard(*folded);
    folded->bind_text(1, text);
    EXPECT_TRUE(folded->step());
    return folded->text_at(0);
  };
  EXPECT_EQ(fold("WeAtHeR"), "weather");
  EXPECT_EQ(fold("ΑΘΗΝΑ ÉCOLE МОСКВА"), "αθηνα école москва");  // diacritics kept
  EXPECT_EQ(fold("新加坡"), "新加坡");
  EXPECT_EQ(fold("ab"), "ab");                     // shorter than a trigram still folds
  EXPECT_EQ(fold(std::string("A\0B", 3)), "a b");  // a NUL reads as the space the index has
}

// The store's two searches over its own indexes: the records' message search and the root
// listing's `q` (a root's title or its human messages).
TEST_F(TrigramSearch, TheStoresSearchAndRootListingFindWhatTheFullIndexFinds) {
  temp_dir store_dir;
  auto opened = open_sqlite_store(store_dir.str());
  ASSERT_TRUE(opened) << opened.err().message;
  auto& store = **opened;
  const std::size_t n = texts().size();
  // Root i is titled with text n-1-i and its human says text i.
  for (std::size_t i = 0; i < n; ++i) {
    const std::string id = "r" + std::to_string(i);
    std::vector<event> batch{
        test::make_event(id, id, 1, event_type::dialog_created,
                         {{"memberId", "alice"}, {"kind", "root"}, {"depth", 0}, {"title", texts()[n - 1 - i]}},
                         1'700'000'000'000 + static_cast<std::int64_t>(i))};
    if (!texts()[i].empty()) {
      batch.push_back(
          test::make_event(id, id, 2, event_type::user_message,
                           {{"course", 1}, {"content", texts()[i]}, {"msgId", "m" + id}, {"origin", "user"}},
                           1'700'000'000'000 + static_cast<std::int64_t>(i)));
    }
    ASSERT_TRUE(test::append_sync(store, std::move(batch)));
  }
  auto reference = db_.prepare("SELECT rowid FROM reference WHERE reference MATCH ?1", false);
  ASSERT_TRUE(reference);
  for (const std::string& needle : needles()) {
    const auto in_reference = rowids(*reference, phrase_of(needle));  // text i is rowid i + 1
    std::set<std::string> expected_messages;
    std::set<std::string> expected_roots;
    for (const std::int64_t rowid : in_reference) {
      const auto i = static_cast<std::size_t>(rowid - 1);
      expected_messages.insert(texts()[i]);
      expected_roots.insert("r" + std::to_string(i));          // its message
      expected_roots.insert("r" + std::to_string(n - 1 - i));  // its title
    }
    records_filter f;
    f.limit = 1000;
    auto found = store.records()->search(phrase_of(needle), f);
    ASSERT_TRUE(found) << needle << ": " << found.err().message;
    std::set<std::string> messages;
    for (const auto& m : found->items) messages.insert(m.content);
    EXPECT_EQ(messages, expected_messages) << "search: " << needle;
    if (trigram_characters(needle) < 3) continue;  // the listing scans for these, as before
    root_listing listing;
    listing.text = needle;
    listing.limit = 1000;
    auto page = store.list_roots(listing);
    ASSERT_TRUE(page) << needle << ": " << page.err().message;
    std::set<std::string> roots;
    for (const auto& row : page->rows) roots.insert(row.id);
    EXPECT_EQ(roots, expected_roots) << "listing: " << needle;
  }
  // Several words: the messages that hold every one of them, as the phrases together found.
  for (std::size_t k = 0; k + 1 < needles().size(); ++k) {
    const std::string& first = needles()[k];
    const std::string& second = needles()[k + 1];
    const std::string both = phrase_of(first) + " " + phrase_of(second);
    std::set<std::string> expected;
    for (const std::int64_t rowid : rowids(*reference, both)) expected.insert(texts()[rowid - 1]);
    records_filter f;
    f.limit = 1000;
    auto found = store.records()->search(both, f);
    ASSERT_TRUE(found) << both << ": " << found.err().message;
    std::set<std::string> messages;
    for (const auto& m : found->items) messages.insert(m.content);
    EXPECT_EQ(messages, expected) << "search: " << both;
  }
}

// A search finds its rows once and reads only the page's (select_page_found_once): every page, in
// either order and past the last match, has the total of all matches, and the pages together are
// the matches in the order asked, each once.
TEST_F(TrigramSearch, ASearchsPagesTogetherAreItsMatchesInOrderEachWithTheirTotal) {
  temp_dir store_dir;
  auto opened = open_sqlite_store(store_dir.str());
  ASSERT_TRUE(opened) << opened.err().message;
  auto& store = **opened;
  // Seven messages say "load" (two in capitals, one inside a word) among others that do not,
  // though some hold its trigrams ("loaf road" has "loa" and "oad").
  const std::vector<std::string> said = {"load 1", "loaf road", "LOAD 2", "unloading 3", "nothing",
                                         "load 4", "a Load 5",  "road",   "load 6",      "reload 7"};
  for (std::size_t i = 0; i < said.size(); ++i) {
    const std::string id = "p" + std::to_string(i);
    ASSERT_TRUE(test::append_sync(
        store, {test::make_event(id, id, 1, event_type::dialog_created,
                                 {{"memberId", "alice"}, {"kind", "root"}, {"depth", 0}}, 1'700'000'000'000),
                test::make_event(id, id, 2, event_type::user_message,
                                 {{"course", 1}, {"content", said[i]}, {"msgId", "m" + id}, {"origin", "user"}},
                                 1'700'000'000'000 + static_cast<std::int64_t>(i))}));
  }
  const std::vector<std::string> matches = {"load 1",   "LOAD 2", "unloading 3", "load 4",
                                            "a Load 5", "load 6", "reload 7"};
  for (const bool descending : {false, true}) {
    std::vector<std::string> paged;
    for (std::int64_t offset = 0; offset <= 8; offset += 3) {
      records_filter f;
      f.limit = 3;
      f.offset = offset;
      f.descending = descending;
      auto page = store.records()->search(phrase_of("load"), f);
      ASSERT_TRUE(page) << page.err().message;
      EXPECT_EQ(page->total, 7) << "offset " << offset;
      EXPECT_EQ(page->items.size(), static_cast<std::size_t>(std::clamp<std::int64_t>(7 - offset, 0, 3)));
      for (const auto& m : page->items) paged.push_back(m.content);
    }
    auto expected = matches;
    if (descending) std::reverse(expected.begin(), expected.end());
    EXPECT_EQ(paged, expected) << (descending ? "newest first" : "oldest first");
  }
}

std::set<std::string> texts_of(sqlite::connection& db, const std::string& sql, const std::string& bound) {
  auto stmt = db.prepare(sql, false);
  EXPECT_TRUE(stmt) << stmt.err().message;
  std::set<std::string> out;
  if (!stmt) return out;
  stmt->bind_text(1, bound);
  for (auto row = stmt->step(); row && *row; row = stmt->step()) out.insert(stmt->text_at(0));
  return out;
}

// The two indexes as schema version 17 had them (detail=full), filled as it filled them.
constexpr const char* kBackToVersion17 = R"sql(
DROP TABLE message_fts;
CREATE VIRTUAL TABLE message_fts USING fts5 (content, content = 'message_search', content_rowid = 'message_rowid',
                                             tokenize = 'trigram');
INSERT INTO message_fts (rowid, content) SELECT message_rowid, parley_indexed_text(content) FROM message_search;
DROP TABLE root_title_fts;
CREATE VIRTUAL TABLE root_title_fts USING fts5 (title, dialog_id UNINDEXED, tokenize = 'trigram');
INSERT INTO root_title_fts (title, dialog_id) SELECT title, id FROM dialogs WHERE parent_id = '' AND title != '';
UPDATE schema_version SET version = 17;
)sql";

// Version 17's queries: a phrase of each index, as the listing and the records search asked them.
constexpr const char* kMessagesByPhrase =
    "SELECT record_id_text(id) FROM message WHERE rowid IN (SELECT rowid FROM message_fts WHERE message_fts MATCH ?1)";
constexpr const char* kRootsByPhrase =
    "SELECT dialog_id FROM root_title_fts WHERE root_title_fts MATCH ?1 UNION SELECT (SELECT d.id FROM event_log AS l "
    "JOIN dialog_keys AS d ON d.key = l.dialog_key WHERE l.id = m.event_id) FROM message AS m "
    "WHERE m.rowid IN (SELECT rowid FROM message_fts WHERE message_fts MATCH ?1) AND m.sender_role = 'human'";

TEST_F(TrigramSearch, AVersion17StoreAnswersTheSameSearchesAfterItsMigration) {
  temp_dir store_dir;
  const std::size_t n = texts().size();
  {
    auto opened = open_sqlite_store(store_dir.str());
    ASSERT_TRUE(opened) << opened.err().message;
    for (std::size_t i = 0; i < n; ++i) {
      const std::string id = "r" + std::to_string(i);
      std::vector<event> batch{
          test::make_event(id, id, 1, event_type::dialog_created,
                           {{"memberId", "alice"}, {"kind", "root"}, {"depth", 0}, {"title", texts()[(i + 3) % n]}},
                           1'700'000'000'000 + static_cast<std::int64_t>(i))};
      batch.push_back(test::make_event(id, id, 2, event_type::user_message,
                                       {{"course", 1},
                                        {"content", texts()[i] + " / " + texts()[(i + 1) % n]},
                                        {"msgId", "m" + id},
                                        {"origin", "user"}},
                                       1'700'000'000'000 + static_cast<std::int64_t>(i)));
      ASSERT_TRUE(test::append_sync(**opened, std::move(batch)));
    }
  }
  std::vector<std::set<std::string>> messages_before;
  std::vector<std::set<std::string>> roots_before;
  {
    auto db = sqlite::connection::open_read_write(store_dir.db_file());
    ASSERT_TRUE(db) << db.err().message;
    auto downgraded = db->exec(kBackToVersion17);
    ASSERT_TRUE(downgraded) << downgraded.err().message;
    for (const std::string& needle : needles()) {
      messages_before.push_back(texts_of(*db, kMessagesByPhrase, phrase_of(needle)));
      roots_before.push_back(texts_of(*db, kRootsByPhrase, phrase_of(needle)));
    }
  }
  auto reopened = open_sqlite_store(store_dir.str());  // migrates to version 20
  ASSERT_TRUE(reopened) << reopened.err().message;
  auto& store = **reopened;
  store.flush();
  EXPECT_EQ(test::query(store_dir.db_file(), "SELECT version FROM schema_version"),
            (test::table_dump{{std::to_string(sqlite::latest_schema_version())}}));
  EXPECT_EQ(test::query(store_dir.db_file(),
                        "SELECT name FROM sqlite_master WHERE name IN ('message_fts', 'root_title_fts') AND "
                        "sql LIKE '%detail = none%' AND sql LIKE '%columnsize = 0%' ORDER BY name"),
            (test::table_dump{{"message_fts"}, {"root_title_fts"}}));
  std::size_t found_somewhere = 0;
  for (std::size_t k = 0; k < needles().size(); ++k) {
    const std::string& needle = needles()[k];
    records_filter f;
    f.limit = 1000;
    auto found = store.records()->search(phrase_of(needle), f);
    ASSERT_TRUE(found) << needle << ": " << found.err().message;
    std::set<std::string> messages;
    for (const auto& m : found->items) messages.insert(m.id);
    EXPECT_EQ(messages, messages_before[k]) << "search: " << needle;
    found_somewhere += messages.empty() ? 0 : 1;
    if (trigram_characters(needle) < 3) continue;  // the listing scans for these, as before
    root_listing listing;
    listing.text = needle;
    listing.limit = 1000;
    auto page = store.list_roots(listing);
    ASSERT_TRUE(page) << needle << ": " << page.err().message;
    std::set<std::string> roots;
    for (const auto& row : page->rows) roots.insert(row.id);
    EXPECT_EQ(roots, roots_before[k]) << "listing: " << needle;
  }
  EXPECT_GT(found_somewhere, needles().size() / 2);
}

// Root i, titled with text n-1-i, whose human says text i (when it is not empty).
void append_texts(store& s) {
  const std::size_t n = texts().size();
  for (std::size_t i = 0; i < n; ++i) {
    const std::string id = "r" + std::to_string(i);
    const auto at = 1'700'000'000'000 + static_cast<std::int64_t>(i);
    std::vector<event> batch{test::make_event(id, id, 1, event_type::dialog_created,
                                              {{"memberId", "alice"}, {"kind", "root"}, {"depth", 0}}, at)};
    if (!texts()[i].empty()) {
      batch.push_back(
          test::make_event(id, id, 2, event_type::user_message,
                           {{"course", 1}, {"content", texts()[i]}, {"msgId", "m" + id}, {"origin", "user"}}, at));
    }
    ASSERT_TRUE(test::append_sync(s, std::move(batch)));
  }
}

// The texts of the messages `match` finds in `s`.
std::set<std::string> found_texts(store& s, const std::string& match) {
  records_filter f;
  f.limit = 1000;
  auto found = s.records()->search(match, f);
  EXPECT_TRUE(found) << match << ": " << found.err().message;
  std::set<std::string> out;
  if (found) {
    for (const auto& m : found->items) out.insert(m.content);
  }
  return out;
}

// The PostgreSQL store searches with pg_trgm (a trigram index of the lowercased text, and LIKE):
// it finds what the phrases of a full FTS5 trigram index find — the same case folding beyond ASCII,
// the same rule for phrases under three characters, every syntax character literal — one phrase
// at a time and several together.
TEST_F(TrigramSearch, ThePostgresStoresSearchFindsWhatTheFullIndexFinds) {
  const std::string url = test::pg_fresh_schema_url();
  ASSERT_FALSE(url.empty());
  auto opened = open_postgres_store(url);
  ASSERT_TRUE(opened) << opened.err().message;
  auto& store = **opened;
  append_texts(store);
  auto reference = db_.prepare("SELECT rowid FROM reference WHERE reference MATCH ?1", false);
  ASSERT_TRUE(reference);
  const auto expected_texts = [&](const std::string& match) {
    std::set<std::string> out;
    for (const std::int64_t rowid : rowids(*reference, match)) out.insert(texts()[rowid - 1]);  // text i: rowid i+1
    return out;
  };
  std::size_t found_somewhere = 0;
  for (const std::string& needle : needles()) {
    const auto expected = expected_texts(phrase_of(needle));
    found_somewhere += expected.empty() ? 0 : 1;
    EXPECT_EQ(found_texts(store, phrase_of(needle)), expected) << "search: " << needle;
  }
  EXPECT_GT(found_somewhere, needles().size() / 2);
  for (std::size_t k = 0; k + 1 < needles().size(); ++k) {
    const std::string both = phrase_of(needles()[k]) + " " + phrase_of(needles()[k + 1]);
    EXPECT_EQ(found_texts(store, both), expected_texts(both)) << "search: " << both;
  }
}

TEST(TrigramMatch, QuotesEachTrigramSoNoInputBecomesSyntax) {
  EXPECT_EQ(sqlite::trigram_match_of("ab"), "");
  EXPECT_EQ(sqlite::trigram_match_of("abc"), "\"abc\"");
  EXPECT_EQ(sqlite::trigram_match_of("abcd"), "\"abc\" AND \"bcd\"");
  EXPECT_EQ(sqlite::trigram_match_of("abcdef"), "\"abc\" AND \"def\"");
  EXPECT_EQ(sqlite::trigram_match_of("abcdefgh"), "\"abc\" AND \"def\" AND \"fgh\"");
  EXPECT_EQ(sqlite::trigram_match_of("a\"b*"), "\"a\"\"b\" AND \"\"\"b*\"");
  EXPECT_EQ(sqlite::trigram_match_of("新加坡的"), "\"新加坡\" AND \"加坡的\"");
  EXPECT_EQ(trigram_characters("新加坡"), 3U);
}

TEST(TrigramMatch, PhrasesAreReadBackAndAnythingElseIsRefused) {
  auto words = phrases_of("\"tokyo\" \"a\"\"b\"");
  ASSERT_TRUE(words) << words.err().message;
  EXPECT_EQ(*words, (std::vector<std::string>{"tokyo", "a\"b"}));
  for (const char* bad : {"", "tokyo", "\"tokyo", "\"a\"  \"b\"", "\"a\"x", "\"a\" OR \"b\""}) {
    auto refused = phrases_of(bad);
    ASSERT_FALSE(refused) << bad;
    EXPECT_EQ(refused.err().code, errc::invalid_argument) << bad;
    EXPECT_NE(refused.err().message.find("match:"), std::string::npos) << refused.err().message;
  }
}

}  // namespace
}  // namespace parley

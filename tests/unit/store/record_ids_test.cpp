// Schema version 19: the records' UUID ids stored as 16 bytes (record_id.hpp). A store written
// with text ids (version 18) answers every records route the same after the migration, ids and a
// turn's `respondedBy` included; a rebuild of the projections gives the same rows; an id that is
// not a canonical UUID stays the text it is; and an unknown or malformed id still finds nothing.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "parley/store/sqlite/record_id.hpp"
#include "parley/store/sqlite/records_reader.hpp"
#include "parley/store/sqlite/schema.hpp"
#include "parley/store/sqlite/sqlite_handle.hpp"
#include "records_v21_form.hpp"
#include "sqlite_raw.hpp"
#include "store_scenarios.hpp"
#include "store_test_support.hpp"

namespace parley {
namespace {

using test::temp_dir;

constexpr std::string_view kUuid = "01a21b4c-4e06-8c0d-80df-00faed1fd5dc";

TEST(RecordIdBytes, ACanonicalUuidIsItsSixteenBytesAndComesBackAsTheSameText) {
  const auto bytes = sqlite::canonical_uuid_bytes(kUuid);
  ASSERT_TRUE(bytes);
  EXPECT_EQ((*bytes)[0], 0x01);
  EXPECT_EQ((*bytes)[15], 0xdc);
  EXPECT_EQ(sqlite::uuid_text_of(*bytes), kUuid);
}

TEST(RecordIdBytes, AnyOtherTextIsNotConverted) {
  for (const std::string_view other : {std::string_view("01A21B4C-4E06-8C0D-80DF-00FAED1FD5DC"), std::string_view("g1"),
                                       std::string_view(""), std::string_view("01a21b4c-4e06-8c0d-80df-00faed1fd5d"),
                                       std::string_view("01a21b4c-4e06-8c0d-80df-00faed1fd5dcc"),
                                       std::string_view("01a21b4c_4e06-8c0d-80df-00faed1fd5dc"),
                                       std::string_view("01a21b4c-4e06-8c0d-80df-00faed1fd5dg"),
                                       std::string_view("01a21b4c4e068c0d80df00faed1fd5dc0000")}) {
    EXPECT_FALSE(sqlite::canonical_uuid_bytes(other)) << other;
  }
}

TEST(RecordIdBytes, TheSqlFunctionsConvertOnlyCanonicalUuidsAndRoundTripEverything) {
  temp_dir dir;
  const std::string uuid(kUuid);
  EXPECT_EQ(test::query(dir.db_file(), "SELECT typeof(record_id_blob('" + uuid + "')), length(record_id_blob('" + uuid +
                                           "')), record_id_text(record_id_blob('" + uuid + "'))"),
            (test::table_dump{{"blob", "16", uuid}}));
  // Uppercase, legacy and empty ids, NULL and numbers pass through both ways unchanged.
  EXPECT_EQ(test::query(dir.db_file(),
                        "SELECT typeof(record_id_blob(x)), record_id_text(record_id_blob(x)) IS x FROM (SELECT "
                        "'01A21B4C-4E06-8C0D-80DF-00FAED1FD5DC' AS x UNION ALL SELECT 'g1' UNION ALL SELECT '' "
                        "UNION ALL SELECT NULL UNION ALL SELECT 7) ORDER BY 1"),
            (test::table_dump{{"integer", "1"}, {"null", "1"}, {"text", "1"}, {"text", "1"}, {"text", "1"}}));
  // A blob of another length is not an id of ours: it is given back as it is.
  EXPECT_EQ(test::query(dir.db_file(), "SELECT typeof(record_id_text(x'0102')), hex(record_id_text(x'0102'))"),
            (test::table_dump{{"blob", "0102"}}));
}

// Everything the records routes answer, by every id the store holds.
struct route_answers {
  std::vector<record_dialogue> dialogues;
  std::vector<record_session> sessions;
  std::vector<record_turn> turns;
  std::vector<record_message> messages;
  std::vector<record_system_utterance> utterances;
  std::vector<record_memory_link> links;
  std::vector<record_memory_entry> memories;
  std::vector<std::string> linked;
  std::vector<std::int64_t> totals;
  std::vector<std::string> pending;
  bool operator==(const route_answers&) const = default;
};

template <class Row>
void add_page(route_answers& out, std::vector<Row>& into, const result<records_page<Row>>& page) {
  ASSERT_TRUE(page) << page.err().message;
  out.totals.push_back(page->total);
  into.insert(into.end(), page->items.begin(), page->items.end());
}

route_answers answers_of(const temp_dir& dir) {
  route_answers out;
  auto opened = sqlite::records_reader::open(dir.db_file());
  EXPECT_TRUE(opened) << opened.err().message;
  if (!opened) return out;
  auto& reader = **opened;
  records_filter all;
  all.limit = 100000;
  auto messages = reader.messages(all);
  auto turns = reader.turns(all);
  auto sessions = reader.sessions(all);
  auto roots = reader.dialogues(all);
  add_page(out, out.messages, messages);
  add_page(out, out.turns, turns);
  add_page(out, out.sessions, sessions);
  add_page(out, out.dialogues, roots);
  add_page(out, out.messages, reader.search("\"the\"", all));
  if (!messages || !turns || !sessions) return out;
  for (const auto& m : messages->items) {
    auto one = reader.message(m.id);
    EXPECT_TRUE(one && one->has_value()) << m.id;
    if (one && *one) out.messages.push_back(**one);
    auto d = reader.dialogue(m.dialogue_id);
    EXPECT_TRUE(d && d->has_value()) << m.dialogue_id;
    if (d && *d) out.dialogues.push_back(**d);
  }
  for (const auto& s : sessions->items) {
    auto one = reader.session(s.id);
    EXPECT_TRUE(one && one->has_value()) << s.id;
    if (one && *one) out.sessions.push_back(**one);
    records_filter by_session = all;
    by_session.session_id = s.id;
    add_page(out, out.messages, reader.messages(by_session));
    add_page(out, out.turns, reader.turns(by_session));
  }
  for (const auto& t : turns->items) {
    auto one = reader.turn(t.id);
    EXPECT_TRUE(one && one->has_value()) << t.id;
    if (one && *one) out.turns.push_back(**one);
    records_filter by_turn = all;
    by_turn.turn_id = t.id;
    add_page(out, out.messages, reader.messages(by_turn));
    add_page(out, out.utterances, reader.system_utterances(by_turn));
    auto links = reader.memory_links(t.id);
    EXPECT_TRUE(links) << links.err().message;
    if (links) out.links.insert(out.links.end(), links->begin(), links->end());
    records_filter by_dialogue = all;
    by_dialogue.dialogue_id = t.dialogue_id;
    add_page(out, out.sessions, reader.sessions(by_dialogue));
    add_page(out, out.turns, reader.turns(by_dialogue));
    add_page(out, out.messages, reader.messages(by_dialogue));
    add_page(out, out.utterances, reader.system_utterances(by_dialogue));
    auto linked = reader.linked_memories(t.dialogue_id);
    EXPECT_TRUE(linked) << linked.err().message;
    if (linked) out.linked.insert(out.linked.end(), linked->begin(), linked->end());
  }
  for (const auto& memory_id : out.linked) {
    auto memory = reader.memory_entry(memory_id);
    EXPECT_TRUE(memory && memory->has_value()) << memory_id;
    if (memory && *memory) out.memories.push_back(**memory);
  }
  auto pending = reader.pending_turns();
  EXPECT_TRUE(pending) << pending.err().message;
  if (pending) {
    for (const auto& p : *pending)
      out.pending.push_back(p.dialog_id + " " + p.turn_id + " " + std::to_string(p.deadline_ms));
  }
  return out;
}

std::unique_ptr<store> open_or_fail(const temp_dir& dir) {
  auto s = open_sqlite_store(dir.str());
  EXPECT_TRUE(s) << s.err().message;
  return s ? std::move(*s) : nullptr;
}

// What version 18 stored: every id as its text (and `courses` a table, which version 21 makes a view).
constexpr const char* kBackToVersionEighteen = R"sql(
UPDATE dialogue SET id = record_id_text(id), relation_id = record_id_text(relation_id);
UPDATE session SET id = record_id_text(id);
UPDATE turn SET id = record_id_text(id);
UPDATE turn SET metadata = '{"respondedBy":' || json_quote((SELECT record_id_text(m.id) FROM message AS m
  WHERE m.rowid = turn.responded_by)) || '}' WHERE responded_by IS NOT NULL;
ALTER TABLE turn DROP COLUMN responded_by;
UPDATE message SET id = record_id_text(id);
UPDATE message_embedding SET message_id = record_id_text(message_id);
UPDATE introspection_turn SET id = record_id_text(id), session_id = record_id_text(session_id),
  dialogue_id = record_id_text(dialogue_id);
UPDATE memory_entry SET id = record_id_text(id), dialogue_id = record_id_text(dialogue_id),
  source_turn_id = record_id_text(source_turn_id);
UPDATE memory_links SET turn_id = record_id_text(turn_id), memory_id = record_id_text(memory_id);
CREATE TEMP TABLE courses_rows AS SELECT * FROM courses;
DROP VIEW courses;
CREATE TABLE courses (dialog_id TEXT NOT NULL, course INTEGER NOT NULL, started_at_ms INTEGER NOT NULL,
  PRIMARY KEY (dialog_id, course)) WITHOUT ROWID;
INSERT INTO courses SELECT * FROM courses_rows;
DELETE FROM schema_version;
INSERT INTO schema_version (version) VALUES (18);
)sql";

constexpr const char* kBlobIds =
    "SELECT (SELECT count(*) FROM dialogue WHERE typeof(id) = 'blob'), (SELECT count(*) FROM dialogue WHERE "
    "typeof(relation_id) = 'blob'), (SELECT count(*) FROM session WHERE typeof(id) = 'blob'), (SELECT count(*) FROM "
    "turn WHERE typeof(id) = 'blob'), (SELECT count(*) FROM message WHERE typeof(id) = 'blob'), (SELECT count(*) FROM "
    "memory_links WHERE typeof(memory_id) = 'blob')";

TEST(RecordIds, AVersionEighteenStoreAnswersEveryRecordsRouteTheSameAfterTheMigrationAndAfterARebuild) {
  temp_dir dir;
  {
    auto s = open_or_fail(dir);
    ASSERT_NE(s, nullptr);
    for (auto& batch : test::varied_history(29, 4, 30)) ASSERT_TRUE(test::append_sync(*s, std::move(batch)));
  }
  // Memory entries of a turn, one with a UUID id and one with an id of another shape (no event of
  // this history makes one). Both links have the same time: their order is their ids' text order.
  test::exec(dir.db_file(),
             "INSERT INTO memory_entry (id, dialogue_id, content, created_at, source_turn_id) "
             "SELECT record_id_blob('01a21b4c-4e06-8c0d-80df-00faed1fd5dc'), d.id, 'a fact', 5, t.id "
             "FROM turn AS t JOIN dialogue AS d ON d.rowid = t.dialogue_rowid ORDER BY t.rowid LIMIT 1;"
             "INSERT INTO memory_entry (id, dialogue_id, content, created_at) "
             "SELECT 'Legacy-Memory', dialogue_id, 'another', 6 FROM memory_entry;"
             "INSERT INTO memory_links (turn_id, memory_id, relation, created_at) "
             "SELECT source_turn_id, id, 'generated', 7 FROM memory_entry WHERE source_turn_id IS NOT NULL;"
             "INSERT INTO memory_links (turn_id, memory_id, relation, created_at) "
             "SELECT l.turn_id, 'Legacy-Memory', 'related', 7 FROM memory_links AS l;");
  const auto written = answers_of(dir);
  ASSERT_GE(written.messages.size(), 50U);
  ASSERT_FALSE(written.turns.empty());
  ASSERT_EQ(written.links.size(), 2U);
  ASSERT_EQ(written.memories.size(), 2U);
  EXPECT_EQ(written.memories[0].id, "01a21b4c-4e06-8c0d-80df-00faed1fd5dc");
  EXPECT_EQ(written.memories[1].id, "Legacy-Memory");
  EXPECT_EQ(written.messages[0].id.size(), 36U);
  const auto projections = test::dump_projections(dir.db_file());
  const auto blob_ids = test::query(dir.db_file(), kBlobIds);
  EXPECT_EQ(blob_ids[0][0], test::query(dir.db_file(), "SELECT count(*) FROM dialogue")[0][0]);
  EXPECT_EQ(blob_ids[0][4], test::query(dir.db_file(), "SELECT count(*) FROM message")[0][0]);
  EXPECT_NE(blob_ids[0][1], "0");  // the subdialogs' relation_id
  // A turn answered by a message names it by rowid, and reads back as the reducer wrote it.
  const auto answered =
      test::query(dir.db_file(), "SELECT count(*) FROM turn WHERE responded_by IS NOT NULL AND metadata = ''");
  EXPECT_NE(answered[0][0], "0");
  std::size_t responded = 0;
  for (const auto& t : written.turns) {
    if (t.metadata.starts_with(R"({"respondedBy":")")) {
      ++responded;
      EXPECT_EQ(t.metadata.size(), 54U) << t.metadata;
    }
  }
  EXPECT_GT(responded, 0U);

  test::exec(dir.db_file(), test::back_to_version_twenty_one_records_sql().c_str());
  test::exec(dir.db_file(), kBackToVersionEighteen);
  EXPECT_EQ(test::query(dir.db_file(), kBlobIds), (test::table_dump{{"0", "0", "0", "0", "0", "0"}}));
  EXPECT_EQ(test::query(dir.db_file(), "SELECT count(*) FROM pragma_table_info('turn') WHERE name = 'responded_by'"),
            (test::table_dump{{"0"}}));

  auto s = open_or_fail(dir);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(test::query(dir.db_file(), "SELECT version FROM schema_version"),
            (test::table_dump{{std::to_string(sqlite::latest_schema_version())}}));
  EXPECT_EQ(test::query(dir.db_file(), kBlobIds), blob_ids);
  EXPECT_EQ(test::dump_projections(dir.db_file()), projections);
  EXPECT_TRUE(answers_of(dir) == written);

  ASSERT_TRUE(s->rebuild_projections());
  EXPECT_EQ(test::dump_projections(dir.db_file()), projections);
  auto rebuilt = answers_of(dir);
  // The memory rows are no projection of the log: a rebuild leaves none.
  auto expected = written;
  expected.links.clear();
  expected.memories.clear();
  expected.linked.clear();
  EXPECT_TRUE(rebuilt == expected);
}

TEST(RecordIds, AnUnknownOrMalformedIdStillFindsNothing) {
  temp_dir dir;
  {
    auto s = open_or_fail(dir);
    ASSERT_NE(s, nullptr);
    for (auto& batch : test::varied_history(31, 2, 5)) ASSERT_TRUE(test::append_sync(*s, std::move(batch)));
  }
  auto opened = sqlite::records_reader::open(dir.db_file());
  ASSERT_TRUE(opened) << opened.err().message;
  auto& reader = **opened;
  records_filter all;
  auto messages = reader.messages(all);
  ASSERT_TRUE(messages && !messages->items.empty());
  const record_message& known = messages->items.front();
  std::string upper = known.id;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (const std::string& id : {upper, std::string(kUuid), std::string("not-a-uuid"), std::string("")}) {
    auto message = reader.message(id);
    ASSERT_TRUE(message) << message.err().message;
    EXPECT_FALSE(message->has_value()) << id;
    auto turn = reader.turn(id);
    ASSERT_TRUE(turn) << turn.err().message;
    EXPECT_FALSE(turn->has_value()) << id;
    auto session = reader.session(id);
    ASSERT_TRUE(session) << session.err().message;
    EXPECT_FALSE(session->has_value()) << id;
    auto dialogue = reader.dialogue(id);
    ASSERT_TRUE(dialogue) << dialogue.err().message;
    EXPECT_FALSE(dialogue->has_value()) << id;
    if (id.empty()) continue;  // an empty filter is no filter
    records_filter by_turn;
    by_turn.turn_id = id;
    auto none = reader.messages(by_turn);
    ASSERT_TRUE(none) << none.err().message;
    EXPECT_EQ(none->total, 0) << id;
  }
  auto found = reader.message(known.id);
  ASSERT_TRUE(found && found->has_value());
  EXPECT_TRUE(**found == known);
}

}  // namespace
}  // namespace parley

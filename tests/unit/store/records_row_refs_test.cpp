// Schema version 16: the records refer to their dialogue, session and turn by rowid, and keep each
// UUID once. A database written by version 15 keeps every row, rowid and answer through the
// rebuild, and the store reads it back with the same UUID strings, in the same order.
#include <gtest/gtest.h>

#include <string>

#include "parley/store/sqlite/message_log_metadata.hpp"
#include "parley/store/sqlite/message_tool_calls.hpp"
#include "parley/store/sqlite/records_reader.hpp"
#include "parley/store/sqlite/records_v16.hpp"
#include "parley/store/sqlite/records_v22.hpp"
#include "parley/store/sqlite/schema.hpp"
#include "parley/store/sqlite/sqlite_handle.hpp"
#include "sqlite_raw.hpp"
#include "store_test_support.hpp"

namespace parley {
namespace {

using test::temp_dir;

// Rows as version 15 stored them: two dialogues (the second created first, so its rowid is the
// smaller), two sessions, a turn each, messages of both (one outside any turn, one of a session
// whose row is missing), two system utterances, and rowids with a gap, as deletes leave them.
// The log holds the events of four of them: three whose field is the message's text, one whose is
// not (a message the migration must keep whole), and none for the image.
constexpr const char* kVersionFifteenRows = R"sql(
INSERT INTO events (dialog_id, root_id, seq, type, payload, ts_ms) VALUES
  ('d2', 'd2', 2, 'generation_finished', '{"course":1,"genseq":1,"saying":"Hello there","toolCalls":[]}', 1005),
  ('d1', 'd1', 2, 'user_message', '{"course":1,"content":"What is the weather?","msgId":"x"}', 2000),
  ('d1', 'd1', 4, 'tool_result', '{"course":1,"genseq":1,"callId":"c1","name":"w","ok":true,"content":"weather: sunny"}', 2005),
  ('d1', 'd1', 5, 'user_message', '{"course":1,"content":"Go on, please.","msgId":"y"}', 2005);
INSERT INTO dialogs (id, root_id, parent_id, member_id, kind, status, task_doc_path, title, last_error, course, depth,
                     last_seq, last_genseq, message_count, open_questions, pending_subdialogs, input_tokens,
                     output_tokens, created_at_ms, updated_at_ms, generating, needs_drive) VALUES
  ('d1', 'd1', '', 'lead', 'root', 'running', '', 'Weather', '', 1, 0, 6, 1, 4, 0, 0, 0, 0, 2000, 2010, 0, 0);
INSERT INTO dialogue VALUES
  ('g1', 'd1', 'human_ai', 'u1', 'lead', NULL, 2000, 1, 2010, '{"dialogId":"d1","rootId":"d1","title":"Weather"}'),
  ('g2', 'd2', 'ai_ai', NULL, 'helper', NULL, 1000, 0, 1005, '{"members":["helper"]}');
INSERT INTO session (rowid, id, dialogue_id, session_type, start_at, end_at, description, created_by, metadata)
  VALUES (4, 's1', 'g1', 'dialogue', 2000, NULL, NULL, 'system', '{}'),
         (7, 's2', 'g2', 'dialogue', 1000, 1005, 'done', 'system', '{}');
INSERT INTO turn (rowid, id, dialogue_id, session_id, turn_type, initiator_role, responder_role, started_at,
                  closed_at, status, response_time, window_ms, metadata)
  VALUES (3, 't1', 'g1', 's1', 'human_query', 'human', 'ai', 2000, NULL, 'pending', NULL, 60000, '{}'),
         (9, 't2', 'g2', 's2', 'ai_prompt', 'ai', 'ai', 1000, 1005, 'responded', 5, 60000, '{}');
INSERT INTO message (rowid, id, dialogue_id, session_id, turn_id, sender_role, sender_id, content, content_type,
                     created_at, metadata, dialog_id, seq, content_meta) VALUES
  (2, 'm0', 'g2', 's2', 't2', 'ai', 'helper', 'Hello there', 'text', 1005, '{"course":1,"genseq":1}', 'd2', 2, NULL),
  (5, 'm1', 'g1', 's1', 't1', 'human', 'u1', 'What is the weather?', 'text', 2000, '{"course":1,"responder":"x"}',
   'd1', 2, NULL),
  (6, 'm2', 'g1', 's1', 't1', 'system', NULL, 'weather: sunny', 'tool_output', 2005,
   '{"course":1,"callId":"c1","name":"w","ok":true}', 'd1', 4, NULL),
  (8, 'm3', 'g1', 's1', '', 'system', NULL, 'Go on.', 'system_context', 2005, '{}', 'd1', 5, NULL),
  (11, 'm4', 'g1', 's-gone', 't1', 'ai', 'lead', 'Sunny, the weather is.', 'image', 2010, '{}', 'd1', 6,
   '{"caption":"a sun"}');
INSERT INTO message_fts (rowid, content) SELECT message_rowid, content FROM message_search;
INSERT INTO records_cursor VALUES
  ('d1', 'g1', 'human', 10800000, 3600000, 's1', 'dialogue', 2010, '', '', '', 't1', 'human', 'u1', 'ai', 'human_query', 2000),
  ('d2', 'g2', 'ai', 10800000, 3600000, 's2', 'dialogue', 1005, '', '', '', '', '', '', '', '', 0);
INSERT INTO system_utterance (message_rowid, trigger, target, notes) VALUES
  (6, 'tool_result', 'ai', 'result of weather'),
  (8, 'context_hint', 'all', NULL);
)sql";

// The message rows with their references as UUID text, whichever way the version stores them.
constexpr const char* kMessagesBefore =
    "SELECT rowid, id, dialogue_id, session_id, turn_id, sender_role, coalesce(sender_id, '-'), content, content_type, "
    "created_at, metadata, dialog_id, seq, coalesce(content_meta, '-') FROM message ORDER BY rowid";
std::string messages_after() {
  return "SELECT m.rowid, m.id, d.id, coalesce(s.id, ''), coalesce(t.id, ''), m.sender_role, coalesce(m.sender_id, "
         "'-'), " +
         std::string(sqlite::kMessageContentSql) + ", m.content_type, m.created_at, " + sqlite::message_metadata_sql() +
         ", " + sqlite::kMessageDialogIdSql + ", " + sqlite::kMessageSeqSql +
         ", coalesce(m.content_meta, '-') "
         "FROM message AS m JOIN dialogue AS d ON d.rowid = m.dialogue_rowid "
         "LEFT JOIN session AS s ON s.rowid = m.session_rowid LEFT JOIN turn AS t ON t.rowid = m.turn_rowid "
         "ORDER BY m.rowid";
}
constexpr const char* kTurnsBefore =
    "SELECT rowid, id, dialogue_id, session_id, turn_type, status, started_at FROM turn ORDER BY rowid";
constexpr const char* kTurnsAfter =
    "SELECT t.rowid, t.id, d.id, s.id, t.turn_type, t.status, t.started_at FROM turn AS t "
    "JOIN dialogue AS d ON d.rowid = t.dialogue_rowid JOIN session AS s ON s.rowid = t.session_rowid "
    "ORDER BY t.rowid";
constexpr const char* kSessionsBefore = "SELECT rowid, id, dialogue_id, start_at, end_at FROM session ORDER BY rowid";
constexpr const char* kSessionsAfter =
    "SELECT s.rowid, s.id, d.id, s.start_at, s.end_at FROM session AS s "
    "JOIN dialogue AS d ON d.rowid = s.dialogue_rowid ORDER BY s.rowid";
constexpr const char* kUtterances = "SELECT * FROM system_utterance_log ORDER BY timestamp, rowid";
constexpr const char* kSearchable = "SELECT * FROM message_search ORDER BY message_rowid";
constexpr const char* kFound = "SELECT rowid FROM message_fts WHERE message_fts MATCH 'weather' ORDER BY rowid";
// The same search once the index keeps no positions (schema version 20, trigram_text.hpp).
constexpr const char* kFoundWithoutPositions =
    "SELECT rowid FROM message_fts WHERE message_fts MATCH parley_trigram_match('weather') ORDER BY rowid";

TEST(RecordsRowRefs, MigratingAVersionFifteenDatabaseKeepsEveryRowRowidAndAnswer) {
  temp_dir dir;
  {
    auto db = sqlite::connection::open_read_write(dir.db_file());
    ASSERT_TRUE(db) << db.err().message;
    ASSERT_TRUE(sqlite::migrate(*db, 15));
    auto inserted = db->exec(kVersionFifteenRows);
    ASSERT_TRUE(inserted) << inserted.err().message;
  }
  auto messages = test::query(dir.db_file(), kMessagesBefore);
  messages[4][3] = "";  // its session's row never existed: the reference is dropped
  // Its (dialog_id, seq) names no event, so version 22 has no event id for it: it keeps its dialogue's
  // dialog id and loses its seq (the projector never writes such a row; records_v22.hpp).
  messages[4][12] = "0";
  const auto turns = test::query(dir.db_file(), kTurnsBefore);
  const auto sessions = test::query(dir.db_file(), kSessionsBefore);
  const auto dialogues = test::query(dir.db_file(), "SELECT * FROM dialogue ORDER BY id");
  const auto utterances = test::query(dir.db_file(), kUtterances);
  const auto searchable = test::query(dir.db_file(), kSearchable);
  const auto cursors =
      test::query(dir.db_file(), "SELECT dialog_id, dialogue_id, session_id, turn_id FROM records_cursor ORDER BY 1");
  ASSERT_EQ(test::query(dir.db_file(), kFound), (test::table_dump{{"5"}, {"6"}, {"11"}}));
  ASSERT_EQ(utterances.size(), 2U);
  {
    auto db = sqlite::connection::open_read_write(dir.db_file());
    ASSERT_TRUE(db) << db.err().message;
    // To the latest version: the reader reads the layout of every later one too.
    auto migrated = sqlite::migrate(*db, sqlite::latest_schema_version());
    ASSERT_TRUE(migrated) << migrated.err().message;
  }
  EXPECT_EQ(test::query(dir.db_file(), messages_after()), messages);
  EXPECT_EQ(test::query(dir.db_file(), kTurnsAfter), turns);
  // Only the texts that are their event's field are read from the log.
  EXPECT_EQ(test::query(dir.db_file(), "SELECT id FROM message WHERE content IS NULL ORDER BY rowid"),
            (test::table_dump{{"m0"}, {"m1"}, {"m2"}}));
  // And only the metadata that is the shape its event builds (not m1's, which has a responder).
  EXPECT_EQ(test::query(dir.db_file(), "SELECT id FROM message WHERE metadata IS NULL ORDER BY rowid"),
            (test::table_dump{{"m0"}, {"m2"}}));
  EXPECT_EQ(test::query(dir.db_file(), kSessionsAfter), sessions);
  EXPECT_EQ(test::query(dir.db_file(),
                        "SELECT d.id, d.dialog_id, d.dialogue_type, d.human_id, d.ai_id, d.relation_id, "
                        "d.created_at, d.is_active, d.last_activity_at, " +
                            std::string(sqlite::kDialogueMetadataSql) + " FROM dialogue AS d ORDER BY id"),
            dialogues);
  // A dialogue keeps what follows its dialogId and rootId, which are its dialog's.
  EXPECT_EQ(test::query(dir.db_file(), "SELECT metadata FROM dialogue ORDER BY id"),
            (test::table_dump{{R"(,"title":"Weather")"}, {R"({"members":["helper"]})"}}));
  // A dialogue's rowid follows creation.
  EXPECT_EQ(test::query(dir.db_file(), "SELECT id FROM dialogue ORDER BY rowid"), (test::table_dump{{"g2"}, {"g1"}}));
  EXPECT_EQ(test::query(dir.db_file(), kUtterances), utterances);
  EXPECT_EQ(test::query(dir.db_file(), kSearchable), searchable);
  EXPECT_EQ(
      test::query(dir.db_file(),
                  "SELECT c.dialog_id, d.id, s.id, coalesce(t.id, '') FROM records_cursor AS c "
                  "JOIN dialogue AS d ON d.rowid = c.dialogue_rowid JOIN session AS s ON s.rowid = c.session_rowid "
                  "LEFT JOIN turn AS t ON t.rowid = c.turn_rowid ORDER BY 1"),
      cursors);
  EXPECT_EQ(test::query(dir.db_file(), kFoundWithoutPositions), (test::table_dump{{"5"}, {"6"}, {"11"}}));
  // No table of the rebuild is left behind, and the text references are gone.
  EXPECT_EQ(test::query(dir.db_file(), "SELECT count(*) FROM sqlite_master WHERE name LIKE '%_v16'"),
            (test::table_dump{{"0"}}));
  EXPECT_EQ(test::query(dir.db_file(),
                        "SELECT count(*) FROM pragma_table_info('message') WHERE name IN "
                        "('dialogue_id', 'session_id', 'turn_id')"),
            (test::table_dump{{"0"}}));

  // The store reads the migrated rows by UUID, answering UUIDs, in the same order as before.
  auto reader = sqlite::records_reader::open(dir.db_file());
  ASSERT_TRUE(reader) << reader.err().message;
  records_filter by_dialogue;
  by_dialogue.dialogue_id = "g1";
  auto page = (*reader)->messages(by_dialogue);
  ASSERT_TRUE(page) << page.err().message;
  ASSERT_EQ(page->total, 4);
  EXPECT_EQ(page->items[0].id, "m1");
  EXPECT_EQ(page->items[1].id, "m2");
  EXPECT_EQ(page->items[2].id, "m3");
  EXPECT_EQ(page->items[3].id, "m4");
  EXPECT_EQ(page->items[1].session_id, "s1");
  EXPECT_EQ(page->items[1].turn_id, "t1");
  EXPECT_EQ(page->items[2].turn_id, "");
  EXPECT_EQ(page->items[3].dialogue_id, "g1");
  EXPECT_EQ(page->items[0].content, "What is the weather?");
  EXPECT_EQ(page->items[2].content, "Go on.");
  EXPECT_EQ(page->items[1].metadata, R"({"course":1,"callId":"c1","name":"w","ok":true})");
  records_filter by_turn;
  by_turn.turn_id = "t2";
  auto of_turn = (*reader)->messages(by_turn);
  ASSERT_TRUE(of_turn) << of_turn.err().message;
  ASSERT_EQ(of_turn->items.size(), 1U);
  EXPECT_EQ(of_turn->items[0].dialogue_id, "g2");
  records_filter unknown;
  unknown.session_id = "no-such-session";
  auto none = (*reader)->messages(unknown);
  ASSERT_TRUE(none) << none.err().message;
  EXPECT_EQ(none->total, 0);
  // The open turn's deadline: its start plus its own window.
  auto pending = (*reader)->pending_turns();
  ASSERT_TRUE(pending) << pending.err().message;
  ASSERT_EQ(pending->size(), 1U);
  EXPECT_EQ((*pending)[0].dialog_id, "d1");
  EXPECT_EQ((*pending)[0].turn_id, "t1");
  EXPECT_EQ((*pending)[0].deadline_ms, 62000);
  auto dialogue = (*reader)->dialogue("d1");
  ASSERT_TRUE(dialogue && dialogue->has_value());
  EXPECT_EQ((*dialogue)->metadata, R"({"dialogId":"d1","rootId":"d1","title":"Weather"})");
  auto turn = (*reader)->turn("t2");
  ASSERT_TRUE(turn && turn->has_value());
  EXPECT_EQ((*turn)->dialogue_id, "g2");
  EXPECT_EQ((*turn)->session_id, "s2");
  auto session = (*reader)->session("s1");
  ASSERT_TRUE(session && session->has_value());
  EXPECT_EQ((*session)->dialogue_id, "g1");
}

// Each filter by a UUID is one lookup of its rowid, then the index of that reference.
TEST(RecordsRowRefs, AFilterByAUuidLooksItsRowidUpOnceAndWalksTheReferencesIndex) {
  temp_dir dir;
  { ASSERT_TRUE(open_sqlite_store(dir.str())); }
  const auto plan_of = [&](const std::string& where) {
    std::string text;
    for (const auto& row : test::query(dir.db_file(), "EXPLAIN QUERY PLAN SELECT m.id FROM message AS m WHERE " +
                                                          where + " ORDER BY m.created_at, m.rowid")) {
      text += row.back() + "\n";
    }
    return text;
  };
  for (const auto& [table, index] :
       {std::pair{"dialogue", "message_by_dialogue"}, std::pair{"session", "message_by_session"},
        std::pair{"turn", "message_by_turn"}}) {
    const std::string where =
        std::string("m.") + table + "_rowid = (SELECT x.rowid FROM " + table + " AS x WHERE x.id = 'u')";
    const std::string plan = plan_of(where);
    EXPECT_NE(plan.find(index), std::string::npos) << plan;
    EXPECT_EQ(plan.find("SCAN"), std::string::npos) << plan;
  }
}

}  // namespace
}  // namespace parley

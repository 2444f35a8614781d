// Schema version 14: a system utterance is its message. The table keeps only what the message
// lacks, and `system_utterance_log` is a view with the seed's columns.
#include <gtest/gtest.h>

#include "parley/store/sqlite/schema.hpp"
#include "parley/store/sqlite/sqlite_handle.hpp"
#include "sqlite_raw.hpp"
#include "store_test_support.hpp"

namespace parley {
namespace {

using test::temp_dir;

// In the order the records' routes list them; the rowid itself, only a tie-break, is now the
// message's.
constexpr const char* kUtteranceRows =
    "SELECT log_id, timestamp, conversation_id, trigger, content, target, linked_turn_id, notes "
    "FROM system_utterance_log ORDER BY timestamp, rowid";

// Two messages of the system and one of the AI, as version 13 stored them.
constexpr const char* kVersionThirteenRecords = R"sql(
INSERT INTO dialogue VALUES ('g1', 'd1', 'human_ai', 'u1', 'lead', NULL, 1000, 1, 1003, '{}');
INSERT INTO session VALUES ('s1', 'g1', 'dialogue', 1000, NULL, NULL, 'system', '{}', NULL, NULL, NULL, NULL);
INSERT INTO turn VALUES ('t1', 'g1', 's1', 'human_query', 'human', 'ai', 1000, NULL, 'pending', NULL, 60000, '{}');
INSERT INTO message (id, dialogue_id, session_id, turn_id, sender_role, sender_id, content, content_type, created_at,
                     metadata, dialog_id, seq) VALUES
  ('m1', 'g1', 's1', 't1', 'ai', 'lead', '', 'tool_input', 1001, '{}', 'd1', 3),
  ('m2', 'g1', 's1', 't1', 'system', NULL, 'v_1', 'tool_output', 1002, '{}', 'd1', 4),
  ('m3', 'g1', 's1', '', 'system', NULL, 'Go on.', 'system_context', 1002, '{}', 'd1', 5);
INSERT INTO system_utterance_log VALUES
  ('m2', 1002, 'g1', 'tool_result', 'v_1', 'ai', 't1', 'result of lookup'),
  ('m3', 1002, 'g1', 'context_hint', 'Go on.', 'all', NULL, NULL);
)sql";

TEST(SystemUtterance, MigratingToVersionFourteenKeepsEveryUtteranceAsTheViewOfItsMessage) {
  temp_dir dir;
  auto db = sqlite::connection::open_read_write(dir.db_file());
  ASSERT_TRUE(db) << db.err().message;
  ASSERT_TRUE(sqlite::migrate(*db, 13));
  ASSERT_TRUE(db->exec(kVersionThirteenRecords));
  const auto before = test::query(dir.db_file(), kUtteranceRows);
  ASSERT_EQ(before.size(), 2U);

  auto migrated = sqlite::migrate(*db, 14);
  ASSERT_TRUE(migrated) << migrated.err().message;
  EXPECT_EQ(test::query(dir.db_file(), kUtteranceRows), before);
  EXPECT_EQ(test::query(dir.db_file(), "SELECT type FROM sqlite_master WHERE name = 'system_utterance_log'"),
            (test::table_dump{{"view"}}));
  // Only what the message lacks is stored.
  EXPECT_EQ(test::query(dir.db_file(), "SELECT message_rowid, trigger, target, notes FROM system_utterance"),
            (test::table_dump{{"2", "tool_result", "ai", "result of lookup"}, {"3", "context_hint", "all", ""}}));
}

// What the records' REST routes ask of the view is answered through the message's indexes.
TEST(SystemUtterance, AConversationsUtterancesAreFoundThroughTheMessagesDialogueIndex) {
  temp_dir dir;
  { ASSERT_TRUE(open_sqlite_store(dir.str())); }
  const auto plan = test::query(dir.db_file(),
                                "EXPLAIN QUERY PLAN SELECT u.log_id FROM system_utterance_log AS u "
                                "WHERE u.conversation_id = 'g1' ORDER BY u.timestamp, u.rowid");
  std::string text;
  for (const auto& row : plan) text += row.back() + "\n";
  EXPECT_NE(text.find("message_by_dialogue"), std::string::npos) << text;
  EXPECT_EQ(text.find("SCAN"), std::string::npos) << text;
}

}  // namespace
}  // namespace parley

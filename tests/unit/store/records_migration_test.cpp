// Schema version 11 makes the records' `dialogue` table again so its CHECK admits
// `human_human_group` (SQLite cannot alter a CHECK). A database written by version 9 must keep
// every record row through that rebuild, and its groups of three or more humans become groups.
#include <gtest/gtest.h>

#include <string>

#include "parley/store/sqlite/schema.hpp"
#include "sqlite_raw.hpp"
#include "store_test_support.hpp"

namespace parley {
namespace {

using test::temp_dir;

// Rows as version 9's reducer wrote them: a private chat of two, a "human_human" of three (one
// type then), a human⇄AI dialogue, and a session and message under the group.
constexpr const char* kVersionNineRows = R"sql(
INSERT INTO dialogue VALUES
  ('u-pair', 'pair', 'human_human', 'ann', NULL, NULL, 1000, 1, 1500,
   '{"dialogId":"pair","rootId":"pair","humans":["ann","ben"]}'),
  ('u-trio', 'trio', 'human_human', 'ann', NULL, NULL, 2000, 1, 2500,
   '{"dialogId":"trio","rootId":"trio","humans":["ann","ben","cy"]}'),
  ('u-chat', 'chat', 'human_ai', 'ann', 'alice', NULL, 3000, 0, 3500, '{"dialogId":"chat","rootId":"chat"}');
INSERT INTO session (id, dialogue_id, session_type, start_at, end_at, description, created_by, metadata)
  VALUES ('s-trio', 'u-trio', 'dialogue', 2000, NULL, NULL, 'system', '{}');
INSERT INTO turn (id, dialogue_id, session_id, turn_type, initiator_role, responder_role, started_at, closed_at,
                  status, response_time, window_ms, metadata)
  VALUES ('t-trio', 'u-trio', 's-trio', 'human_query', 'human', 'human', 2000, NULL, 'pending', NULL, 10800000, '{}');
INSERT INTO message (id, dialogue_id, session_id, turn_id, sender_role, sender_id, content, content_type,
                     created_at, metadata, dialog_id, seq)
  VALUES ('m-trio', 'u-trio', 's-trio', 't-trio', 'human', 'ann', 'lunch at noon?', 'text', 2000, '{}', 'trio', 2);
)sql";

TEST(RecordsMigration, VersionElevenKeepsEveryDialogueRowAndMakesThreeHumansAGroup) {
  temp_dir dir;
  {
    auto db = sqlite::connection::open_read_write(dir.db_file());
    ASSERT_TRUE(db) << db.err().message;
    ASSERT_TRUE(sqlite::migrate(*db, 9));
    // Version 9's CHECK refuses the group type: that is why the table is made again.
    EXPECT_FALSE(
        db->exec("INSERT INTO dialogue VALUES ('x', 'x', 'human_human_group', NULL, NULL, NULL, 0, 1, 0, '{}')"));
    auto inserted = db->exec(kVersionNineRows);
    ASSERT_TRUE(inserted) << inserted.err().message;
    // To version 11 only: version 16 makes these tables again, with references by rowid.
    auto migrated = sqlite::migrate(*db, 11);
    ASSERT_TRUE(migrated) << migrated.err().message;
  }
  EXPECT_EQ(test::query(dir.db_file(), "SELECT version FROM schema_version"), (test::table_dump{{"11"}}));
  EXPECT_EQ(test::query(dir.db_file(),
                        "SELECT id, dialog_id, dialogue_type, coalesce(human_id, '-'), coalesce(ai_id, '-'), "
                        "created_at, is_active, last_activity_at FROM dialogue ORDER BY created_at"),
            (test::table_dump{{"u-pair", "pair", "human_human", "ann", "-", "1000", "1", "1500"},
                              {"u-trio", "trio", "human_human_group", "ann", "-", "2000", "1", "2500"},
                              {"u-chat", "chat", "human_ai", "ann", "alice", "3000", "0", "3500"}}));
  EXPECT_EQ(test::query(dir.db_file(), "SELECT metadata FROM dialogue WHERE id = 'u-trio'"),
            (test::table_dump{{R"({"dialogId":"trio","rootId":"trio","humans":["ann","ben","cy"]})"}}));
  // The rows below the dialogue still name it, and join to it.
  EXPECT_EQ(test::query(dir.db_file(),
                        "SELECT d.dialogue_type, s.id, t.id, m.content FROM message AS m "
                        "JOIN turn AS t ON t.id = m.turn_id JOIN session AS s ON s.id = m.session_id "
                        "JOIN dialogue AS d ON d.id = m.dialogue_id"),
            (test::table_dump{{"human_human_group", "s-trio", "t-trio", "lunch at noon?"}}));
  // The index is back, the new CHECK takes the group type and still refuses what is not a type.
  EXPECT_EQ(test::query(dir.db_file(),
                        "SELECT name FROM sqlite_master WHERE tbl_name = 'dialogue' AND type = 'index' "
                        "AND name NOT LIKE 'sqlite_autoindex%'"),
            (test::table_dump{{"dialogue_by_created"}}));
  EXPECT_EQ(test::query(dir.db_file(), "SELECT count(*) FROM sqlite_master WHERE name = 'dialogue_v11'"),
            (test::table_dump{{"0"}}));
  {
    auto db = sqlite::connection::open_read_write(dir.db_file());
    ASSERT_TRUE(db) << db.err().message;
    EXPECT_TRUE(
        db->exec("INSERT INTO dialogue VALUES ('y', 'y', 'human_human_group', NULL, NULL, NULL, 0, 1, 0, '{}'); "
                 "DELETE FROM dialogue WHERE id = 'y'"));
    EXPECT_FALSE(db->exec("INSERT INTO dialogue VALUES ('z', 'z', 'human_crowd', NULL, NULL, NULL, 0, 1, 0, '{}')"));
  }
  // The store opens it (migrating on to the latest version), and reads the rebuilt table through
  // its own queries.
  auto opened = open_sqlite_store(dir.str());
  ASSERT_TRUE(opened) << opened.err().message;
  const auto trio = (*opened)->records()->dialogue("trio");
  ASSERT_TRUE(trio && trio->has_value());
  EXPECT_EQ((*trio)->dialogue_type, events::dialogue_type::human_human_group);
  const auto pair = (*opened)->records()->dialogue("u-pair");
  ASSERT_TRUE(pair && pair->has_value());
  EXPECT_EQ((*pair)->dialogue_type, events::dialogue_type::human_human);
}

}  // namespace
}  // namespace parley

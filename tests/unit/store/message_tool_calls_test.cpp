// Schema version 15: a records message that calls tools keeps null in place of its calls, and
// every reader gets them from the generation_finished event it came from
// (store/sqlite/message_tool_calls.hpp).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "parley/core/json.hpp"
#include "parley/model/conversation_reducer.hpp"
#include "parley/store/sqlite/message_log_metadata.hpp"
#include "parley/store/sqlite/message_tool_calls.hpp"
#include "parley/store/sqlite/schema.hpp"
#include "parley/store/sqlite/sqlite_handle.hpp"
#include "sqlite_raw.hpp"
#include "store_test_support.hpp"

namespace parley {
namespace {

using test::dialog_script;
using test::temp_dir;
namespace json = boost::json;

// Arguments with an escape, a quote and CJK text, which must read back exactly as generated.
json::array two_calls() {
  return {json::object{{"id", "c1"}, {"name", "tellask"}, {"arguments", R"({"tellaskContent":"查 \"KEY\"\n1"})"}},
          json::object{{"id", "c2"}, {"name", "lookup"}, {"arguments", R"({"key":"k2"})"}}};
}

event generation(dialog_script& d, json::array calls, std::string_view saying = "") {
  return d.next(event_type::generation_finished, {{"course", 1},
                                                  {"genseq", 1},
                                                  {"thinking", ""},
                                                  {"saying", saying},
                                                  {"toolCalls", std::move(calls)},
                                                  {"finishReason", "stop"},
                                                  {"usage", json::object{{"inputTokens", 1}, {"outputTokens", 1}}},
                                                  {"interrupted", false}});
}

std::vector<std::string> keys_of(const json::object& o) {
  std::vector<std::string> keys;
  for (const auto& [k, v] : o) keys.emplace_back(k);
  return keys;
}

TEST(MessageToolCalls, AToolInputMessageStoresNullAndEveryReaderGetsItsEventsCalls) {
  temp_dir dir;
  auto opened = open_sqlite_store(dir.str());
  ASSERT_TRUE(opened) << opened.err().message;
  auto& s = **opened;
  dialog_script d("root", "root");
  ASSERT_TRUE(test::append_sync(
      s, {d.created("lead"), d.user("Look it up."), generation(d, two_calls()), generation(d, {}, "Done.")}));
  s.flush();

  // Stored: the key, in its place, with null; none of the arguments' text. Since version 16 the
  // row keeps even that only as the shape its event builds (message_log_metadata.hpp).
  EXPECT_EQ(test::query(dir.db_file(), "SELECT count(*) FROM message WHERE metadata IS NULL"),
            (test::table_dump{{"3"}}));
  EXPECT_EQ(test::query(dir.db_file(), "SELECT m.content_type, " + sqlite::stored_message_metadata_sql() +
                                           " FROM message AS m WHERE m.sender_role = 'ai' ORDER BY m.rowid"),
            (test::table_dump{{"tool_input", R"({"course":1,"genseq":1,"toolCalls":null})"},
                              {"text", R"({"course":1,"genseq":1})"}}));

  records_filter f;
  f.dialogue_id = dialogue_uuid("root");
  f.content_type = events::content_type::tool_input;
  auto page = s.records()->messages(f);
  ASSERT_TRUE(page) << page.err().message;
  ASSERT_EQ(page->items.size(), 1U);
  auto meta = parse_json(page->items[0].metadata);
  ASSERT_TRUE(meta && meta->is_object());
  EXPECT_EQ(keys_of(meta->get_object()), (std::vector<std::string>{"course", "genseq", "toolCalls"}));
  EXPECT_EQ(meta->get_object().at("toolCalls"), json::value(two_calls()));

  // One message by id, and search, read it through the same columns.
  auto one = s.records()->message(page->items[0].id);
  ASSERT_TRUE(one && *one);
  EXPECT_EQ((*one)->metadata, page->items[0].metadata);
}

// The scan finds the key's array whatever its strings hold, and leaves text without one alone.
TEST(MessageToolCalls, TheStoredMetadataHasNullForTheCallsArrayAndEverythingElseAsWritten) {
  EXPECT_EQ(
      sqlite::metadata_without_tool_calls(
          R"({"course":1,"thinking":"say \"toolCalls\":[ ]","toolCalls":[{"id":"c1","arguments":"{\"a\":\"]}\\\"\"}"},{"id":"c2","arguments":"[[{"}],"promptVersion":"pv"})"),
      R"({"course":1,"thinking":"say \"toolCalls\":[ ]","toolCalls":null,"promptVersion":"pv"})");
  EXPECT_EQ(sqlite::metadata_without_tool_calls(R"({"genseq":1,"toolCalls":[]})"), R"({"genseq":1,"toolCalls":null})");
  EXPECT_EQ(sqlite::metadata_without_tool_calls(R"({"genseq":1})"), std::nullopt);
  EXPECT_EQ(sqlite::metadata_without_tool_calls(R"({"toolCalls":[{"id":"c1")"), std::nullopt);  // cut short
}

// Rows as version 14 stored them: one copy equal to its event's calls, one that is not (kept),
// and a text message, against a log holding the two generations.
constexpr const char* kVersionFourteenRows = R"sql(
INSERT INTO events (dialog_id, root_id, seq, type, payload, ts_ms) VALUES
  ('d1', 'd1', 3, 'generation_finished', '{"course":1,"genseq":1,"toolCalls":[{"id":"c1","name":"add","arguments":"{\"a\":\"\\u00e9\"}"}],"finishReason":"stop"}', 1001),
  ('d1', 'd1', 5, 'generation_finished', '{"course":1,"genseq":2,"toolCalls":[{"id":"c2","name":"add","arguments":"{}"}],"finishReason":"stop"}', 1003),
  ('d1', 'd1', 6, 'generation_finished', 'not json', 1004);
INSERT INTO message (id, dialogue_id, session_id, turn_id, sender_role, sender_id, content, content_type, created_at,
                     metadata, dialog_id, seq) VALUES
  ('m1', 'g1', 's1', 't1', 'ai', 'lead', '', 'tool_input', 1001,
   '{"genseq":1,"toolCalls":[{"id":"c1","name":"add","arguments":"{\"a\":\"\\u00e9\"}"}],"promptVersion":"pv"}', 'd1', 3),
  ('m2', 'g1', 's1', 't1', 'ai', 'lead', '', 'tool_input', 1003,
   '{"genseq":2,"toolCalls":[{"id":"c9","name":"add","arguments":"{}"}]}', 'd1', 5),
  ('m3', 'g1', 's1', 't1', 'ai', 'lead', '', 'tool_input', 1004, '{"genseq":3,"toolCalls":[]}', 'd1', 6),
  ('m4', 'g1', 's1', 't1', 'ai', 'lead', 'Done.', 'text', 1005, '{"genseq":4}', 'd1', 7);
)sql";

TEST(MessageToolCalls, MigratingToVersionFifteenDropsOnlyCopiesEqualToTheirEventAndEveryRowReadsTheSame) {
  temp_dir dir;
  auto db = sqlite::connection::open_read_write(dir.db_file());
  ASSERT_TRUE(db) << db.err().message;
  ASSERT_TRUE(sqlite::migrate(*db, 14));
  ASSERT_TRUE(db->exec(kVersionFourteenRows));
  const std::string read_back =
      std::string("SELECT m.id, ") + sqlite::message_metadata_sql() + " FROM message AS m ORDER BY m.rowid";
  const auto before = test::query(dir.db_file(), "SELECT id, metadata FROM message ORDER BY rowid");

  auto migrated = sqlite::migrate(*db, 15);
  ASSERT_TRUE(migrated) << migrated.err().message;
  EXPECT_EQ(test::query(dir.db_file(), "SELECT id, metadata FROM message ORDER BY rowid"),
            (test::table_dump{
                {"m1", R"({"genseq":1,"toolCalls":null,"promptVersion":"pv"})"}, before[1], before[2], before[3]}));
  // Read as the store reads them, in the latest layout (since version 22 a row names its event by id).
  migrated = sqlite::migrate(*db, sqlite::latest_schema_version());
  ASSERT_TRUE(migrated) << migrated.err().message;
  EXPECT_EQ(test::query(dir.db_file(), read_back), before);
}

}  // namespace
}  // namespace parley

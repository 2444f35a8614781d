// Schema version 23: system utterances and dialogue metadata the log gives are read from it
// (utterance_from_log.hpp, dialogue_metadata_from_log.hpp). What the records routes answer is the
// same as when every row was stored: after writing, after migrating a version 21 store, and after
// a rebuild of the projections; rows the log cannot give (an API-written utterance with its own
// notes, a title JSON spells with escapes) keep their values.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "parley/store/sqlite/records_reader.hpp"
#include "parley/store/sqlite/schema.hpp"
#include "records_v21_form.hpp"
#include "sqlite_raw.hpp"
#include "store_scenarios.hpp"
#include "store_test_support.hpp"

namespace parley {
namespace {

namespace json = boost::json;
using test::open_or_fail;
using test::temp_dir;

// The routes that read utterances and dialogue metadata, by every id they take.
struct derived_answers {
  std::vector<record_dialogue> dialogues;
  std::vector<record_system_utterance> utterances;
  std::vector<record_session> sessions;
  bool operator==(const derived_answers&) const = default;
};

template <class Row>
void add_page(std::vector<Row>& into, const result<records_page<Row>>& page) {
  ASSERT_TRUE(page) << page.err().message;
  into.insert(into.end(), page->items.begin(), page->items.end());
}

derived_answers derived_answers_of(const temp_dir& dir) {
  derived_answers out;
  auto opened = sqlite::records_reader::open(dir.db_file());
  EXPECT_TRUE(opened) << opened.err().message;
  if (!opened) return out;
  auto& reader = **opened;
  records_filter all;
  all.limit = 100000;
  auto dialogues = reader.dialogues(all);
  add_page(out.dialogues, dialogues);
  add_page(out.utterances, reader.system_utterances(all));
  auto turns = reader.turns(all);
  EXPECT_TRUE(turns) << turns.err().message;
  if (!dialogues || !turns) return out;
  for (const auto& d : dialogues->items) {
    auto one = reader.dialogue(d.id);
    EXPECT_TRUE(one && one->has_value()) << d.id;
    if (one && *one) out.dialogues.push_back(**one);
    records_filter by_dialogue = all;
    by_dialogue.dialogue_id = d.id;
    add_page(out.utterances, reader.system_utterances(by_dialogue));
  }
  for (const auto& t : turns->items) {
    records_filter by_turn = all;
    by_turn.turn_id = t.id;
    add_page(out.utterances, reader.system_utterances(by_turn));
  }
  // A member filter reads the group's members from the dialogue's metadata.
  for (const char* member : {"lead", "helper", "carol", "nobody"}) {
    records_filter by_member = all;
    by_member.ai_id = member;
    add_page(out.sessions, reader.sessions(by_member));
  }
  return out;
}

// A group of humans with an AI host (title, humans, members, host), its subdialog (callKind), a
// root whose title JSON escapes, and a dialog whose records are written through the API.
std::vector<std::vector<event>> from_log_history() {
  test::dialog_script group("group-1", "group-1", 1'700'000'100'000);
  test::dialog_script sub("group-1-sub", "group-1", 1'700'000'100'050);
  test::dialog_script quoted("quoted", "quoted", 1'700'000'100'100);
  test::dialog_script api("api", "api", 1'700'000'100'200);
  std::vector<std::vector<event>> out;
  out.push_back({group.next("dialog_created", {{"memberId", "lead"},
                                               {"kind", "root"},
                                               {"depth", 0},
                                               {"title", "计划 one"},
                                               {"humans", json::array{"alice", "bob"}},
                                               {"members", json::array{"lead", "helper"}}})});
  out.push_back({sub.next("dialog_created", {{"memberId", "helper"},
                                             {"kind", "sub"},
                                             {"depth", 1},
                                             {"parentId", "group-1"},
                                             {"callKind", "tellaskSessionless"}})});
  out.push_back({quoted.created("carol", {}, "say \"hi\"\\now")});
  out.push_back({group.user("hello", 1, "user"), group.user("Go on.", 1, "system")});
  out.push_back({group.next(
      "tool_result",
      {{"course", 1}, {"genseq", 1}, {"callId", "c1"}, {"name", "lookup"}, {"ok", true}, {"content", "found"}})});
  out.push_back({sub.user("Mind the time.", 1, "system")});
  out.push_back({api.created("carol")});
  out.push_back({api.next("record_session_opened", {{"sessionId", "s-api"},
                                                    {"sessionType", "dialogue"},
                                                    {"description", ""},
                                                    {"createdBy", "human"},
                                                    {"metadata", json::object{}}})});
  out.push_back(
      {api.next("record_turn_opened",
                {{"sessionId", "s-api"}, {"turnId", "t-api"}, {"initiatorRole", "human"}, {"responderRole", "ai"}})});
  auto written = [&](const char* id, const char* content_type, const char* target, const char* notes) {
    return api.next("record_message", {{"messageId", id},
                                       {"turnId", "t-api"},
                                       {"senderRole", "system"},
                                       {"senderId", ""},
                                       {"content", std::string("text of ") + id},
                                       {"contentType", content_type},
                                       {"metadata", json::object{}},
                                       {"replyTo", ""},
                                       {"target", target},
                                       {"notes", notes}});
  };
  out.push_back({written("m-own", "system_context", "human", "from the API")});
  out.push_back({written("m-same", "system_context", "ai", "runtime prompt inserted into the context")});
  out.push_back({written("m-tool", "tool_output", "ai", "result of lookup")});
  return out;
}

void write_history(const temp_dir& dir) {
  auto s = open_or_fail(dir);
  ASSERT_NE(s, nullptr);
  for (auto& batch : from_log_history()) ASSERT_TRUE(test::append_sync(*s, std::move(batch)));
  for (auto& batch : test::varied_history(23, 3, 20)) ASSERT_TRUE(test::append_sync(*s, std::move(batch)));
}

TEST(RecordsFromLog, OnlyWhatTheLogCannotGiveIsStoredAndTheRoutesReadItAsTheReducerWroteIt) {
  temp_dir dir;
  write_history(dir);
  const auto answers = derived_answers_of(dir);

  // Only the API's utterances whose values the log does not give keep a row.
  EXPECT_EQ(test::query(dir.db_file(),
                        "SELECT record_id_text(m.id), u.trigger, u.target, coalesce(u.notes, '') FROM system_utterance "
                        "AS u JOIN message AS m ON m.rowid = u.message_rowid ORDER BY u.message_rowid"),
            (test::table_dump{{"m-own", "context_hint", "human", "from the API"},
                              {"m-tool", "tool_result", "ai", "result of lookup"}}));
  const auto utterances =
      test::query(dir.db_file(),
                  "SELECT record_id_text(log_id), trigger, target, notes FROM system_utterance_log "
                  "WHERE conversation_id IN (SELECT id FROM dialogue WHERE dialog_id IN ('group-1', 'group-1-sub', "
                  "'api')) ORDER BY rowid");
  ASSERT_EQ(utterances.size(), 6U);
  EXPECT_EQ(utterances[0][1], "context_hint");
  EXPECT_EQ(utterances[0][3], "runtime prompt inserted into the context");
  EXPECT_EQ(utterances[1], (std::vector<std::string>{utterances[1][0], "tool_result", "ai", "result of lookup"}));
  EXPECT_EQ(utterances[3], (std::vector<std::string>{"m-own", "context_hint", "human", "from the API"}));
  EXPECT_EQ(utterances[4],
            (std::vector<std::string>{"m-same", "context_hint", "ai", "runtime prompt inserted into the context"}));
  EXPECT_EQ(utterances[5], (std::vector<std::string>{"m-tool", "tool_result", "ai", "result of lookup"}));

  // Every dialogue reads its metadata from its dialog_created event but the one whose title has
  // escapes, which keeps what follows its dialogId and rootId.
  EXPECT_EQ(test::query(dir.db_file(), "SELECT dialog_id, metadata FROM dialogue WHERE metadata != ''"),
            (test::table_dump{{"quoted", R"(,"title":"say \"hi\"\\now")"}}));
  std::vector<std::string> group_metadata;
  for (const auto& d : answers.dialogues) {
    if (d.dialog_id == "group-1" || d.dialog_id == "group-1-sub") group_metadata.push_back(d.metadata);
  }
  ASSERT_EQ(group_metadata.size(), 4U);  // the listing and each dialogue by id
  for (const auto& m : group_metadata) {
    EXPECT_TRUE(m == R"({"dialogId":"group-1","rootId":"group-1","title":"计划 one","humans":["alice","bob"],)"
                     R"("members":["lead","helper"],"host":"lead"})" ||
                m == R"({"dialogId":"group-1-sub","rootId":"group-1","callKind":"tellaskSessionless"})")
        << m;
  }
  // The member filter still finds the group's sessions through its members.
  EXPECT_FALSE(answers.sessions.empty());
}

TEST(RecordsFromLog, AVersionTwentyOneStoreAnswersEveryRouteTheSameAfterTheMigrationAndAfterARebuild) {
  temp_dir dir;
  write_history(dir);
  const auto written = derived_answers_of(dir);
  const auto projections = test::dump_projections(dir.db_file());
  const std::string stored_utterances = "SELECT count(*) FROM system_utterance";
  const std::string from_log_dialogues = "SELECT count(*) FROM dialogue WHERE metadata = ''";
  const auto utterance_rows = test::query(dir.db_file(), "SELECT count(*) FROM system_utterance_log");

  test::exec(dir.db_file(), test::back_to_version_twenty_one_records_sql().c_str());
  test::exec(dir.db_file(), "DELETE FROM schema_version; INSERT INTO schema_version (version) VALUES (21);");
  // Version 21 stored every utterance and no dialogue's metadata as read from its event.
  EXPECT_EQ(test::query(dir.db_file(), stored_utterances), utterance_rows);
  EXPECT_EQ(test::query(dir.db_file(), "SELECT metadata FROM dialogue WHERE dialog_id = 'group-1-sub'"),
            (test::table_dump{{R"(,"callKind":"tellaskSessionless")"}}));

  auto s = open_or_fail(dir);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(test::query(dir.db_file(), "SELECT version FROM schema_version"),
            (test::table_dump{{std::to_string(sqlite::latest_schema_version())}}));
  EXPECT_EQ(test::query(dir.db_file(), stored_utterances), (test::table_dump{{"2"}}));
  EXPECT_NE(test::query(dir.db_file(), from_log_dialogues), (test::table_dump{{"0"}}));
  EXPECT_EQ(test::dump_projections(dir.db_file()), projections);
  EXPECT_TRUE(derived_answers_of(dir) == written);

  ASSERT_TRUE(s->rebuild_projections());
  EXPECT_EQ(test::dump_projections(dir.db_file()), projections);
  EXPECT_TRUE(derived_answers_of(dir) == written);
}

// A row whose values differ from what the log gives keeps them through the migration: an
// utterance with notes of its own, a dialogue whose metadata is not its event's.
TEST(RecordsFromLog, TheMigrationKeepsRowsThatDifferFromWhatTheLogGives) {
  temp_dir dir;
  write_history(dir);
  test::exec(dir.db_file(), test::back_to_version_twenty_one_records_sql().c_str());
  test::exec(dir.db_file(),
             "UPDATE system_utterance SET notes = 'said by hand' WHERE message_rowid = (SELECT min(message_rowid) "
             "FROM system_utterance);"
             "UPDATE dialogue SET metadata = ',\"title\":\"renamed\"' WHERE dialog_id = 'group-1';"
             "UPDATE dialogue SET metadata = '{\"other\":1}' WHERE dialog_id = 'group-1-sub';"
             "DELETE FROM schema_version; INSERT INTO schema_version (version) VALUES (21);");
  const auto utterances = test::query(dir.db_file(), "SELECT * FROM system_utterance_log ORDER BY rowid");
  const auto dialogues = test::query(dir.db_file(), "SELECT d.dialog_id, " + std::string(sqlite::kDialogueMetadataSql) +
                                                        " FROM dialogue AS d ORDER BY 1");

  auto s = open_or_fail(dir);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(test::query(dir.db_file(), "SELECT * FROM system_utterance_log ORDER BY rowid"), utterances);
  EXPECT_EQ(test::query(dir.db_file(),
                        "SELECT d.dialog_id, " + sqlite::dialogue_metadata_sql() + " FROM dialogue AS d ORDER BY 1"),
            dialogues);
  EXPECT_EQ(test::query(dir.db_file(), "SELECT count(*) FROM system_utterance WHERE notes = 'said by hand'"),
            (test::table_dump{{"1"}}));
  EXPECT_EQ(test::query(dir.db_file(), "SELECT metadata FROM dialogue WHERE dialog_id LIKE 'group-1%' ORDER BY 1"),
            (test::table_dump{{R"(,"title":"renamed")"}, {R"({"other":1})"}}));
}

// What the records' REST routes ask of the view is still answered through the message's indexes.
TEST(RecordsFromLog, ATurnsUtterancesAreFoundThroughTheMessagesTurnIndex) {
  temp_dir dir;
  { ASSERT_TRUE(open_sqlite_store(dir.str())); }
  const auto plan = test::query(dir.db_file(),
                                "EXPLAIN QUERY PLAN SELECT u.log_id FROM system_utterance_log AS u "
                                "WHERE u.linked_turn_id = x'00' ORDER BY u.timestamp, u.rowid");
  std::string text;
  for (const auto& row : plan) text += row.back() + "\n";
  EXPECT_NE(text.find("message_by_turn"), std::string::npos) << text;
  EXPECT_EQ(text.find("SCAN"), std::string::npos) << text;
}

}  // namespace
}  // namespace parley

// Schema version 13: a prompt's text is stored once per version (store/sqlite/prompt_versions.hpp),
// and every reader of the log still sees each prompt_logged event whole, as it was appended.
#include <gtest/gtest.h>

#include <algorithm>

#include "parley/model/event_codec.hpp"
#include "parley/store/sqlite/schema.hpp"
#include "parley/store/sqlite/sqlite_handle.hpp"
#include "sqlite_raw.hpp"
#include "store_test_support.hpp"

namespace parley {
namespace {

using test::dialog_script;
using test::open_or_fail;
using test::temp_dir;
namespace json = boost::json;

constexpr const char* kLeadPrompt = "You lead the team.\n\nDelegate with \"tellask\" — 一次一个.";

json::object prompt_payload(std::string_view version, std::string_view text, json::array tools) {
  return {{"course", 1}, {"version", version}, {"systemPrompt", text}, {"tools", std::move(tools)}, {"model", "m1"}};
}

event prompt_event(dialog_script& d, std::string_view version, std::string_view text) {
  return d.next("prompt_logged", prompt_payload(version, text, {"tellask", "read_file"}));
}

// Everything an event carries, its payload compared as encoded.
void expect_same_event(const event& got, const event& want) {
  EXPECT_EQ(got.dialog_id, want.dialog_id);
  EXPECT_EQ(got.root_id, want.root_id);
  EXPECT_EQ(got.seq, want.seq);
  EXPECT_EQ(got.ts_ms, want.ts_ms);
  EXPECT_EQ(got.type(), want.type());
  EXPECT_EQ(encode_payload(got.payload), encode_payload(want.payload)) << want.dialog_id << " " << want.seq;
}

const events::prompt_logged* logged_at(const std::vector<event>& events, std::size_t index) {
  return index < events.size() ? events[index].as<events::prompt_logged>() : nullptr;
}

TEST(PromptVersions, DialogsThatLogTheSameVersionShareOneTextAndEachReadsItsEventWhole) {
  temp_dir dir;
  std::vector<event> appended;
  {
    auto s = open_or_fail(dir);
    ASSERT_NE(s, nullptr);
    dialog_script a("a", "a");
    dialog_script b("b", "a");
    std::vector<event> batch{a.created("lead"), prompt_event(a, "pv-1", kLeadPrompt), b.created("lead", "a"),
                             prompt_event(b, "pv-1", kLeadPrompt)};
    appended = batch;
    ASSERT_TRUE(test::append_sync(*s, std::move(batch)));
    auto read = s->read_events("b");
    ASSERT_TRUE(read) << read.err().message;
    ASSERT_EQ(read->size(), 2U);
    expect_same_event(read->at(1), appended[3]);
  }
  EXPECT_EQ(test::query(dir.db_file(), "SELECT version, system_prompt, tools FROM prompt_versions"),
            (test::table_dump{{"pv-1", kLeadPrompt, R"(["tellask","read_file"])"}}));
  // The log keeps the version, the course and the model; the text is in prompt_versions alone.
  EXPECT_EQ(test::query(dir.db_file(), "SELECT payload FROM events WHERE type = 'prompt_logged' ORDER BY id"),
            (test::table_dump{{R"({"course":1,"version":"pv-1","model":"m1"})"},
                              {R"({"course":1,"version":"pv-1","model":"m1"})"}}));
  // The shell's view shows the payload as appended.
  EXPECT_EQ(test::query(dir.db_file(),
                        "SELECT json_extract(payload, '$.systemPrompt'), json_extract(payload, '$.tools') "
                        "FROM events_readable WHERE type = 'prompt_logged' AND dialog_id = 'a'"),
            (test::table_dump{{kLeadPrompt, R"(["tellask","read_file"])"}}));

  auto s = open_or_fail(dir);
  ASSERT_NE(s, nullptr);
  auto all = s->read_all_events();
  ASSERT_TRUE(all) << all.err().message;
  ASSERT_EQ(all->size(), appended.size());
  for (std::size_t i = 0; i < appended.size(); ++i) expect_same_event(all->at(i), appended[i]);
  auto damaged = s->damaged_events();
  ASSERT_TRUE(damaged) << damaged.err().message;
  EXPECT_TRUE(damaged->empty());
}

// A version is a hash of the text, so another text under a stored version means a broken
// writer: the event keeps its own text rather than read back someone else's.
TEST(PromptVersions, AnotherTextUnderAStoredVersionIsKeptInItsOwnEvent) {
  temp_dir dir;
  auto s = open_or_fail(dir);
  ASSERT_NE(s, nullptr);
  dialog_script a("a", "a");
  dialog_script b("b", "b");
  const event b_created = b.created("lead");
  const event other_text = b.next("prompt_logged", prompt_payload("pv-1", "Another text.", {"tellask", "read_file"}));
  const event other_tools = b.next("prompt_logged", prompt_payload("pv-1", kLeadPrompt, {"tellask"}));
  ASSERT_TRUE(test::append_sync(*s, {a.created("lead"), prompt_event(a, "pv-1", kLeadPrompt)}));
  ASSERT_TRUE(test::append_sync(*s, {b_created, other_text, other_tools}));

  auto read = s->read_events("b");
  ASSERT_TRUE(read) << read.err().message;
  ASSERT_EQ(read->size(), 3U);
  expect_same_event(read->at(1), other_text);
  expect_same_event(read->at(2), other_tools);
  EXPECT_EQ(test::query(dir.db_file(), "SELECT count(*) FROM prompt_versions"), (test::table_dump{{"1"}}));
  EXPECT_EQ(test::query(dir.db_file(),
                        "SELECT json_extract(payload, '$.systemPrompt') FROM events WHERE dialog_id = 'b' AND "
                        "type = 'prompt_logged' ORDER BY seq"),
            (test::table_dump{{"Another text."}, {kLeadPrompt}}));
}

// The text is written in the transaction of the event that first logs it: a batch that fails
// takes its new version with it, and the next event of that version stores the text again.
TEST(PromptVersions, AFailedBatchLeavesNoTextBehindAndTheNextEventOfItsVersionStoresIt) {
  temp_dir dir;
  auto s = open_or_fail(dir);
  ASSERT_NE(s, nullptr);
  dialog_script bad("bad", "bad");
  ASSERT_TRUE(test::append_sync(*s, {bad.created("lead")}));
  bad.skip_seq();
  ASSERT_FALSE(test::append_sync(*s, {prompt_event(bad, "pv-1", kLeadPrompt)}));
  EXPECT_EQ(test::query(dir.db_file(), "SELECT count(*) FROM prompt_versions"), (test::table_dump{{"0"}}));

  dialog_script good("good", "good");
  const event good_created = good.created("lead");
  const event logged = prompt_event(good, "pv-1", kLeadPrompt);
  ASSERT_TRUE(test::append_sync(*s, {good_created, logged}));
  auto read = s->read_events("good");
  ASSERT_TRUE(read) << read.err().message;
  ASSERT_NE(logged_at(*read, 1), nullptr);
  expect_same_event(read->at(1), logged);
  EXPECT_EQ(test::query(dir.db_file(), "SELECT count(*) FROM prompt_versions"), (test::table_dump{{"1"}}));
}

// `parley check` must find a prompt the log no longer holds: an event whose version has no text
// is named with the version.
TEST(PromptVersions, AnEventWhoseVersionLostItsTextIsReportedNamingTheVersion) {
  temp_dir dir;
  {
    auto s = open_or_fail(dir);
    ASSERT_NE(s, nullptr);
    dialog_script a("a", "a");
    ASSERT_TRUE(test::append_sync(*s, {a.created("lead"), prompt_event(a, "pv-gone", kLeadPrompt)}));
  }
  test::exec(dir.db_file(), "DELETE FROM prompt_versions");
  auto s = open_or_fail(dir);
  ASSERT_NE(s, nullptr);
  auto damaged = s->damaged_events();
  ASSERT_TRUE(damaged) << damaged.err().message;
  ASSERT_EQ(damaged->size(), 1U);
  EXPECT_EQ(damaged->front().type, "prompt_logged");
  EXPECT_NE(damaged->front().problem.find("pv-gone"), std::string::npos) << damaged->front().problem;
  EXPECT_FALSE(s->read_events("a"));
}

// A store written before version 13 moves its texts into prompt_versions when it opens: every
// event reads back as before, the projections equal a rebuild, and the log is smaller.
TEST(PromptVersions, MigratingToVersionThirteenMovesLoggedTextsOutAndEveryEventReadsBackTheSame) {
  temp_dir dir;
  {
    // A log written by version 12: the text in every prompt_logged event.
    auto db = sqlite::connection::open_read_write(dir.db_file());
    ASSERT_TRUE(db) << db.err().message;
    ASSERT_TRUE(sqlite::migrate(*db, 12));
    ASSERT_TRUE(
        db->exec("INSERT INTO events (dialog_id, root_id, seq, type, payload, ts_ms) VALUES "
                 "('a', 'a', 1, 'dialog_created', '{\"memberId\":\"lead\",\"kind\":\"root\",\"depth\":0}', 1000),"
                 "('a', 'a', 2, 'user_message', '{\"course\":1,\"content\":\"hello\",\"msgId\":\"m1\",\"origin\":"
                 "\"user\"}', 1001),"
                 "('b', 'a', 1, 'dialog_created', '{\"memberId\":\"lead\",\"kind\":\"sub\",\"parentId\":\"a\","
                 "\"depth\":1}', 1002),"
                 "('a', 'a', 3, 'prompt_logged', '{\"course\":1,\"version\":\"pv-1\",\"systemPrompt\":\"Lead.\","
                 "\"tools\":[\"tellask\"],\"model\":\"m1\"}', 1003),"
                 "('b', 'a', 2, 'prompt_logged', '{\"course\":1,\"version\":\"pv-1\",\"systemPrompt\":\"Lead.\","
                 "\"tools\":[\"tellask\"],\"model\":\"m2\"}', 1004),"
                 "('b', 'a', 3, 'prompt_logged', '{\"course\":1,\"version\":\"pv-1\",\"systemPrompt\":\"Not lead.\","
                 "\"tools\":[\"tellask\"],\"model\":\"m2\"}', 1005)"));
  }
  const auto payloads_before = test::query(dir.db_file(), "SELECT id, payload FROM events ORDER BY id");

  auto s = open_or_fail(dir);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(test::query(dir.db_file(), "SELECT version FROM schema_version"),
            (test::table_dump{{std::to_string(sqlite::latest_schema_version())}}));
  EXPECT_EQ(test::query(dir.db_file(), "SELECT version, system_prompt, tools FROM prompt_versions"),
            (test::table_dump{{"pv-1", "Lead.", R"(["tellask"])"}}));
  EXPECT_EQ(test::query(dir.db_file(),
                        "SELECT count(*) FROM events WHERE type = 'prompt_logged' AND payload LIKE '%systemPrompt%'"),
            (test::table_dump{{"1"}}));  // "Not lead." keeps its own text
  // Every payload reads back as it was stored, key order aside.
  const auto payloads_after = test::query(dir.db_file(), "SELECT id, payload FROM events_readable ORDER BY id");
  ASSERT_EQ(payloads_after.size(), payloads_before.size());
  for (std::size_t i = 0; i < payloads_before.size(); ++i) {
    EXPECT_EQ(json::parse(payloads_after[i][1]), json::parse(payloads_before[i][1]))
        << "event " << payloads_before[i][0];
  }
  auto read = s->read_events("b");
  ASSERT_TRUE(read) << read.err().message;
  ASSERT_EQ(read->size(), 3U);
  const auto* shared = logged_at(*read, 1);
  ASSERT_NE(shared, nullptr);
  EXPECT_EQ(shared->system_prompt, "Lead.");
  EXPECT_EQ(shared->tools, (std::vector<std::string>{"tellask"}));
  EXPECT_EQ(shared->model, "m2");
  const auto* own = logged_at(*read, 2);
  ASSERT_NE(own, nullptr);
  EXPECT_EQ(own->system_prompt, "Not lead.");
}

// A payload an older version stored unreadable is left as it is: the migration's json calls
// never see it, so it cannot fail the migration.
TEST(PromptVersions, MigratingToVersionThirteenLeavesAnUnreadablePayloadAlone) {
  temp_dir dir;
  auto db = sqlite::connection::open_read_write(dir.db_file());
  ASSERT_TRUE(db) << db.err().message;
  ASSERT_TRUE(sqlite::migrate(*db, 12));
  ASSERT_TRUE(
      db->exec("INSERT INTO events (dialog_id, root_id, seq, type, payload, ts_ms) VALUES "
               "('a', 'a', 1, 'prompt_logged', 'not json', 1000),"
               "('a', 'a', 2, 'prompt_logged', '[1]', 1001)"));
  auto migrated = sqlite::migrate(*db, 13);
  ASSERT_TRUE(migrated) << migrated.err().message;
  EXPECT_EQ(test::query(dir.db_file(), "SELECT payload FROM events_readable ORDER BY id"),
            (test::table_dump{{"not json"}, {"[1]"}}));
  EXPECT_EQ(test::query(dir.db_file(), "SELECT count(*) FROM prompt_versions"), (test::table_dump{{"0"}}));
}

}  // namespace
}  // namespace parley

// The PostgreSQL store's records held to the SQLite store's: the same log, appended to both, must
// answer every records route the same (records_route_answers.hpp) — dialogues of every kind, the
// records write API's sessions, turns, messages and introspections, system utterances, media found
// by their caption, a text with a NUL, analyses and embeddings added later — and so must the
// PostgreSQL store after a rebuild, after the migration that brings the records to a log older than
// them, and when a tree moves to another process halfway through.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "parley/core/base64.hpp"
#include "parley/model/conversation_reducer.hpp"
#include "parley/model/embedding_vector.hpp"
#include "parley/store/postgres/pg_schema.hpp"
#include "records_backends.hpp"
#include "records_route_answers.hpp"
#include "store_scenarios.hpp"

namespace parley {
namespace {

using test::json::array;
using test::json::object;

constexpr std::int64_t kWrittenStart = 1'700'000'000'000;
constexpr std::int64_t kWrittenMinute = 60'000;

// A dialog written through the records write API and analysed afterwards, its events in batches.
class written_dialog {
 public:
  explicit written_dialog(std::string id) : id_(std::move(id)) {}

  event next(std::string_view type, object payload, std::int64_t at) {
    return test::make_event(id_, id_, ++seq_, type, std::move(payload), kWrittenStart + at);
  }
  event created(object extra = {}) {
    object p{{"memberId", "alice"}, {"kind", "root"}, {"depth", 0}, {"humans", array{"ann"}}};
    for (auto& [k, v] : extra) p[k] = v;
    return next(event_type::dialog_created, std::move(p), 0);
  }
  event user(std::string_view text, std::int64_t at) {
    return next(event_type::user_message,
                {{"course", 1}, {"content", text}, {"msgId", "m" + std::to_string(seq_)}, {"origin", "user"}}, at);
  }
  event ai(std::string_view saying, std::int64_t at) {
    return next(event_type::generation_finished,
                {{"course", 1},
                 {"genseq", seq_},
                 {"thinking", ""},
                 {"saying", saying},
                 {"toolCalls", array{}},
                 {"finishReason", "stop"},
                 {"usage", object{{"inputTokens", 1}, {"outputTokens", 1}}},
                 {"interrupted", false}},
                at);
  }
  event written(std::string_view id, std::string_view turn, std::string_view sender, std::string_view content,
                std::int64_t at, object extra = {}) {
    object p{{"messageId", id},
             {"turnId", turn},
             {"senderRole", sender},
             {"senderId", ""},
             {"content", content},
             {"contentType", "text"},
             {"metadata", object{{"mood", "calm"}}},
             {"replyTo", ""}};
    for (auto& [k, v] : extra) p[k] = v;
    return next(records_event::message_recorded, std::move(p), at);
  }
  // `message_id`: the records message `message` made (record_message_id for a dialog's own, the
  // written id for the records write API's).
  event analysed(const event& message, std::string_view message_id, std::string_view emotion, std::int64_t at) {
    return next(events::record_message_analyzed::kType,
                {{"messageId", message_id},
                 {"messageSeq", message.seq},
                 {"analyst", "bob"},
                 {"intentTags", array{"ask"}},
                 {"emotion", emotion},
                 {"topicTags", array{"weather"}},
                 {"attempts", 1}},
                at);
  }
  event embedded(const event& message, std::string_view message_id, std::vector<float> vector, std::int64_t at) {
    return next(events::record_message_embedded::kType,
                {{"messageId", message_id},
                 {"messageSeq", message.seq},
                 {"model", "tiny"},
                 {"dimensions", static_cast<std::int64_t>(vector.size())},
                 {"vector", base64_encode(float32_bytes(vector))}},
                at);
  }

 private:
  std::string id_;
  std::int64_t seq_ = 0;
};

// Batches covering what the records hold beyond the projections' histories.
std::vector<std::vector<event>> written_history() {
  using namespace std::string_literals;
  written_dialog d("written");
  const event created = d.created();
  const event asked = d.user("Will it rain in Singapore?", 0);
  std::vector<std::vector<event>> out{
      {created, asked, d.analysed(asked, record_message_id(asked), "curious", 10), d.ai("Probably.", 20)}};
  out.push_back({d.next(records_event::session_opened,
                        {{"sessionId", "s-r"},
                         {"sessionType", "self_reflection"},
                         {"description", "looking back"},
                         {"createdBy", "human"},
                         {"metadata", object{{"why", "practice"}}}},
                        kWrittenMinute),
                 d.next(records_event::introspection_recorded,
                        {{"turnId", "i-1"},
                         {"sessionId", "s-r"},
                         {"purpose", "p"},
                         {"generatedEntry", "rain is likely"},
                         {"memoryId", "mem-1"},
                         {"durationMs", 5}},
                        kWrittenMinute + 1),
                 d.next(records_event::turn_opened,
                        {{"turnId", "t-1"}, {"sessionId", "s-r"}, {"initiatorRole", "human"}, {"responderRole", "ai"}},
                        kWrittenMinute + 2)});
  const event photo = d.written("m-photo", "t-1", "human", "uploads/1.png", 2 * kWrittenMinute,
                                {{"contentType", "image"}, {"contentMeta", object{{"caption", "a red umbrella"}}}});
  const event nul = d.written("m-nul", "t-1", "ai", "before\0after"s, 2 * kWrittenMinute + 1);
  out.push_back({photo, nul, d.analysed(asked, record_message_id(asked), "relieved", 2 * kWrittenMinute + 2),
                 d.embedded(photo, "m-photo", {1, 0, 0}, 2 * kWrittenMinute)});
  out.push_back(
      {d.written("m-sys", "t-1", "system", "a hint", 3 * kWrittenMinute, {{"target", "ai"}, {"notes", "n"}}),
       d.next(records_event::memory_linked, {{"turnId", "t-1"}, {"memoryId", "mem-1"}}, 3 * kWrittenMinute + 1),
       d.embedded(nul, "m-nul", {0.6F, 0.8F, 0}, 3 * kWrittenMinute + 2),
       d.embedded(asked, record_message_id(asked), {0, 1, 0}, 3 * kWrittenMinute + 3),
       d.next(records_event::session_closed, {{"sessionId", "s-r"}}, 4 * kWrittenMinute)});
  out.push_back(
      {d.analysed(nul, "m-nul", "calm", 5 * kWrittenMinute), d.user("and tomorrow?", 5 * kWrittenMinute + 1)});
  return out;
}

std::vector<std::vector<event>> whole_history() {
  test::dialog_script realistic("realistic", "realistic");
  std::vector<std::vector<event>> out{test::realistic_dialog(realistic)};
  for (auto& batch : test::varied_history(11, 3, 150)) out.push_back(std::move(batch));
  for (auto& batch : written_history()) out.push_back(std::move(batch));
  return out;
}

void append_all(store& s, const std::vector<std::vector<event>>& batches) {
  for (const auto& batch : batches) {
    auto appended = test::append_sync(s, batch);
    ASSERT_TRUE(appended) << appended.err().message;
  }
}

// What answers_of leaves out: introspections, embeddings, semantic and media search.
struct more_answers {
  std::vector<record_introspection> introspections;
  std::vector<std::string> embeddings;
  std::vector<std::string> nearest;
  std::vector<std::string> found;
  bool operator==(const more_answers&) const = default;
};

more_answers more_answers_of(records_query& reader) {
  more_answers out;
  records_filter in_reflection;
  in_reflection.session_id = "s-r";
  if (auto page = reader.introspections(in_reflection); page) out.introspections = page->items;
  records_filter all;
  all.limit = 100000;
  for (const auto& m : reader.messages(all).value().items) {
    if (auto e = reader.embedding(m.id).value()) {
      std::string text = m.id + " " + e->model;
      for (const float f : e->vector) text += " " + std::to_string(f);
      out.embeddings.push_back(text);
    }
  }
  const std::vector<float> query{0.8F, 0.6F, 0};
  for (const auto& s : reader.nearest("tiny", query, all).value().items) {
    out.nearest.push_back(s.message.id + " " + std::to_string(s.score));
  }
  for (const char* match : {"\"umbrella\"", "\"RED\" \"a\"", "\"after\"", "\"singapore\"", "\"e a\""}) {
    const auto page = reader.search(match, all).value();
    out.found.push_back(match + (" " + std::to_string(page.total)));
    for (const auto& m : page.items) out.found.push_back(m.id);
  }
  return out;
}

class RecordsAcrossStores : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(sqlite_ && postgres_);
    append_all(*sqlite_, whole_history());
    sqlite_->flush();
  }
  void expect_same_answers(store& postgres) {
    const auto expected = test::answers_of(*sqlite_->records());
    ASSERT_GT(expected.messages.size(), 100U);
    EXPECT_EQ(test::answers_of(*postgres.records()), expected);
    EXPECT_EQ(more_answers_of(*postgres.records()), more_answers_of(*sqlite_->records()));
  }

  test::sqlite_records_backend sqlite_backend_;
  test::postgres_records_backend postgres_backend_;
  std::unique_ptr<store> sqlite_ = sqlite_backend_.open();
  std::unique_ptr<store> postgres_ = postgres_backend_.open();
};

TEST_F(RecordsAcrossStores, TheSameLogAnswersEveryRouteTheSameOnBothStoresAndAfterARebuild) {
  append_all(*postgres_, whole_history());
  expect_same_answers(*postgres_);
  // The checks are not vacuous: media are found by their caption, embeddings nearest first.
  const auto more = more_answers_of(*postgres_->records());
  EXPECT_EQ(more.embeddings.size(), 3U);
  ASSERT_EQ(more.nearest.size(), 3U);
  EXPECT_TRUE(more.nearest[0].starts_with("m-nul ")) << more.nearest[0];
  EXPECT_EQ(more.introspections.size(), 1U);
  EXPECT_EQ(more.found[0], "\"umbrella\" 1");
  // Past the NUL, and across it as the space the index reads there.
  EXPECT_NE(std::find(more.found.begin(), more.found.end(), "\"after\" 1"), more.found.end());
  EXPECT_NE(std::find(more.found.begin(), more.found.end(), "\"e a\" 1"), more.found.end());
  ASSERT_TRUE(postgres_->rebuild_projections());
  expect_same_answers(*postgres_);
}

// Seed 002's records came to PostgreSQL with schema version 2: a database whose log is older gets
// them from it when a process first opens it after the migration.
TEST_F(RecordsAcrossStores, ALogOlderThanTheRecordsGetsThemWhenTheMigrationOpensIt) {
  append_all(*postgres_, whole_history());
  postgres_.reset();
  postgres_backend_.exec(
      "DROP VIEW system_utterance_log; DROP TABLE dialogue, session, turn, message, system_utterance, "
      "introspection_turn, memory_entry, memory_links, message_embedding, records_cursor, records_backfill, "
      "forwarded_inputs; DELETE FROM parley_schema WHERE version >= 2");
  postgres_ = postgres_backend_.open();
  ASSERT_NE(postgres_, nullptr);
  EXPECT_EQ(postgres_backend_.query("SELECT max(version), (SELECT count(*) FROM records_backfill) FROM parley_schema"),
            (test::table_dump{{std::to_string(pg::kSchemaVersion), "0"}}));
  expect_same_answers(*postgres_);
}

// A tree another process takes over goes on from the records cursor its first holder committed.
TEST_F(RecordsAcrossStores, ATreeTakenOverByAnotherProcessGoesOnFromTheCursorsInTheTables) {
  const auto batches = whole_history();
  const std::size_t half = batches.size() / 2;
  append_all(*postgres_, {batches.begin(), batches.begin() + static_cast<std::ptrdiff_t>(half)});
  postgres_.reset();  // gives its leases back
  auto other = postgres_backend_.open();
  ASSERT_NE(other, nullptr);
  append_all(*other, {batches.begin() + static_cast<std::ptrdiff_t>(half), batches.end()});
  expect_same_answers(*other);
}

}  // namespace
}  // namespace parley

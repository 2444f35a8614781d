// Seed 002's records as the SQLite store derives them from the log: turns and their response
// windows, session splits, the three speakers, and that a rebuild reproduces them. Time is the
// events' own timestamps, set by each test; nothing here waits on a clock.
#include <gtest/gtest.h>

#include <optional>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "parley/model/conversation_reducer.hpp"
#include "parley/store/sqlite/schema.hpp"
#include "parley/store/turn_window_schedule.hpp"
#include "records_backends.hpp"
#include "sqlite_raw.hpp"
#include "store_scenarios.hpp"
#include "store_test_support.hpp"

namespace parley {
namespace {

using test::temp_dir;
namespace json = boost::json;

constexpr std::int64_t kT0 = 1'700'000'000'000;
constexpr std::int64_t kMinute = 60'000;
constexpr std::int64_t kHour = 60 * kMinute;

// One dialog's events with timestamps the test chooses.
class timeline {
 public:
  explicit timeline(std::string id, std::string root = {}) : id_(std::move(id)), root_(root.empty() ? id_ : root) {}

  timeline& at(std::int64_t ms) {
    ts_ = kT0 + ms;
    return *this;
  }
  event next(std::string_view type, json::object payload) {
    return test::make_event(id_, root_, ++seq_, type, std::move(payload), ts_);
  }
  event created(json::object extra = {}) {
    json::object p{{"memberId", "alice"}, {"kind", "root"}, {"depth", 0}};
    for (auto& [k, v] : extra) p[k] = v;
    return next(event_type::dialog_created, std::move(p));
  }
  event sub_created(std::string_view parent) {
    return next(event_type::dialog_created,
                {{"memberId", "bob"}, {"kind", "sub"}, {"depth", 1}, {"parentId", parent}, {"callKind", "tellask"}});
  }
  event user(std::string_view text, std::string_view origin = "user") {
    json::object p{{"course", 1}, {"content", text}, {"msgId", "m" + std::to_string(seq_)}, {"origin", origin}};
    if (origin == "tellask") {
      p["assignment"] = json::object{{"callerId", "root"},    {"callerMemberId", "alice"}, {"callId", "c0"},
                                     {"callName", "tellask"}, {"sessionSlug", ""},         {"tellaskContent", text}};
    }
    return next(event_type::user_message, std::move(p));
  }
  event ai(std::string_view saying, bool with_tool_call = false) {
    json::array calls;
    if (with_tool_call)
      calls.push_back(json::object{{"id", "c" + std::to_string(seq_)}, {"name", "add"}, {"arguments", "{}"}});
    return next(event_type::generation_finished, {{"course", 1},
                                                  {"genseq", seq_},
                                                  {"thinking", ""},
                                                  {"saying", saying},
                                                  {"toolCalls", std::move(calls)},
                                                  {"finishReason", "stop"},
                                                  {"usage", json::object{{"inputTokens", 1}, {"outputTokens", 1}}},
                                                  {"interrupted", false}});
  }
  event tool(std::string_view content) {
    return next(event_type::tool_result,
                {{"course", 1}, {"genseq", 1}, {"callId", "c1"}, {"name", "add"}, {"ok", true}, {"content", content}});
  }
  event ask(std::string_view question) {
    return next(event_type::question_asked, {{"course", 1},
                                             {"genseq", 1},
                                             {"callId", "ask1"},
                                             {"questionId", "q1"},
                                             {"mentionList", question},
                                             {"tellaskContent", question},
                                             {"askedAt", "x"}});
  }
  event answer(std::string_view content) {
    return next(event_type::question_answered,
                {{"course", 1}, {"questionId", "q1"}, {"callId", "ask1"}, {"content", content}, {"msgId", "a1"}});
  }
  event status(std::string_view status) { return next(event_type::status_changed, {{"status", status}}); }
  event window_expired(std::string_view turn_id) {
    return next(records_event::turn_window_expired, {{"turnId", turn_id}});
  }
  // The records write API's events, with the ids the server would have chosen.
  event session_opened(std::string_view id, std::string_view type = "dialogue") {
    return next(records_event::session_opened, {{"sessionId", id},
                                                {"sessionType", type},
                                                {"description", "d"},
                                                {"createdBy", "human"},
                                                {"metadata", json::object{}}});
  }
  event session_closed(std::string_view id) { return next(records_event::session_closed, {{"sessionId", id}}); }
  event turn_opened(std::string_view id, std::string_view session, std::string_view from, std::string_view to,
                    std::optional<std::int64_t> window_ms = std::nullopt) {
    json::object p{{"turnId", id}, {"sessionId", session}, {"initiatorRole", from}, {"responderRole", to}};
    if (window_ms) p["windowMs"] = *window_ms;
    return next(records_event::turn_opened, std::move(p));
  }
  event turn_closed(std::string_view id, std::string_view status) {
    return next(records_event::turn_closed, {{"turnId", id}, {"status", status}});
  }
  event introspection(std::string_view id, std::string_view session, std::string_view entry) {
    return next(records_event::introspection_recorded, {{"turnId", id},
                                                        {"sessionId", session},
                                                        {"purpose", "p"},
                                                        {"generatedEntry", entry},
                                                        {"memoryId", "mem-" + std::string(id)},
                                                        {"durationMs", 5}});
  }
  event written(std::string_view id, std::string_view turn, std::string_view sender, std::string_view content) {
    return next(records_event::message_recorded, {{"messageId", id},
                                                  {"turnId", turn},
                                                  {"senderRole", sender},
                                                  {"senderId", ""},
                                                  {"content", content},
                                                  {"contentType", "text"},
                                                  {"metadata", json::object{}},
                                                  {"replyTo", ""}});
  }

 private:
  std::string id_;
  std::string root_;
  std::int64_t seq_ = 0;
  std::int64_t ts_ = kT0;
};

template <class Backend>
class Records : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_NE(store_, nullptr);
    ASSERT_NE(store_->records(), nullptr);
  }
  void append(std::vector<event> batch) {
    auto done = test::append_sync(*store_, std::move(batch));
    ASSERT_TRUE(done) << done.err().message;
  }
  std::vector<record_turn> turns(const std::string& dialog) {
    records_filter f;
    f.dialogue_id = dialogue_uuid(dialog);
    f.limit = 1000;
    return store_->records()->turns(f)->items;
  }
  std::vector<record_session> sessions(const std::string& dialog) {
    records_filter f;
    f.dialogue_id = dialogue_uuid(dialog);
    f.limit = 1000;
    return store_->records()->sessions(f)->items;
  }
  std::vector<record_message> messages_of_turn(const std::string& turn_id) {
    records_filter f;
    f.turn_id = turn_id;
    f.limit = 1000;
    return store_->records()->messages(f)->items;
  }
  // Reads the tables directly, once every batch appended before is in them.
  test::table_dump query(const std::string& sql) {
    store_->flush();
    return backend_.query(sql);
  }
  // The store closed and opened again: its reducer state read back from the tables.
  void reopen() {
    store_.reset();
    store_ = backend_.open();
    ASSERT_NE(store_, nullptr);
  }
  // A rebuild of the projections from the log leaves each of `tables` exactly as it was.
  void expect_rebuild_keeps(std::initializer_list<const char*> tables) {
    store_->flush();
    std::vector<test::table_dump> before;
    for (const char* table : tables) before.push_back(backend_.dump(table));
    ASSERT_TRUE(store_->rebuild_projections());
    std::size_t i = 0;
    for (const char* table : tables) EXPECT_EQ(backend_.dump(table), before[i++]) << table;
  }

  Backend backend_;
  std::unique_ptr<store> store_ = backend_.open();
};
TYPED_TEST_SUITE(Records, test::records_backends, test::records_backend_names);

TEST(RecordUuid, IsAStableVersion8UuidNamedByKindAndName) {
  const std::regex shape("[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
  EXPECT_TRUE(std::regex_match(record_uuid("turn", "d1/2"), shape)) << record_uuid("turn", "d1/2");
  EXPECT_EQ(record_uuid("turn", "d1/2"), record_uuid("turn", "d1/2"));
  EXPECT_NE(record_uuid("turn", "d1/2"), record_uuid("session", "d1/2"));
  EXPECT_NE(record_uuid("turn", "d1/2"), record_uuid("turn", "d1/3"));
}

TEST(RecordUuid, IdsOfLaterRecordsSortLaterSoIndexesGrowAtTheirEnd) {
  const std::regex shape("[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
  const auto earlier = record_uuid("message", "d9/7", 1'700'000'000'000);
  const auto later = record_uuid("message", "d1/2", 1'700'000'000'001);
  EXPECT_TRUE(std::regex_match(earlier, shape)) << earlier;
  EXPECT_LT(earlier, later);
  EXPECT_EQ(earlier, record_uuid("message", "d9/7", 1'700'000'000'000));
  EXPECT_NE(earlier, record_uuid("message", "d9/8", 1'700'000'000'000));

  // Parley's dialog ids (core/ids.cpp) begin with their creation time in 12 hex digits.
  EXPECT_LT(dialogue_uuid("0a1b2c3d4e5ffff0"), dialogue_uuid("0a1b2c3d4e600001"));
  EXPECT_TRUE(std::regex_match(dialogue_uuid("root"), shape));  // not a Parley id: hashed only
}

TEST(TurnWindowSchedule, HandsOutDueWindowsEarliestFirstAndKeepsOnePerDialog) {
  turn_window_schedule schedule;
  EXPECT_FALSE(schedule.next_deadline());
  schedule.set({"a", "t1", 300});
  schedule.set({"b", "t2", 100});
  schedule.set({"c", "t3", 200});
  schedule.set({"a", "t4", 50});  // dialog a moved on to another turn
  EXPECT_EQ(schedule.size(), 3U);
  EXPECT_EQ(schedule.next_deadline(), 50);
  EXPECT_TRUE(schedule.take_due(49).empty());
  const auto due = schedule.take_due(150);
  ASSERT_EQ(due.size(), 2U);
  EXPECT_EQ(due[0].turn_id, "t4");
  EXPECT_EQ(due[1].turn_id, "t2");
  schedule.erase("c");
  EXPECT_FALSE(schedule.next_deadline());
  EXPECT_TRUE(schedule.take_due(1'000'000).empty());
}

TYPED_TEST(Records, AHumanQueryWithAToolLoopIsOneRespondedTurnOfFourMessages) {
  timeline d("root");
  this->append({d.created(), d.at(0).user("Do I need an umbrella in Singapore tomorrow?"), d.at(1000).ai("", true),
                d.at(2000).tool("38C, sunny"), d.at(5000).ai("No umbrella needed.")});

  const auto dialogue = this->store_->records()->dialogue("root")->value();
  EXPECT_EQ(dialogue.id, dialogue_uuid("root"));
  EXPECT_EQ(dialogue.dialogue_type, events::dialogue_type::human_ai);
  EXPECT_EQ(dialogue.ai_id, "alice");
  EXPECT_TRUE(dialogue.is_active);
  EXPECT_EQ(dialogue.last_activity_at, kT0 + 5000);

  const auto all_turns = this->turns("root");
  ASSERT_EQ(all_turns.size(), 1U);
  const record_turn& t = all_turns[0];
  EXPECT_EQ(t.turn_type, events::turn_type::human_query);
  EXPECT_EQ(t.initiator_role, events::record_role::human);
  EXPECT_EQ(t.responder_role, events::record_role::ai);
  EXPECT_EQ(t.status, events::turn_status::responded);
  EXPECT_EQ(t.started_at, kT0);
  EXPECT_EQ(t.closed_at, kT0 + 5000);
  EXPECT_EQ(t.response_time, 5000);

  const auto msgs = this->messages_of_turn(t.id);
  ASSERT_EQ(msgs.size(), 4U);
  std::vector<std::string> speakers;
  for (const auto& m : msgs) {
    speakers.push_back(std::string(events::to_wire(m.sender_role)) + "/" +
                       std::string(events::to_wire(m.content_type)));
  }
  EXPECT_EQ(speakers, (std::vector<std::string>{"human/text", "ai/tool_input", "system/tool_output", "ai/text"}));
  EXPECT_EQ(msgs[1].sender_id, "alice");
  EXPECT_EQ(msgs[3].content, "No umbrella needed.");
  // The message's metadata says the result was ok (the SQLite log leaves that default out:
  // RecordsOnSqlite below).
  EXPECT_NE(msgs[2].metadata.find(R"("ok":true)"), std::string::npos) << msgs[2].metadata;
  for (const auto& m : msgs) {
    EXPECT_EQ(m.session_id, t.session_id);
    EXPECT_EQ(m.dialogue_id, dialogue.id);
  }
  // The tool's output is also the system speaking to the AI (seed 002 SystemUtteranceLog).
  records_filter by_turn;
  by_turn.turn_id = t.id;
  const auto utterances = this->store_->records()->system_utterances(by_turn).value();
  ASSERT_EQ(utterances.total, 1);
  const record_system_utterance& u = utterances.items.at(0);
  EXPECT_EQ(u.log_id, msgs[2].id);
  EXPECT_EQ(u.timestamp, msgs[2].created_at);
  EXPECT_EQ(u.conversation_id, dialogue.id);
  EXPECT_EQ(u.trigger, events::utterance_trigger::tool_result);
  EXPECT_EQ(u.content, "38C, sunny");
  EXPECT_EQ(u.target, events::utterance_target::ai);
  EXPECT_EQ(u.linked_turn_id, t.id);
  EXPECT_EQ(u.notes, "result of add");
}

// How the SQLite store keeps that dialog: the log leaves a successful result's `ok` out (its
// default), and an utterance's ids are stored as 16 bytes (record_id.hpp).
TEST(RecordsOnSqlite, ALoggedToolResultLeavesItsDefaultOutAndAnUtterancesIdsAreSixteenBytes) {
  test::sqlite_records_backend backend;
  auto store = backend.open();
  ASSERT_NE(store, nullptr);
  timeline d("root");
  ASSERT_TRUE(test::append_sync(*store, {d.created(), d.at(0).user("Do I need an umbrella?"), d.at(1000).ai("", true),
                                         d.at(2000).tool("38C, sunny"), d.at(5000).ai("No umbrella needed.")}));
  records_filter f;
  f.content_type = events::content_type::tool_output;
  const auto output = store->records()->messages(f).value().items.at(0);
  store->flush();
  EXPECT_EQ(backend.query("SELECT json_type(payload, '$.ok') IS NULL FROM events WHERE type = 'tool_result'"),
            (test::table_dump{{"1"}}));
  EXPECT_EQ(backend.query("SELECT log_id = record_id_blob('" + output.id +
                          "'), length(log_id), trigger, target, linked_turn_id = record_id_blob('" + output.turn_id +
                          "'), notes FROM system_utterance_log"),
            (test::table_dump{{"1", "16", "tool_result", "ai", "1", "result of add"}}));
}

TYPED_TEST(Records, AnAnsweredQuestionClosesItsAiPromptTurnAndTheAnswerOpensTheNext) {
  timeline d("root");
  this->append({d.created(), d.at(0).user("book a table"), d.at(1000).ai("", true), d.at(2000).ask("For how many?"),
                d.at(30 * kMinute).answer("four"), d.at(31 * kMinute).ai("Booked for four.")});
  const auto all = this->turns("root");
  ASSERT_EQ(all.size(), 3U);
  EXPECT_EQ(all[0].turn_type, events::turn_type::human_query);
  EXPECT_EQ(all[0].status, events::turn_status::responded);
  EXPECT_EQ(all[0].closed_at, kT0 + 2000);  // the question answered it
  EXPECT_EQ(all[1].turn_type, events::turn_type::ai_prompt);
  EXPECT_EQ(all[1].initiator_role, events::record_role::ai);
  EXPECT_EQ(all[1].responder_role, events::record_role::human);
  EXPECT_EQ(all[1].status, events::turn_status::responded);
  EXPECT_EQ(all[1].response_time, 30 * kMinute - 2000);
  EXPECT_EQ(all[2].turn_type, events::turn_type::human_query);
  EXPECT_EQ(all[2].status, events::turn_status::responded);
  EXPECT_EQ(this->messages_of_turn(all[1].id).at(0).content, "For how many?");
  EXPECT_EQ(this->messages_of_turn(all[2].id).at(0).content, "four");
  EXPECT_EQ(this->messages_of_turn(all[2].id).at(0).sender_role, events::record_role::human);
}

TYPED_TEST(Records, AQuestionAnsweredAfterItsWindowIsAnUnrespondedTurnClosedAtTheWindowsEnd) {
  timeline d("root");
  this->append({d.created(), d.at(0).user("plan my week"), d.at(1000).ask("Which days are free?")});
  EXPECT_EQ(this->turns("root").at(1).status, events::turn_status::pending);
  EXPECT_EQ(this->turns("root").at(1).closed_at, 0);
  this->append({d.at(5 * kHour).answer("Tuesday")});

  const auto all = this->turns("root");
  ASSERT_EQ(all.size(), 3U);
  EXPECT_EQ(all[1].turn_type, events::turn_type::unresponded_turn);
  EXPECT_EQ(all[1].status, events::turn_status::unresponded);
  EXPECT_EQ(all[1].closed_at, kT0 + 1000 + 3 * kHour);
  EXPECT_EQ(all[2].status, events::turn_status::pending);
  // Over an hour after the unresponded turn closed: the answer starts a new session.
  const auto sess = this->sessions("root");
  ASSERT_EQ(sess.size(), 2U);
  EXPECT_EQ(sess[0].end_at, kT0 + 1000 + 3 * kHour);
  EXPECT_EQ(sess[1].start_at, kT0 + 5 * kHour);
  EXPECT_EQ(sess[1].end_at, 0);
  EXPECT_EQ(all[2].session_id, sess[1].id);
}

TYPED_TEST(Records, TheWindowEventClosesAPendingTurnAtStartPlusWindowNotAtItsOwnTime) {
  timeline d("root");
  this->append({d.created(), d.at(0).user("hello")});
  const std::string turn_id = this->turns("root").at(0).id;
  // Too early: a window event before the deadline changes nothing.
  this->append({d.at(kHour).window_expired(turn_id)});
  EXPECT_EQ(this->turns("root").at(0).status, events::turn_status::pending);
  // Noticed late (say the server was down): closed_at is still started_at + 3 h.
  this->append({d.at(7 * kHour).window_expired(turn_id)});
  const auto t = this->turns("root").at(0);
  EXPECT_EQ(t.status, events::turn_status::unresponded);
  EXPECT_EQ(t.turn_type, events::turn_type::unresponded_turn);
  EXPECT_EQ(t.closed_at, kT0 + 3 * kHour);
  EXPECT_TRUE(this->store_->records()->pending_turns()->empty());
}

TYPED_TEST(Records, PendingTurnsNameTheirDialogAndDeadline) {
  timeline d("root");
  this->append({d.created(json::object{{"turnWindowMs", 10 * kMinute}}), d.at(0).user("hello")});
  const auto pending = this->store_->records()->pending_turns().value();
  ASSERT_EQ(pending.size(), 1U);
  EXPECT_EQ(pending[0].dialog_id, "root");
  EXPECT_EQ(pending[0].turn_id, this->turns("root").at(0).id);
  EXPECT_EQ(pending[0].deadline_ms, kT0 + 10 * kMinute);
  this->append({d.at(11 * kMinute).ai("late answer")});
  // The answer came after the 10-minute window: the turn went unresponded, the late answer opens
  // an AI-initiated turn that waits for the human.
  const auto all = this->turns("root");
  ASSERT_EQ(all.size(), 2U);
  EXPECT_EQ(all[0].status, events::turn_status::unresponded);
  EXPECT_EQ(all[0].closed_at, kT0 + 10 * kMinute);
  EXPECT_EQ(all[1].turn_type, events::turn_type::ai_prompt);
  EXPECT_EQ(all[1].responder_role, events::record_role::human);
}

// Seed 002's expected_window_minutes: a written turn waits its own window. Its deadline is what
// the window timers read (pending_turns), the window event closes it there, and a store opened
// again (its reducer state read back from the tables) still knows the turn's own window.
TYPED_TEST(Records, AWrittenTurnWaitsItsOwnWindowNotItsDialoguesAcrossAReopen) {
  timeline d("root");
  this->append({d.created(), d.at(0).user("hello"), d.at(kMinute).ai("hi"), d.at(2 * kMinute).session_opened("s-1")});
  this->append({d.at(3 * kMinute).turn_opened("t-own", "s-1", "ai", "human", 20 * kMinute)});
  auto pending = this->store_->records()->pending_turns().value();
  ASSERT_EQ(pending.size(), 1U);
  EXPECT_EQ(pending[0].turn_id, "t-own");
  EXPECT_EQ(pending[0].deadline_ms, kT0 + 23 * kMinute);
  EXPECT_EQ(this->turns("root").back().window_ms, 20 * kMinute);

  this->reopen();
  EXPECT_EQ(this->store_->records()->pending_turn_of("root").value()->deadline_ms, kT0 + 23 * kMinute);
  // Before its own deadline the window event changes nothing; after it, the turn is closed at
  // start plus its own 20 minutes, not the dialogue's 3 hours.
  this->append({d.at(22 * kMinute).window_expired("t-own")});
  EXPECT_EQ(this->turns("root").back().status, events::turn_status::pending);
  this->append({d.at(40 * kMinute).window_expired("t-own")});
  const auto closed = this->turns("root").back();
  EXPECT_EQ(closed.id, "t-own");
  EXPECT_EQ(closed.status, events::turn_status::unresponded);
  EXPECT_EQ(closed.closed_at, kT0 + 23 * kMinute);
  EXPECT_EQ(closed.window_ms, 20 * kMinute);
  EXPECT_TRUE(this->store_->records()->pending_turns()->empty());

  // The next written turn without a window of its own waits the dialogue's again.
  this->append({d.at(41 * kMinute).turn_opened("t-dialogue", "s-1", "ai", "human")});
  EXPECT_EQ(this->store_->records()->pending_turn_of("root").value()->deadline_ms, kT0 + 41 * kMinute + 3 * kHour);
  this->expect_rebuild_keeps({"turn", "records_cursor"});
}

TYPED_TEST(Records, AnHourWithoutActivityStartsANewSessionAndTheGapIsConfigurable) {
  timeline d("root");
  this->append({d.created(), d.at(0).user("one"), d.at(kMinute).ai("1"), d.at(kMinute + kHour).user("two"),
                d.at(kMinute + kHour + 1000).ai("2"), d.at(3 * kHour).user("three"), d.at(3 * kHour + 5).ai("3")});
  auto sess = this->sessions("root");
  ASSERT_EQ(sess.size(), 2U);  // exactly one hour is not more than an hour
  EXPECT_EQ(sess[0].end_at, kT0 + kHour + kMinute + 1000);
  EXPECT_EQ(sess[0].session_type, events::session_type::dialogue);
  EXPECT_EQ(sess[0].created_by, events::record_role::system);
  EXPECT_EQ(sess[1].start_at, kT0 + 3 * kHour);

  timeline e("short");
  this->append({e.created(json::object{{"sessionGapMs", 5 * kMinute}}), e.at(0).user("a"), e.at(1000).ai("b"),
                e.at(6 * kMinute + 1000).user("c"), e.at(6 * kMinute + 2000).ai("d")});
  EXPECT_EQ(this->sessions("short").size(), 2U);
}

TYPED_TEST(Records, ATellaskedSubdialogIsAnAiToAiDialogueRelatedToItsParent) {
  timeline root("root");
  timeline sub("sub1", "root");
  this->append({root.created(), root.at(0).user("ask bob"), sub.at(10).sub_created("root"),
                sub.at(20).user("what is 2+2?", "tellask"), sub.at(30).ai("4")});
  const auto d = this->store_->records()->dialogue(dialogue_uuid("sub1"))->value();
  EXPECT_EQ(d.dialogue_type, events::dialogue_type::ai_ai);
  EXPECT_EQ(d.relation_id, dialogue_uuid("root"));
  EXPECT_EQ(d.ai_id, "bob");
  const auto t = this->turns("sub1");
  ASSERT_EQ(t.size(), 1U);
  EXPECT_EQ(t[0].turn_type, events::turn_type::ai_prompt);
  EXPECT_EQ(t[0].initiator_role, events::record_role::ai);
  EXPECT_EQ(t[0].responder_role, events::record_role::ai);
  EXPECT_EQ(t[0].status, events::turn_status::responded);
  const auto m = this->messages_of_turn(t[0].id);
  ASSERT_EQ(m.size(), 2U);
  EXPECT_EQ(m[0].sender_role, events::record_role::ai);
  EXPECT_EQ(m[0].sender_id, "alice");
}

// The rows are typed: a stored vocabulary string that maps to none (a table edited by hand past its
// CHECKs) is a corrupt read naming the table, the row and the column — never a silent default.
TYPED_TEST(Records, AStoredVocabularyStringOutsideItsTableIsACorruptReadNamingTheColumn) {
  timeline d("root");
  this->append({d.created(), d.at(0).user("hello"), d.at(1000).ai("hi")});
  const std::string turn_id = this->turns("root").at(0).id;
  this->store_->flush();
  this->store_.reset();
  this->backend_.exec(TypeParam::kCorruptTurnStatus);
  this->reopen();
  records_filter f;
  f.dialogue_id = dialogue_uuid("root");
  f.limit = 10;
  const auto read = this->store_->records()->turns(f);
  ASSERT_FALSE(read);
  EXPECT_EQ(read.err().code, errc::corrupt);
  EXPECT_EQ(read.err().message,
            "turn " + turn_id + ": turn.status is 'maybe', not one of pending, responded, unresponded");
}

TYPED_TEST(Records, StatusChangesMakeTheDialogueInactive) {
  timeline d("root");
  this->append({d.created(), d.at(0).user("hi"), d.at(5).status("completed")});
  const auto dialogue = this->store_->records()->dialogue("root")->value();
  EXPECT_FALSE(dialogue.is_active);
  EXPECT_EQ(dialogue.last_activity_at, kT0);
}

TYPED_TEST(Records, WrittenSessionsTurnsAndMessagesFoldLikeTheSeedsRulesAndARebuildKeepsThem) {
  timeline d("root");
  this->append({d.created(), d.at(0).user("hello"), d.at(kMinute).ai("hi")});
  const std::string automatic = this->sessions("root").at(0).id;
  this->append({d.at(2 * kMinute).session_opened("s-1", "self_reflection"), d.introspection("i-1", "s-1", "a memory"),
                d.introspection("i-x", automatic, "never")});
  this->append({d.at(3 * kMinute).turn_opened("t-1", "s-1", "human", "ai")});
  // A second turn while t-1 is pending, a turn in an ended session and a message for another turn
  // change nothing.
  this->append({d.at(4 * kMinute).turn_opened("t-x", "s-1", "ai", "human"),
                d.turn_opened("t-y", automatic, "human", "ai"), d.written("m-x", "t-x", "human", "lost"),
                d.session_opened("s-x")});
  this->append({d.at(5 * kMinute).written("m-1", "t-1", "human", "why?"),
                d.at(6 * kMinute).written("m-2", "t-1", "ai", "because")});
  this->append({d.at(7 * kMinute).turn_opened("t-2", "s-1", "ai", "human"),
                d.at(8 * kMinute).turn_closed("t-2", "unresponded"), d.at(9 * kMinute).session_closed("s-1")});

  const auto all_sessions = this->sessions("root");
  ASSERT_EQ(all_sessions.size(), 2U);
  EXPECT_EQ(all_sessions[0].id, automatic);
  EXPECT_EQ(all_sessions[0].end_at, kT0 + 2 * kMinute);
  EXPECT_EQ(all_sessions[1].id, "s-1");
  EXPECT_EQ(all_sessions[1].session_type, events::session_type::self_reflection);
  EXPECT_EQ(all_sessions[1].end_at, kT0 + 9 * kMinute);
  const auto all_turns = this->turns("root");
  ASSERT_EQ(all_turns.size(), 3U);
  EXPECT_EQ(all_turns[1].id, "t-1");
  EXPECT_EQ(all_turns[1].status, events::turn_status::responded);
  EXPECT_EQ(all_turns[1].response_time, 3 * kMinute);
  EXPECT_EQ(all_turns[2].id, "t-2");
  EXPECT_EQ(all_turns[2].status, events::turn_status::unresponded);
  EXPECT_EQ(all_turns[2].closed_at, kT0 + 8 * kMinute);
  const auto written = this->messages_of_turn("t-1");
  ASSERT_EQ(written.size(), 2U);
  EXPECT_EQ(written[0].id, "m-1");
  EXPECT_EQ(written[0].session_id, "s-1");
  EXPECT_TRUE(this->messages_of_turn("t-x").empty());
  EXPECT_TRUE(this->store_->records()->pending_turns()->empty());
  // Introspection only in the current self-reflection session; its entry is stored and linked.
  EXPECT_EQ(this->query("SELECT id, generated_entry FROM introspection_turn"), (test::table_dump{{"i-1", "mem-i-1"}}));
  EXPECT_EQ(this->query("SELECT content, source_turn_id FROM memory_entry"), (test::table_dump{{"a memory", "i-1"}}));
  EXPECT_EQ(this->query("SELECT turn_id, memory_id, relation FROM memory_links"),
            (test::table_dump{{"i-1", "mem-i-1", "generated"}}));
  records_filter in_s1;
  in_s1.session_id = "s-1";
  const auto introspections = this->store_->records()->introspections(in_s1).value();
  ASSERT_EQ(introspections.total, 1);
  EXPECT_EQ(introspections.items.at(0).generated_entry, "mem-i-1");
  EXPECT_EQ(introspections.items.at(0).duration_ms, 5);
  const auto memory = this->store_->records()->memory_entry("mem-i-1").value();
  ASSERT_TRUE(memory);
  EXPECT_EQ(memory->content, "a memory");
  EXPECT_EQ(memory->source_turn_id, "i-1");
  const auto links = this->store_->records()->memory_links("i-1").value();
  ASSERT_EQ(links.size(), 1U);
  EXPECT_EQ(links[0].relation, "generated");
  EXPECT_EQ(this->store_->records()->linked_memories(dialogue_uuid("root")).value(),
            (std::vector<std::string>{"mem-i-1"}));

  // After s-1 closed, the next input opens a session of its own.
  this->append({d.at(10 * kMinute).user("again")});
  EXPECT_EQ(this->sessions("root").size(), 3U);

  this->expect_rebuild_keeps({"session", "turn", "message", "introspection_turn", "memory_entry", "memory_links"});
}

TYPED_TEST(Records, EveryMessageOfEveryDialogLandsInExactlyOneTurnSessionAndDialogue) {
  test::dialog_script realistic("realistic", "realistic");
  this->append(test::realistic_dialog(realistic));
  for (auto& batch : test::varied_history(5, 3, 200)) this->append(std::move(batch));
  const auto projected = this->query("SELECT count(*) FROM messages");
  const auto recorded = this->query("SELECT count(*) FROM message");
  ASSERT_GT(std::stoll(projected[0][0]), 100);
  EXPECT_EQ(recorded, projected);  // these logs ask no questions: one record per projected message
  EXPECT_EQ(this->query("SELECT count(*) FROM dialogue"), this->query("SELECT count(*) FROM dialogs"));
  // Each message's turn, session and dialogue exist and agree with each other, and every turn
  // holds a message.
  records_filter all;
  all.limit = 100000;
  const auto messages = this->store_->records()->messages(all).value();
  ASSERT_EQ(std::to_string(messages.total), recorded[0][0]);
  std::set<std::string> turns_with_messages;
  for (const record_message& m : messages.items) {
    const auto t = this->store_->records()->turn(m.turn_id).value();
    const auto s = this->store_->records()->session(m.session_id).value();
    ASSERT_TRUE(t && s) << m.id;
    EXPECT_EQ(t->session_id, m.session_id) << m.id;
    EXPECT_EQ(t->dialogue_id, m.dialogue_id) << m.id;
    EXPECT_EQ(s->dialogue_id, m.dialogue_id) << m.id;
    EXPECT_TRUE(this->store_->records()->dialogue(m.dialogue_id).value()) << m.id;
    turns_with_messages.insert(m.turn_id);
  }
  const auto turns = this->store_->records()->turns(all).value();
  EXPECT_EQ(static_cast<std::size_t>(turns.total), turns_with_messages.size());
}

// How the SQLite store keeps those records: by rowid (schema version 16), a text that is its
// event's field once, in the log, and a dialogue's metadata without what the log gives.
TEST(RecordsOnSqlite, RowsReferToEachOtherByRowidAndKeepOnlyWhatTheLogCannotGive) {
  test::sqlite_records_backend backend;
  auto store = backend.open();
  ASSERT_NE(store, nullptr);
  test::dialog_script realistic("realistic", "realistic");
  ASSERT_TRUE(test::append_sync(*store, test::realistic_dialog(realistic)));
  for (auto& batch : test::varied_history(5, 3, 200)) ASSERT_TRUE(test::append_sync(*store, std::move(batch)));
  store->flush();
  const auto recorded = backend.query("SELECT count(*) FROM message");
  EXPECT_EQ(
      backend.query("SELECT count(*) FROM message m JOIN turn t ON t.rowid = m.turn_rowid JOIN session s "
                    "ON s.rowid = m.session_rowid AND s.rowid = t.session_rowid JOIN dialogue d "
                    "ON d.rowid = m.dialogue_rowid AND d.rowid = t.dialogue_rowid AND d.rowid = s.dialogue_rowid"),
      recorded);
  EXPECT_EQ(backend.query("SELECT count(*) FROM turn WHERE rowid NOT IN (SELECT turn_rowid FROM message)"),
            (test::table_dump{{"0"}}));
  // A text that is its event's field is stored once, in the log, and every text reads back.
  EXPECT_NE(backend.query("SELECT count(*) FROM message WHERE content IS NULL"), (test::table_dump{{"0"}}));
  EXPECT_EQ(backend.query("SELECT count(*) FROM message_search WHERE content IS NULL"), (test::table_dump{{"0"}}));
  // A dialogue stores what follows its dialogId and rootId (message_log_metadata.hpp).
  EXPECT_EQ(backend.query("SELECT count(*) FROM dialogue WHERE metadata LIKE '{%'"), (test::table_dump{{"0"}}));
}

TYPED_TEST(Records, FullTextSearchFindsWordsInsideChineseAndEnglishText) {
  timeline d("root");
  this->append({d.created(), d.at(0).user("我明天要去新加坡旅行，需要带伞吗？"),
                d.at(10).ai("明天新加坡38°C，不需要带伞。"), d.at(20).user("and what about Tokyo?")});
  records_filter f;
  auto found = this->store_->records()->search("\"新加坡\"", f);
  ASSERT_TRUE(found) << found.err().message;
  EXPECT_EQ(found->total, 2);
  f.role = events::record_role::ai;
  EXPECT_EQ(this->store_->records()->search("\"新加坡\"", f)->items.at(0).content, "明天新加坡38°C，不需要带伞。");
  EXPECT_EQ(this->store_->records()->search("\"tokyo\"", {})->total, 1);
  EXPECT_EQ(this->store_->records()->search("\"london\"", {})->total, 0);
}

TYPED_TEST(Records, FullTextSearchReadsPastAnEmbeddedNul) {
  timeline d("root");
  using namespace std::string_literals;
  const auto content = "before\0after tokyo"s;
  this->append({d.created(), d.at(0).user(content)});
  auto found = this->store_->records()->search("\"tokyo\"", {});
  ASSERT_TRUE(found) << found.err().message;
  ASSERT_EQ(found->total, 1);
  EXPECT_EQ(found->items.at(0).content, content);  // the record keeps the byte; only the index skips it
  EXPECT_EQ(this->store_->records()->search("\"after\"", {})->total, 1);
}

TYPED_TEST(Records, FiltersPageAndSortByTheRowsOwnTime) {
  timeline d("root");
  std::vector<event> batch{d.created()};
  for (int i = 0; i < 10; ++i) {
    batch.push_back(d.at(i * 2 * kHour).user("q" + std::to_string(i)));
    batch.push_back(d.at(i * 2 * kHour + 10).ai("a" + std::to_string(i)));
  }
  this->append(std::move(batch));
  records_filter f;
  f.dialogue_id = dialogue_uuid("root");
  f.role = events::record_role::human;
  f.since = kT0 + 4 * kHour;
  f.until = kT0 + 8 * kHour;
  auto page = this->store_->records()->messages(f).value();
  EXPECT_EQ(page.total, 3);
  ASSERT_EQ(page.items.size(), 3U);
  EXPECT_EQ(page.items[0].content, "q2");
  f = {};
  f.dialogue_id = dialogue_uuid("root");
  f.descending = true;
  f.limit = 2;
  f.offset = 1;
  auto newest = this->store_->records()->sessions(f).value();
  EXPECT_EQ(newest.total, 10);
  ASSERT_EQ(newest.items.size(), 2U);
  EXPECT_EQ(newest.items[0].start_at, kT0 + 8 * 2 * kHour);
  f.sort_by = "status; DROP TABLE turn";
  EXPECT_FALSE(this->store_->records()->turns(f));
}

// Seed 002: "支持嵌套查询与批量载入（e.g., include=messages）" — the rows of many parents come from one
// query: a filter names any number of dialogues, sessions or turns.
TYPED_TEST(Records, OneQueryReadsTheRowsOfManyParentsInLogOrder) {
  timeline d("root");
  std::vector<event> batch{d.created()};
  for (int i = 0; i < 3; ++i) {
    batch.push_back(d.at(i * 2 * kHour).user("q" + std::to_string(i)));
    batch.push_back(d.at(i * 2 * kHour + 10).ai("a" + std::to_string(i)));
  }
  timeline other("other");
  batch.push_back(other.created());
  batch.push_back(other.at(5).user("elsewhere"));
  this->append(std::move(batch));
  const auto sessions = this->sessions("root");
  ASSERT_EQ(sessions.size(), 3U);
  const auto turns = this->turns("root");
  ASSERT_EQ(turns.size(), 3U);

  records_filter f;
  f.turn_ids = {turns[2].id, turns[0].id};
  auto messages = this->store_->records()->messages(f).value();
  EXPECT_EQ(messages.total, 4);
  ASSERT_EQ(messages.items.size(), 4U);
  EXPECT_EQ(messages.items[0].content, "q0");  // log order, whatever order the parents were named in
  EXPECT_EQ(messages.items[1].content, "a0");
  EXPECT_EQ(messages.items[2].content, "q2");
  EXPECT_EQ(messages.items[3].turn_id, turns[2].id);

  f = {};
  f.session_ids = {sessions[1].id, sessions[2].id};
  auto of_sessions = this->store_->records()->turns(f).value();
  EXPECT_EQ(of_sessions.total, 2);
  ASSERT_EQ(of_sessions.items.size(), 2U);
  EXPECT_EQ(of_sessions.items[0].id, turns[1].id);

  f = {};
  f.dialogue_ids = {dialogue_uuid("root"), dialogue_uuid("other")};
  f.limit = 2;
  auto of_dialogues = this->store_->records()->sessions(f).value();
  EXPECT_EQ(of_dialogues.total, 4);  // the count is of every parent's rows; the page is limited
  EXPECT_EQ(of_dialogues.items.size(), 2U);
}

TYPED_TEST(Records, AFailedBatchLeavesNoRecords) {
  timeline d("root");
  this->append({d.created(), d.at(0).user("hi")});
  auto bad = d.at(10).user("never stored");
  bad.seq += 5;  // a gap: the whole batch is refused
  EXPECT_FALSE(test::append_sync(*this->store_, {d.at(5).ai("fine"), bad}));
  EXPECT_EQ(this->query("SELECT count(*) FROM message"), (test::table_dump{{"1"}}));
  EXPECT_EQ(this->turns("root").at(0).status, events::turn_status::pending);
}

// The writer keeps each dialog's records cursor in memory between commits. A batch refused inside
// a group has already moved its dialog's cursor when it fails; the next batch of that dialog in the
// same transaction must see the cursor as the log has it, not as the refused batch left it.
TYPED_TEST(Records, ABatchRefusedInsideAGroupLeavesNoTraceInItsDialogsNextTurn) {
  timeline d("root");
  this->append({d.created(), d.at(0).user("q1")});
  test::writer_gate gate;
  gate.close(*this->store_, "gate");
  std::vector<result<void>> outcomes(3);
  const event answer = d.at(kMinute).ai("a1");
  this->store_->append({answer}, [&](result<void> r) { outcomes[0] = std::move(r); });
  const event refused_question = d.at(2 * kMinute).user("never stored");
  auto gapped = d.at(2 * kMinute).user("never stored either");
  gapped.seq += 5;
  this->store_->append({refused_question, gapped}, [&](result<void> r) { outcomes[1] = std::move(r); });
  auto next_question = d.at(3 * kMinute).user("q3");
  next_question.seq = answer.seq + 1;
  this->store_->append({next_question}, [&](result<void> r) { outcomes[2] = std::move(r); });
  gate.release();
  this->store_->flush();

  EXPECT_TRUE(outcomes[0]);
  EXPECT_FALSE(outcomes[1]);
  EXPECT_TRUE(outcomes[2]);
  const auto all = this->turns("root");
  ASSERT_EQ(all.size(), 2U);
  EXPECT_EQ(all[0].status, events::turn_status::responded);
  EXPECT_EQ(all[1].status, events::turn_status::pending);
  const auto second = this->messages_of_turn(all[1].id);
  ASSERT_EQ(second.size(), 1U);
  EXPECT_EQ(second[0].content, "q3");
  EXPECT_EQ(this->store_->records()->search("\"never\"", {}).value().total, 0);

  this->expect_rebuild_keeps({"turn", "message", "records_cursor"});

  // The cursors the writer holds after the rebuild are the rebuilt ones.
  auto last_answer = d.at(4 * kMinute).ai("a3");
  last_answer.seq = next_question.seq + 1;
  this->append({last_answer});
  EXPECT_EQ(this->turns("root").at(1).status, events::turn_status::responded);
}

// A group's message from a user; `responder` "" asks no AI (the humans answer), absent: not a group.
event group_message(timeline& d, std::string_view from, std::string_view text, std::string_view responder) {
  return d.next(event_type::user_message, {{"course", 1},
                                           {"content", text},
                                           {"msgId", text},
                                           {"origin", "user"},
                                           {"from", from},
                                           {"responder", responder}});
}

TYPED_TEST(Records, HumansTalkingAmongThemselvesAnswerEachOthersTurnsNeverTheirOwn) {
  timeline d("chat");
  this->append({d.created({{"memberId", ""}, {"humans", json::array{"ann", "ben"}}}),
                group_message(d.at(0), "ann", "lunch today?", ""), group_message(d.at(kMinute), "ann", "at noon", ""),
                group_message(d.at(3 * kMinute), "ben", "yes, noon works", "")});

  const auto dialogue = this->store_->records()->dialogue("chat")->value();
  EXPECT_EQ(dialogue.dialogue_type, events::dialogue_type::human_human);
  EXPECT_EQ(dialogue.human_id, "ann");
  EXPECT_EQ(dialogue.ai_id, "");
  EXPECT_NE(dialogue.metadata.find(R"("humans":["ann","ben"])"), std::string::npos) << dialogue.metadata;

  const auto all = this->turns("chat");
  ASSERT_EQ(all.size(), 2U);
  EXPECT_EQ(all[0].initiator_role, events::record_role::human);
  EXPECT_EQ(all[0].responder_role, events::record_role::human);
  EXPECT_EQ(all[0].status, events::turn_status::responded);  // ben answered; ann's second line did not
  EXPECT_EQ(all[0].response_time, 3 * kMinute);
  EXPECT_EQ(all[1].status, events::turn_status::pending);  // ben's own turn waits for ann
  const auto first = this->messages_of_turn(all[0].id);
  ASSERT_EQ(first.size(), 2U);
  EXPECT_EQ(first[0].sender_id, "ann");
  EXPECT_EQ(first[1].sender_id, "ann");
  EXPECT_EQ(this->messages_of_turn(all[1].id).at(0).sender_id, "ben");
}

TYPED_TEST(Records, InALioTheMentionedMemberAnswersAndEachAiMessageNamesItsSpeaker) {
  timeline d("lio");
  auto answer_by = [&](std::string_view member, std::string_view saying) {
    auto ev = d.ai(saying);
    std::get<events::generation_finished>(ev.payload).member_id = std::string(member);
    return ev;
  };
  this->append(
      {d.created({{"memberId", "alice"}, {"humans", json::array{"ann"}}, {"members", json::array{"alice", "bob"}}}),
       group_message(d.at(0), "ann", "@bob what do you think?", "bob"), answer_by("bob", "I agree."),
       group_message(d.at(kMinute), "ann", "and you?", "alice"), answer_by("alice", "Me too.")});
  EXPECT_EQ(this->store_->records()->dialogue("lio")->value().dialogue_type, events::dialogue_type::lio_group);
  const auto all = this->turns("lio");
  ASSERT_EQ(all.size(), 2U);
  EXPECT_EQ(all[0].status, events::turn_status::responded);
  EXPECT_EQ(all[1].status, events::turn_status::responded);
  EXPECT_EQ(this->messages_of_turn(all[0].id).at(1).sender_id, "bob");
  EXPECT_EQ(this->messages_of_turn(all[1].id).at(1).sender_id, "alice");
  EXPECT_EQ(this->messages_of_turn(all[0].id).at(0).sender_id, "ann");
}

TYPED_TEST(Records, AnAiInAHumanGroupAnswersOnlyTheTurnThatMentionsIt) {
  timeline d("group");
  this->append({d.created({{"memberId", ""}, {"humans", json::array{"ann", "ben"}}, {"members", json::array{"alice"}}}),
                group_message(d.at(0), "ann", "when do we meet?", ""),
                group_message(d.at(kMinute), "ben", "@alice find a day", "alice")});
  auto answer = d.at(2 * kMinute).ai("Friday suits everyone.");
  std::get<events::generation_finished>(answer.payload).member_id = "alice";
  this->append({answer});
  EXPECT_EQ(this->store_->records()->dialogue("group")->value().dialogue_type, events::dialogue_type::human_group_ai);
  const auto all = this->turns("group");
  ASSERT_EQ(all.size(), 2U);
  EXPECT_EQ(all[0].responder_role, events::record_role::human);  // ann asked the group
  EXPECT_EQ(all[0].status, events::turn_status::responded);      // ben's message answered it, and asked the AI
  EXPECT_EQ(all[1].initiator_role, events::record_role::human);
  EXPECT_EQ(all[1].responder_role, events::record_role::ai);
  EXPECT_EQ(all[1].status, events::turn_status::responded);
  EXPECT_EQ(this->messages_of_turn(all[1].id).at(1).sender_id, "alice");
}

// Seed 002 ① and ②: two humans are a private chat, three or more a group; a rebuild agrees.
TYPED_TEST(Records, TwoHumansArePrivateAndThreeOrMoreAreAGroup) {
  timeline pair("pair");
  timeline trio("trio");
  this->append({pair.created({{"memberId", ""}, {"humans", json::array{"ann", "ben"}}}),
                trio.created({{"memberId", ""}, {"humans", json::array{"ann", "ben", "cy"}}}),
                group_message(trio.at(0), "cy", "who is in?", "")});
  EXPECT_EQ(this->store_->records()->dialogue("pair")->value().dialogue_type, events::dialogue_type::human_human);
  EXPECT_EQ(this->store_->records()->dialogue("trio")->value().dialogue_type, events::dialogue_type::human_human_group);
  const auto all = this->turns("trio");
  ASSERT_EQ(all.size(), 1U);
  EXPECT_EQ(all[0].responder_role, events::record_role::human);
  this->expect_rebuild_keeps({"dialogue", "turn", "message"});
  EXPECT_EQ(this->store_->records()->dialogue("trio")->value().dialogue_type, events::dialogue_type::human_human_group);
}

// Seed 002 ⑦ with the AI as host: its turns wait for the AI without a mention, and the dialogue
// names its host.
TYPED_TEST(Records, AHostedGroupOfHumansWaitsForItsHostWithoutAMention) {
  timeline d("hosted");
  this->append(
      {d.created({{"memberId", "alice"}, {"humans", json::array{"ann", "ben"}}, {"members", json::array{"alice"}}}),
       group_message(d.at(0), "ann", "when do we meet?", "alice")});
  const auto dialogue = this->store_->records()->dialogue("hosted")->value();
  EXPECT_EQ(dialogue.dialogue_type, events::dialogue_type::human_group_ai);
  EXPECT_EQ(dialogue.ai_id, "alice");
  EXPECT_NE(dialogue.metadata.find(R"("host":"alice")"), std::string::npos) << dialogue.metadata;
  const auto all = this->turns("hosted");
  ASSERT_EQ(all.size(), 1U);
  EXPECT_EQ(all[0].responder_role, events::record_role::ai);
  EXPECT_EQ(all[0].status, events::turn_status::pending);
}

// Who a page is for: the member that speaks in a session's dialogue (its AI, or one of a group's),
// the roots a user takes part in, and the rows under roots a user (or no human) takes part in.
TYPED_TEST(Records, FiltersByMemberParticipantAndVisibility) {
  timeline mine("mine");
  timeline theirs("theirs");
  timeline nobodys("nobodys");
  timeline lio("lio");
  this->append({mine.created({{"humans", json::array{"ann"}}}), mine.at(0).user("one"),
                theirs.created({{"memberId", "carol"}, {"humans", json::array{"ben"}}}), theirs.at(1).user("two"),
                nobodys.created({{"memberId", "bob"}}), nobodys.at(2).user("three"),
                lio.created({{"humans", json::array{"ann"}}, {"members", json::array{"alice", "bob"}}}),
                group_message(lio.at(3), "ann", "@bob four", "bob")});
  const auto dialogue_ids = [](const auto& rows) {
    std::set<std::string> out;
    for (const auto& row : rows) out.insert(row.dialogue_id);
    return out;
  };
  records_filter f;
  f.ai_id = "bob";
  EXPECT_EQ(dialogue_ids(this->store_->records()->sessions(f).value().items),
            (std::set<std::string>{dialogue_uuid("nobodys"), dialogue_uuid("lio")}));
  f = {};
  f.participant = "ann";
  std::set<std::string> roots;
  for (const auto& d : this->store_->records()->dialogues(f).value().items) roots.insert(d.dialog_id);
  EXPECT_EQ(roots, (std::set<std::string>{"mine", "lio"}));
  f = {};
  f.visible_to = "ben";
  EXPECT_EQ(dialogue_ids(this->store_->records()->messages(f).value().items),
            (std::set<std::string>{dialogue_uuid("theirs")}));
  f.or_unowned = true;
  EXPECT_EQ(dialogue_ids(this->store_->records()->messages(f).value().items),
            (std::set<std::string>{dialogue_uuid("theirs"), dialogue_uuid("nobodys")}));
  EXPECT_EQ(this->store_->records()->search("\"t\" \"three\"", f).value().total, 1);
}

TEST(RecordsMigration, ADatabaseFromBeforeTheRecordsGetsThemFromItsLog) {
  temp_dir dir;
  {
    auto db = sqlite::connection::open_read_write(dir.db_file());
    ASSERT_TRUE(db);
    ASSERT_TRUE(sqlite::migrate(*db, sqlite::records_schema_version() - 1));
    auto exec = db->exec(
        "INSERT INTO events (dialog_id, root_id, seq, type, payload, ts_ms) VALUES "
        "('old', 'old', 1, 'dialog_created', '{\"memberId\":\"alice\",\"kind\":\"root\",\"depth\":0}', 1000),"
        "('old', 'old', 2, 'user_message', '{\"course\":1,\"content\":\"from "
        "v2\",\"msgId\":\"x\",\"origin\":\"user\"}', 2000)");
    ASSERT_TRUE(exec) << exec.err().message;
  }
  auto opened = open_sqlite_store(dir.str());
  ASSERT_TRUE(opened) << opened.err().message;
  const auto page = (*opened)->records()->messages({}).value();
  ASSERT_EQ(page.items.size(), 1U);
  EXPECT_EQ(page.items[0].content, "from v2");
  EXPECT_EQ((*opened)->get_dialog("old")->value().message_count, 1);
}

}  // namespace
}  // namespace parley

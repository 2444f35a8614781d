// One bad byte must never brick the store: the stores refuse events whose text would not read
// back; a log that holds such events anyway (written by an older version, or damaged on disk)
// still opens and serves every other dialog; `parley repair` rewrites or quarantines them.
#include <gtest/gtest.h>

#include <limits>

#include "parley/model/conversation_reducer.hpp"
#include "parley/store/sqlite/log_repair.hpp"
#include "sqlite_raw.hpp"
#include "store_test_support.hpp"

namespace parley {
namespace {

using test::dialog_script;
using test::temp_dir;

std::string hex_of(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (const char c : bytes) {
    out += kDigits[(static_cast<unsigned char>(c) >> 4U) & 0xFU];
    out += kDigits[static_cast<unsigned char>(c) & 0xFU];
  }
  return out;
}

// Overwrites the stored text of one event with raw bytes, as an older Parley or a bad disk would.
void store_raw_payload(const temp_dir& dir, const std::string& dialog_id, std::int64_t seq, std::string_view bytes) {
  const std::string sql = "UPDATE events SET payload = CAST(X'" + hex_of(bytes) + "' AS TEXT) WHERE dialog_id = '" +
                          dialog_id + "' AND seq = " + std::to_string(seq);
  test::exec(dir.db_file(), sql.c_str());
}

void refuses_what_it_could_not_read_back(store& s) {
  dialog_script d("d1", "d1");
  ASSERT_TRUE(test::append_sync(s, {d.created("lead")}));
  auto bad_bytes = test::append_sync(s, {d.user("caf\xFF")});
  ASSERT_FALSE(bad_bytes);
  EXPECT_EQ(bad_bytes.err().code, errc::invalid_argument);
  EXPECT_NE(bad_bytes.err().message.find("event 2 (user_message) of dialog d1: payload.content: byte 0xff at offset 3"),
            std::string::npos)
      << bad_bytes.err().message;

  dialog_script again("d1", "d1");
  again.skip_seq();
  // The typed events hold numbers only as integers; a free-form object (a records write's
  // metadata) can still carry a double.
  auto infinite = test::append_sync(
      s, {again.next(records_event::session_opened,
                     {{"sessionId", "s1"},
                      {"metadata", boost::json::object{{"x", std::numeric_limits<double>::infinity()}}}})});
  ASSERT_FALSE(infinite);
  EXPECT_NE(infinite.err().message.find("payload.metadata.x: is not a finite number"), std::string::npos)
      << infinite.err().message;

  // Nothing of either reached the log or the projections, and the dialog goes on from seq 2.
  EXPECT_EQ(s.read_events("d1").value().size(), 1U);
  EXPECT_EQ(s.get_dialog("d1").value()->last_seq, 1);
  dialog_script fine("d1", "d1");
  fine.skip_seq();
  EXPECT_TRUE(test::append_sync(s, {fine.user("caf\xC3\xA9")}));
  EXPECT_EQ(s.messages("d1", 1).value().size(), 1U);
}

TEST(DamagedLog, TheSqliteStoreRefusesEventsItCouldNotReadBack) {
  temp_dir dir;
  auto s = open_sqlite_store(dir.str());
  ASSERT_TRUE(s) << s.err().message;
  refuses_what_it_could_not_read_back(**s);
}

TEST(DamagedLog, TheMemoryStoreRefusesThemToo) {
  auto s = make_memory_store();
  refuses_what_it_could_not_read_back(*s);
}

class damaged_sqlite_log : public ::testing::Test {
 protected:
  void SetUp() override {
    auto s = open_sqlite_store(dir_.str());
    ASSERT_TRUE(s) << s.err().message;
    dialog_script a("a", "a");
    dialog_script b("b", "b");
    ASSERT_TRUE(test::append_sync(**s, {a.created("lead"), a.user("first"), a.user("second")}));
    ASSERT_TRUE(test::append_sync(**s, {b.created("lead"), b.user("other")}));
  }
  std::unique_ptr<store> reopen() {
    auto s = open_sqlite_store(dir_.str());
    EXPECT_TRUE(s) << s.err().message;
    return s ? std::move(*s) : nullptr;
  }
  temp_dir dir_;
};
using DamagedSqliteLog = damaged_sqlite_log;

TEST_F(DamagedSqliteLog, BadBytesAreReadAsReplacementCharactersAndNamedByTheCheck) {
  store_raw_payload(dir_, "a", 2, "{\"course\":1,\"content\":\"caf\xFF\",\"msgId\":\"m2\",\"origin\":\"user\"}");
  auto s = reopen();
  ASSERT_TRUE(s);
  auto events = s->read_events("a");
  ASSERT_TRUE(events) << events.err().message;
  ASSERT_TRUE(events->at(1).is<events::user_message>());
  EXPECT_EQ(events->at(1).as<events::user_message>()->content, "caf\xEF\xBF\xBD");
  auto damaged = s->damaged_events();
  ASSERT_TRUE(damaged) << damaged.err().message;
  ASSERT_EQ(damaged->size(), 1U);
  EXPECT_EQ(damaged->at(0).dialog_id, "a");
  EXPECT_EQ(damaged->at(0).seq, 2);
  EXPECT_EQ(damaged->at(0).type, "user_message");
  EXPECT_NE(damaged->at(0).problem.find("byte 0xff"), std::string::npos) << damaged->at(0).problem;
  EXPECT_EQ(s->read_events("b").value().size(), 2U);
}

TEST_F(DamagedSqliteLog, NonFiniteNumbersWrittenAsInfinityReadAsNull) {
  // In a field the typed user_message does not list (ignored when read), so the event still reads.
  store_raw_payload(dir_, "b", 2,
                    R"({"course":1,"content":"other","msgId":"m2","metadata":{"x":Infinity},"origin":"user"})");
  auto s = reopen();
  ASSERT_TRUE(s);
  auto events = s->read_events("b");
  ASSERT_TRUE(events) << events.err().message;
  ASSERT_TRUE(events->at(1).is<events::user_message>());
  EXPECT_EQ(events->at(1).as<events::user_message>()->content, "other");
  EXPECT_EQ(s->damaged_events().value().size(), 1U);
}

TEST_F(DamagedSqliteLog, AnEventMissingAFieldFailsOnlyItsDialogNamingTheFieldUntilRepairQuarantinesIt) {
  // JSON that parses, but a user_message without its msgId: never a silent default.
  store_raw_payload(dir_, "a", 2, R"({"course":1,"content":"first","origin":"user"})");
  {
    auto s = reopen();
    ASSERT_TRUE(s);
    auto events = s->read_events("a");
    ASSERT_FALSE(events);
    EXPECT_EQ(events.err().code, errc::corrupt);
    EXPECT_NE(events.err().message.find("event 2 (user_message) of dialog a does not decode: msgId: is missing"),
              std::string::npos)
        << events.err().message;
    EXPECT_EQ(s->read_events("b").value().size(), 2U);
    auto damaged = s->damaged_events();
    ASSERT_TRUE(damaged) << damaged.err().message;
    ASSERT_EQ(damaged->size(), 1U);
    EXPECT_EQ(damaged->at(0).seq, 2);
    EXPECT_EQ(damaged->at(0).problem, "msgId: is missing");
  }
  auto repaired = sqlite::repair_damaged_events(dir_.str());
  ASSERT_TRUE(repaired) << repaired.err().message;
  ASSERT_EQ(repaired->size(), 1U);
  EXPECT_NE(repaired->at(0).action.find("quarantined"), std::string::npos) << repaired->at(0).action;
  auto s = reopen();
  ASSERT_TRUE(s);
  ASSERT_TRUE(s->rebuild_projections());
  auto events = s->read_events("a");
  ASSERT_TRUE(events) << events.err().message;
  ASSERT_TRUE(events->at(1).is<events::event_quarantined>());
  EXPECT_EQ(events->at(1).as<events::event_quarantined>()->problem, "msgId: is missing");
  EXPECT_TRUE(s->damaged_events().value().empty());
}

TEST_F(DamagedSqliteLog, AnUnreadableEventFailsOnlyItsOwnDialogUntilRepairQuarantinesIt) {
  store_raw_payload(dir_, "a", 2, "{\"course\":1,\"content\":tru");
  {
    auto s = reopen();
    ASSERT_TRUE(s);
    auto events = s->read_events("a");
    ASSERT_FALSE(events);
    EXPECT_EQ(events.err().code, errc::corrupt);
    EXPECT_NE(events.err().message.find("event 2 (user_message) of dialog a cannot be read"), std::string::npos)
        << events.err().message;
    EXPECT_NE(events.err().message.find("parley repair"), std::string::npos);
    EXPECT_EQ(s->read_events("b").value().size(), 2U);
    EXPECT_EQ(s->list_dialogs({}).value().size(), 2U);
  }
  auto repaired = sqlite::repair_damaged_events(dir_.str());
  ASSERT_TRUE(repaired) << repaired.err().message;
  ASSERT_EQ(repaired->size(), 1U);
  EXPECT_NE(repaired->at(0).action.find("quarantined"), std::string::npos) << repaired->at(0).action;

  auto s = reopen();
  ASSERT_TRUE(s);
  ASSERT_TRUE(s->rebuild_projections());
  auto events = s->read_events("a");
  ASSERT_TRUE(events) << events.err().message;
  ASSERT_EQ(events->size(), 3U);
  EXPECT_EQ(events->at(1).type(), event_type::event_quarantined);
  ASSERT_TRUE(events->at(1).is<events::event_quarantined>());
  EXPECT_EQ(events->at(1).as<events::event_quarantined>()->original_type, "user_message");
  // The dialog replays: the quarantined event changes nothing, the one after it still counts.
  auto messages = s->messages("a", 1).value();
  ASSERT_EQ(messages.size(), 1U);
  EXPECT_EQ(messages[0].content, "second");
  EXPECT_TRUE(s->damaged_events().value().empty());
  const auto kept = test::query(dir_.db_file(),
                                "SELECT dialog_id, seq, type, hex(original_payload), action "
                                "FROM quarantined_events");
  ASSERT_EQ(kept.size(), 1U);
  EXPECT_EQ(kept[0][0], "a");
  EXPECT_EQ(kept[0][1], "2");
  EXPECT_EQ(kept[0][2], "user_message");
  std::string upper_hex = hex_of("{\"course\":1,\"content\":tru");
  for (auto& c : upper_hex) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  EXPECT_EQ(kept[0][3], upper_hex);
}

TEST_F(DamagedSqliteLog, RepairRewritesWhatARepairingReadUnderstandsAndKeepsTheOriginal) {
  store_raw_payload(dir_, "a", 3, "{\"course\":1,\"content\":\"cr\xE8me\",\"msgId\":\"m3\",\"origin\":\"user\"}");
  auto repaired = sqlite::repair_damaged_events(dir_.str());
  ASSERT_TRUE(repaired) << repaired.err().message;
  ASSERT_EQ(repaired->size(), 1U);
  EXPECT_EQ(repaired->at(0).action, "rewritten: 1 invalid UTF-8 sequence(s) replaced by U+FFFD");
  const auto rows = test::query(dir_.db_file(), "SELECT payload FROM events WHERE dialog_id = 'a' AND seq = 3");
  ASSERT_EQ(rows.size(), 1U);
  EXPECT_NE(rows[0][0].find("cr\xEF\xBF\xBDme"), std::string::npos) << rows[0][0];
  EXPECT_EQ(test::query(dir_.db_file(), "SELECT count(*) FROM quarantined_events")[0][0], "1");
  // A second repair finds nothing left to do.
  EXPECT_TRUE(sqlite::repair_damaged_events(dir_.str()).value().empty());
}

TEST_F(DamagedSqliteLog, AnUnreadableCreationQuarantinesItsWholeDialog) {
  store_raw_payload(dir_, "b", 1, "not json at all");
  auto repaired = sqlite::repair_damaged_events(dir_.str());
  ASSERT_TRUE(repaired) << repaired.err().message;
  ASSERT_EQ(repaired->size(), 1U);
  EXPECT_NE(repaired->at(0).action.find("quarantined with its dialog (2 events)"), std::string::npos);
  auto s = reopen();
  ASSERT_TRUE(s);
  ASSERT_TRUE(s->rebuild_projections());
  auto dialogs = s->list_dialogs({}).value();
  ASSERT_EQ(dialogs.size(), 1U);
  EXPECT_EQ(dialogs[0].id, "a");
  EXPECT_EQ(test::query(dir_.db_file(), "SELECT count(*) FROM quarantined_events WHERE dialog_id = 'b'")[0][0], "2");
}

}  // namespace
}  // namespace parley

// Schema version 18: the log's payloads compressed with a fixed dictionary
// (store/sqlite/payload_codec.hpp). A blob decodes to the very JSON it was made from, old TEXT rows
// read as before, an unreadable blob is an error naming its event, and dictionary 1 never changes.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <boost/json.hpp>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "parley/core/fnv1a.hpp"
#include "parley/model/event_codec.hpp"
#include "parley/store/sqlite/log_repair.hpp"
#include "parley/store/sqlite/payload_codec.hpp"
#include "parley/store/sqlite/schema.hpp"
#include "parley/store/sqlite/sqlite_handle.hpp"
#include "sqlite_raw.hpp"
#include "store_scenarios.hpp"
#include "store_test_support.hpp"

namespace parley {
namespace {

using test::dialog_script;
using test::kEveryColumn;
using test::kReadable;
using test::open_or_fail;
using test::temp_dir;

std::string long_json() {
  return R"({"course":1,"content":"You are the responder (tellaskee dialog) for this dialog; the tellasker )"
         R"(dialog is @lead (the current caller).\n\nPlease summarise the three files.","origin":"tellask"})";
}

// Old blobs need these exact bytes: editing the dictionary would make every stored blob unreadable.
TEST(PayloadCodec, DictionaryOneIsFrozen) {
  EXPECT_EQ(sqlite::payload_dictionary_v1().size(), 10620U);
  EXPECT_EQ(fnv1a(sqlite::payload_dictionary_v1()), 0x21eeb369e65bcb26ULL);
}

TEST(PayloadCodec, ALongPayloadBecomesASmallerBlobThatDecodesToTheSameText) {
  const std::string json = long_json();
  std::string blob;
  auto made = sqlite::encode_payload_blob(json, blob);
  ASSERT_TRUE(made) << made.err().message;
  ASSERT_TRUE(*made);
  EXPECT_EQ(static_cast<unsigned char>(blob[0]), sqlite::kPayloadFormatZstdDict1);
  EXPECT_LT(blob.size(), json.size() / 2);
  auto text = sqlite::decode_payload_blob(blob);
  ASSERT_TRUE(text) << text.err().message;
  EXPECT_EQ(*text, json);
}

TEST(PayloadCodec, AShortPayloadOrOneThatDoesNotShrinkStaysText) {
  std::string blob = "left over";
  auto made = sqlite::encode_payload_blob(R"({"x":1})", blob);
  ASSERT_TRUE(made);
  EXPECT_FALSE(*made);
  EXPECT_TRUE(blob.empty());
  made = sqlite::encode_payload_blob(R"({"q":"Zx8#kP2@vL9!mQ4$"})", blob);
  ASSERT_TRUE(made);
  EXPECT_FALSE(*made);
  made = sqlite::encode_payload_blob(R"({"course":1,"genseq":1,"round":1})", blob);
  ASSERT_TRUE(made);
  EXPECT_TRUE(*made);
  EXPECT_LE(blob.size(), 20U);
}

TEST(PayloadCodec, ADamagedBlobIsAnErrorSayingWhatIsWrong) {
  std::string blob;
  ASSERT_TRUE(sqlite::encode_payload_blob(long_json(), blob));
  EXPECT_NE(sqlite::decode_payload_blob("").err().message.find("empty"), std::string::npos);
  std::string other_format = blob;
  other_format[0] = 2;
  EXPECT_NE(sqlite::decode_payload_blob(other_format).err().message.find("format byte 2"), std::string::npos);
  EXPECT_EQ(sqlite::decode_payload_blob(blob.substr(0, 2)).err().code, errc::corrupt);
  EXPECT_EQ(sqlite::decode_payload_blob(blob.substr(0, blob.size() - 3)).err().code, errc::corrupt);
  std::string flipped = blob;
  for (std::size_t i = 4; i < flipped.size(); i += 3) flipped[i] = static_cast<char>(~flipped[i]);
  auto read = sqlite::decode_payload_blob(flipped);
  if (read) {
    EXPECT_NE(*read, long_json());  // never the original: zstd has no checksum here, the reader's JSON check follows
  }
}

// Every event type the product has written (tests/data/events-v1.jsonl), each in a dialog of its
// own, is stored and read back equal; the long ones are stored as blobs.
TEST(PayloadCodec, EveryEventTypeOfTheFixtureRoundTripsThroughTheStore) {
  temp_dir dir;
  auto s = open_or_fail(dir);
  ASSERT_NE(s, nullptr);
  std::ifstream in(std::filesystem::path(PARLEY_SOURCE_DIR) / "tests" / "data" / "events-v1.jsonl");
  ASSERT_TRUE(in);
  std::vector<event> written;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const auto wire = boost::json::parse(line).as_object();
    const std::string type(wire.at("type").as_string());
    auto typed = decode_payload(type, wire.at("payload").as_object());
    ASSERT_TRUE(typed) << type << ": " << typed.err().message;
    const std::string id = "d-" + std::to_string(++number);
    dialog_script script(id, id);
    std::vector<event> batch;
    // A dialog_created of the fixture is the dialog's first event, and so is a dialog_forked (at
    // the seq after the events it shares); any other follows a dialog_created.
    const bool opens = type == event_type::dialog_created || type == event_type::dialog_forked;
    if (!opens) batch.push_back(script.created("lead"));
    event ev = script.user("placeholder");
    if (const auto* forked = std::get_if<events::dialog_forked>(&*typed)) ev.seq = forked->through_seq + 1;
    ev.payload = std::move(*typed);
    batch.push_back(ev);
    auto appended = test::append_sync(*s, std::move(batch));
    ASSERT_TRUE(appended) << line << ": " << appended.err().message;
    written.push_back(ev);
  }
  ASSERT_GT(written.size(), 30U);
  for (const auto& ev : written) {
    auto read = s->read_events(ev.dialog_id);
    ASSERT_TRUE(read) << read.err().message;
    ASSERT_FALSE(read->empty());
    EXPECT_EQ(read->back().payload, ev.payload) << ev.type();
  }
  EXPECT_NE(test::query(dir.db_file(), "SELECT count(*) FROM event_log WHERE typeof(payload) = 'blob'"),
            (test::table_dump{{"0"}}));
}

// A store of version 17 (its TEXT rows kept) migrates without a rewrite: the same rows through
// `events` and `events_readable`, the same projections, equal to a rebuild; new rows are blobs
// beside the old TEXT ones and both read.
TEST(PayloadCodec, AVersionSeventeenStoreReadsTheSameAfterTheMigrationAndTakesBlobsBesideItsText) {
  temp_dir written;
  {
    auto s = open_or_fail(written);
    ASSERT_NE(s, nullptr);
    for (auto& batch : test::varied_history(23, 4, 30)) ASSERT_TRUE(test::append_sync(*s, std::move(batch)));
  }
  const auto rows = test::query(written.db_file(), kEveryColumn);
  ASSERT_GE(rows.size(), 60U);
  const auto projections = test::dump_projections(written.db_file());

  temp_dir old;
  {
    auto db = sqlite::connection::open_read_write(old.db_file());
    ASSERT_TRUE(db) << db.err().message;
    ASSERT_TRUE(sqlite::migrate(*db, 17));
    auto attached = db->exec(("ATTACH '" + written.db_file() + "' AS w").c_str());
    ASSERT_TRUE(attached) << attached.err().message;
    auto copied = db->exec(
        "INSERT INTO events (id, dialog_id, root_id, seq, type, payload, ts_ms) "
        "SELECT id, dialog_id, root_id, seq, type, payload, ts_ms FROM w.events ORDER BY id");
    ASSERT_TRUE(copied) << copied.err().message;
    ASSERT_TRUE(db->exec("DETACH w"));
  }
  EXPECT_EQ(test::query(old.db_file(), "SELECT DISTINCT typeof(payload) FROM event_log"), (test::table_dump{{"text"}}));
  const auto readable_before = test::query(old.db_file(), kReadable);

  auto s = open_or_fail(old);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(test::query(old.db_file(), "SELECT version FROM schema_version"),
            (test::table_dump{{std::to_string(sqlite::latest_schema_version())}}));
  EXPECT_EQ(test::query(old.db_file(), kEveryColumn), rows);
  EXPECT_EQ(test::query(old.db_file(), kReadable), readable_before);
  EXPECT_EQ(test::dump_projections(old.db_file()), projections);
  ASSERT_TRUE(s->rebuild_projections());
  EXPECT_EQ(test::dump_projections(old.db_file()), projections);

  dialog_script late("late-1", "late-1");
  const event created = late.created("lead");
  const event user = late.user(long_json());
  auto appended = test::append_sync(*s, {created, user});
  ASSERT_TRUE(appended) << appended.err().message;
  EXPECT_EQ(test::query(old.db_file(), "SELECT DISTINCT typeof(payload) FROM event_log ORDER BY 1"),
            (test::table_dump{{"blob"}, {"text"}}));
  auto all = s->read_all_events();
  ASSERT_TRUE(all) << all.err().message;
  EXPECT_EQ(all->size(), rows.size() + 2);
  EXPECT_EQ(all->back().payload, user.payload);
  // The message-id index reads through the function: a retry of the blob's message is found.
  auto found = s->find_input(std::get<events::user_message>(user.payload).msg_id);
  ASSERT_TRUE(found) << found.err().message;
  EXPECT_TRUE(found->has_value());
}

// Damage to a blob fails its dialog alone, with an error naming the event, and `parley check`
// (damaged_events) lists it; it never crashes a reader.
TEST(PayloadCodec, ACorruptedBlobIsAnErrorNamingItsEventAndTheCheckListsIt) {
  temp_dir dir;
  auto s = open_or_fail(dir);
  ASSERT_NE(s, nullptr);
  dialog_script root("root-1", "root-1");
  dialog_script other("root-2", "root-2");
  // A title long enough to be compressed: dialog_created is in no expression index, so the damage
  // below is written as a disk would, without SQLite reading the old blob.
  ASSERT_TRUE(test::append_sync(*s, {root.created("lead", {}, long_json()), root.user("hi"), other.created("lead")}));
  ASSERT_EQ(
      test::query(dir.db_file(), "SELECT typeof(payload) FROM event_log WHERE seq = 1 AND type_code = 1 ORDER BY id"),
      (test::table_dump{{"blob"}, {"blob"}}));
  test::exec(dir.db_file(), "UPDATE event_log SET payload = substr(payload, 1, length(payload) - 5) WHERE id = 1");
  auto read = s->read_events("root-1");
  ASSERT_FALSE(read);
  EXPECT_NE(read.err().message.find("event 1 (dialog_created) of dialog root-1"), std::string::npos)
      << read.err().message;
  EXPECT_TRUE(s->read_events("root-2"));
  auto damaged = s->damaged_events();
  ASSERT_TRUE(damaged) << damaged.err().message;
  ASSERT_EQ(damaged->size(), 1U);
  EXPECT_EQ(damaged->front().dialog_id, "root-1");
  EXPECT_EQ(damaged->front().seq, 1);
  EXPECT_NE(damaged->front().problem.find("payload blob"), std::string::npos) << damaged->front().problem;
}

// A damaged blob of a user message, which the msgId index covers: the repair quarantines it (the
// index's expression reads it as NULL instead of failing the change) and keeps its stored bytes.
TEST(PayloadCodec, TheRepairQuarantinesADamagedBlobThatAnIndexCovers) {
  temp_dir dir;
  {
    auto s = open_or_fail(dir);
    ASSERT_NE(s, nullptr);
    dialog_script root("root-1", "root-1");
    ASSERT_TRUE(test::append_sync(*s, {root.created("lead"), root.user(long_json()), root.user("after")}));
  }
  ASSERT_EQ(test::query(dir.db_file(), "SELECT typeof(payload) FROM event_log WHERE seq = 2"),
            (test::table_dump{{"blob"}}));
  const test::table_dump damaged_bytes =
      test::query(dir.db_file(), "SELECT hex(substr(payload, 1, length(payload) - 5)) FROM event_log WHERE seq = 2");
  {
    // Through Parley's connection: the row is in the msgId index, whose expression needs the function.
    auto db = sqlite::connection::open_read_write(dir.db_file());
    ASSERT_TRUE(db) << db.err().message;
    ASSERT_TRUE(db->exec("UPDATE event_log SET payload = substr(payload, 1, length(payload) - 5) WHERE seq = 2"));
  }
  auto repaired = sqlite::repair_damaged_events(dir.str());
  ASSERT_TRUE(repaired) << repaired.err().message;
  ASSERT_EQ(repaired->size(), 1U);
  EXPECT_EQ(repaired->front().event.seq, 2);
  EXPECT_NE(repaired->front().action.find("quarantined"), std::string::npos) << repaired->front().action;
  EXPECT_EQ(test::query(dir.db_file(), "SELECT hex(original_payload) FROM quarantined_events"), damaged_bytes);
  auto s = open_or_fail(dir);
  ASSERT_NE(s, nullptr);
  auto read = s->read_events("root-1");
  ASSERT_TRUE(read) << read.err().message;
  ASSERT_EQ(read->size(), 3U);
  EXPECT_EQ((*read)[1].type(), event_type::event_quarantined);
  auto damaged = s->damaged_events();
  ASSERT_TRUE(damaged) << damaged.err().message;
  EXPECT_TRUE(damaged->empty());
}

// The function remembers the last blob it decoded (the msgId indexes ask twice per row): each
// call still answers its own blob's text, whatever came before, and a damaged blob stays NULL.
TEST(PayloadCodec, TheSqlFunctionAnswersEachBlobsOwnTextWhenBlobsRepeatOrAlternate) {
  const std::string first = long_json();
  const std::string second = R"({"appends":[{"path":"","messages":[]}],"note":")" + std::string(200, 'z') + R"("})";
  std::string first_blob;
  std::string second_blob;
  ASSERT_TRUE(*sqlite::encode_payload_blob(first, first_blob));
  ASSERT_TRUE(*sqlite::encode_payload_blob(second, second_blob));
  std::string damaged = first_blob;
  damaged.back() = static_cast<char>(damaged.back() ^ 0x5a);
  damaged.resize(damaged.size() - 3);
  sqlite3* raw = nullptr;
  ASSERT_EQ(sqlite3_open(":memory:", &raw), SQLITE_OK);
  std::unique_ptr<sqlite3, decltype(&sqlite3_close)> db(raw, &sqlite3_close);
  ASSERT_EQ(sqlite::register_payload_function(raw), SQLITE_OK);
  sqlite3_stmt* stmt = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(raw,
                               "SELECT parley_payload(?1), parley_payload(?1), parley_payload(?2), "
                               "parley_payload(?1), parley_payload(?3), parley_payload(?2)",
                               -1, &stmt, nullptr),
            SQLITE_OK);
  std::unique_ptr<sqlite3_stmt, decltype(&sqlite3_finalize)> query(stmt, &sqlite3_finalize);
  sqlite3_bind_blob(stmt, 1, first_blob.data(), static_cast<int>(first_blob.size()), SQLITE_STATIC);
  sqlite3_bind_blob(stmt, 2, second_blob.data(), static_cast<int>(second_blob.size()), SQLITE_STATIC);
  sqlite3_bind_blob(stmt, 3, damaged.data(), static_cast<int>(damaged.size()), SQLITE_STATIC);
  ASSERT_EQ(sqlite3_step(stmt), SQLITE_ROW);
  const auto text_at = [stmt](int column) {
    const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, column));
    return text == nullptr ? std::string("NULL") : std::string(text);
  };
  EXPECT_EQ(text_at(0), first);
  EXPECT_EQ(text_at(1), first);
  EXPECT_EQ(text_at(2), second);
  EXPECT_EQ(text_at(3), first);
  EXPECT_EQ(text_at(4), "NULL");
  EXPECT_EQ(text_at(5), second);
}

// The sqlite3 shell has no parley_payload: it still reads the log's scalar columns (the payload
// needs `parley events`).
TEST(PayloadCodec, AConnectionWithoutTheFunctionStillReadsTheLogsScalarColumns) {
  temp_dir dir;
  {
    auto s = open_or_fail(dir);
    ASSERT_NE(s, nullptr);
    dialog_script root("root-1", "root-1");
    ASSERT_TRUE(test::append_sync(*s, {root.created("lead"), root.user(long_json())}));
  }
  sqlite3* raw = nullptr;
  ASSERT_EQ(sqlite3_open_v2(dir.db_file().c_str(), &raw, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  std::unique_ptr<sqlite3, decltype(&sqlite3_close)> db(raw, &sqlite3_close);
  std::string seen;
  char* message = nullptr;
  const int rc = sqlite3_exec(
      db.get(), "SELECT seq, type_code, typeof(payload) FROM event_log ORDER BY id",
      [](void* out, int columns, char** values, char**) {
        auto& text = *static_cast<std::string*>(out);
        for (int c = 0; c < columns; ++c) text += std::string(values[c]) + (c + 1 < columns ? "," : ";");
        return 0;
      },
      &seen, &message);
  EXPECT_EQ(rc, SQLITE_OK) << (message != nullptr ? message : "");
  sqlite3_free(message);
  EXPECT_EQ(seen, "1,1,blob;2,2,blob;");
}

}  // namespace
}  // namespace parley

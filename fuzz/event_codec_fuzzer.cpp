// The event codec: UTF-8 checks and repair (core/utf8.hpp), the JSON checks (core/json_check.hpp),
// the store's append check (store/append_check.hpp) and the SQLite row codec that writes an event
// and reads it back (store/sqlite). An input is `<dialog id>\n<type>\n<payload text>`.
//  - UTF-8: first_invalid_utf8 agrees with a decoder written here from RFC 3629; repair_utf8's
//    output is always valid, leaves valid text alone, replaces something in invalid text, and is
//    stable (repairing it again changes nothing); messages about bad bytes are UTF-8 themselves.
//  - JSON: parse_json_strict accepts exactly what parses and find_unwritable_json accepts; a tree
//    it accepts serializes and parses back equal (doubles within a few ULP: Boost.JSON 1.81's
//    parser is not correctly rounded); parse_json_repairing never fails on what parses, changes
//    nothing then, and says what it repaired otherwise; what it repaired, the log can hold.
//  - check_appendable takes an event exactly when its ids, type and payload (as the typed codec
//    writes it) are writable, and its refusals are UTF-8. An event it takes, written by the store's
//    table writer and read back by read_event, is the same event. Any payload text put in the
//    table reads back as a typed event or as a `corrupt` error, never anything else.
#include <boost/json/serialize.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>

#include "fuzz_support.hpp"
#include "parley/core/json.hpp"
#include "parley/core/json_check.hpp"
#include "parley/core/utf8.hpp"
#include "parley/model/event_codec.hpp"
#include "parley/store/append_check.hpp"
#include "parley/store/sqlite/row_codec.hpp"
#include "parley/store/sqlite/schema.hpp"
#include "parley/store/sqlite/sqlite_handle.hpp"
#include "parley/store/sqlite/table_writer.hpp"

namespace {

using namespace parley;
using parley::fuzz::as_text;

// RFC 3629, decoded to code points: the offset of the first byte that starts no well-formed
// sequence.
std::optional<std::size_t> reference_first_invalid(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto b = static_cast<unsigned char>(s[i]);
    std::size_t length = 0;
    std::uint32_t cp = 0;
    if (b < 0x80) {
      length = 1;
      cp = b;
    } else if ((b & 0xE0) == 0xC0) {
      length = 2;
      cp = b & 0x1F;
    } else if ((b & 0xF0) == 0xE0) {
      length = 3;
      cp = b & 0x0F;
    } else if ((b & 0xF8) == 0xF0) {
      length = 4;
      cp = b & 0x07;
    } else {
      return i;
    }
    if (i + length > s.size()) return i;
    for (std::size_t k = 1; k < length; ++k) {
      const auto c = static_cast<unsigned char>(s[i + k]);
      if ((c & 0xC0) != 0x80) return i;
      cp = (cp << 6) | (c & 0x3F);
    }
    static constexpr std::uint32_t kMinimum[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kMinimum[length] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return i;
    i += length;
  }
  return std::nullopt;
}

void check_utf8(std::string_view text) {
  const auto found = first_invalid_utf8(text);
  const auto expected = reference_first_invalid(text);
  FUZZ_CHECK(found == expected, "first_invalid_utf8 says " + (found ? std::to_string(*found) : "valid") +
                                    ", the reference " + (expected ? std::to_string(*expected) : "valid"));
  const utf8_repair repaired = repair_utf8(text);
  FUZZ_CHECK(is_valid_utf8(repaired.text), "repair_utf8 left invalid UTF-8");
  if (!found) {
    FUZZ_CHECK(repaired.text == text && repaired.replaced == 0, "repair_utf8 changed valid text");
    return;
  }
  FUZZ_CHECK(repaired.replaced > 0, "repair_utf8 replaced nothing in invalid text");
  FUZZ_CHECK(repaired.text.size() <= text.size() * 3, "repair_utf8 grew the text more than U+FFFD per byte");
  const utf8_repair twice = repair_utf8(repaired.text);
  FUZZ_CHECK(twice.text == repaired.text && twice.replaced == 0, "repair_utf8 is not stable");
  const std::string described = describe_invalid_utf8(text, *found);
  FUZZ_CHECK(is_valid_utf8(described), "describe_invalid_utf8 is not UTF-8: " + described);
  const text_position at = position_of(text, *found);
  FUZZ_CHECK(at.column <= *found && at.line <= *found, "position_of is past the offset");
}

void check_json(std::string_view text) {
  auto parsed = parse_json(text);
  auto strict = parse_json_strict(text);
  const bool writable = parsed && !find_unwritable_json(*parsed);
  FUZZ_CHECK(strict.has_value() == writable, "parse_json_strict disagrees with parse_json + find_unwritable_json");
  if (writable) {
    const std::string written = boost::json::serialize(*parsed);
    auto again = parse_json(written);
    FUZZ_CHECK(again && *again == *parsed, "a writable tree does not read back: " + written);
  }
  std::string repairs;
  auto repaired = parse_json_repairing(text, repairs);
  if (parsed) {
    FUZZ_CHECK(repaired && *repaired == *parsed && repairs.empty(), "parse_json_repairing changed valid JSON");
  } else if (repaired) {
    FUZZ_CHECK(!repairs.empty(), "parse_json_repairing read invalid JSON and says it repaired nothing");
    FUZZ_CHECK(is_valid_utf8(repairs), "the repairs are not UTF-8");
    // `parley repair` writes the repaired tree back: it must be one the log can hold.
    if (auto problem = find_unwritable_json(*repaired)) {
      FUZZ_CHECK(false, "a repaired tree still cannot be written: " + problem->message());
    }
  } else {
    FUZZ_CHECK(repairs.empty(), "parse_json_repairing failed yet reports repairs");
  }
}

struct codec_db {
  sqlite::connection db;
  sqlite::table_writer writer;
  sqlite::statement read;
  sqlite::statement raw_insert;
  sqlite::statement clear;

  codec_db() : db(sqlite::connection::open_read_write(":memory:").value()) {
    fuzz::must(sqlite::migrate(db), "migrate");
    fuzz::must(writer.prepare(db), "prepare the table writer");
    fuzz::must(
        sqlite::prepare_into(db, read, "SELECT " + sqlite::event_columns() + " FROM events_stored e WHERE e.id = ?1"),
        "prepare the read");
    fuzz::must(sqlite::prepare_into(db, raw_insert,
                                    "INSERT INTO events (dialog_id, root_id, seq, type, payload, ts_ms) "
                                    "VALUES (?1, ?1, 1, ?2, ?3, 7)"),
               "prepare the raw insert");
    fuzz::must(sqlite::prepare_into(db, clear, "DELETE FROM events"), "prepare the delete");
  }

  result<event> read_back(std::int64_t id) {
    sqlite::reset_guard guard(read);
    read.bind_int(1, id);
    auto row = read.step();
    FUZZ_CHECK(row && *row, "the event just written is not there");
    return sqlite::read_event(read);
  }
};

void check_event(codec_db& store, std::string_view dialog_id, std::string_view type, std::string_view text) {
  event ev;
  ev.dialog_id = std::string(dialog_id);
  ev.root_id = std::string(dialog_id);
  ev.seq = 1;
  ev.ts_ms = 1700000000123;
  auto parsed = parse_json(text);
  bool built = false;
  if (parsed && parsed->is_object()) {
    // What the typed codec refuses is never appended: producers build structs.
    if (auto typed = decode_payload(type, parsed->get_object())) {
      ev.payload = std::move(*typed);
      built = true;
    }
  } else if (is_known_event_type(type)) {
    // Built in code rather than parsed: strings need not be UTF-8 here.
    ev.payload = events::tool_result{1, 1, std::string(type), "fuzz", true, std::string(text)};
    built = true;
  } else {
    boost::json::object raw;
    raw["content"] = json::string(text);
    raw[json::string_view(type)] = 1e300 * (text.size() % 3 == 0 ? 1e300 : 1.0);
    ev.payload = events::unknown_event{std::string(type), std::move(raw)};
    built = true;
  }
  if (built) {
    const auto wire = encode_payload(ev.payload);
    const std::string_view ev_type = ev.type();
    const bool ids_ok = is_valid_utf8(ev.dialog_id) && is_valid_utf8(ev_type);
    const bool payload_ok = !find_unwritable_json(wire);
    const auto checked = check_appendable({ev});
    FUZZ_CHECK(checked.has_value() == (ids_ok && payload_ok), "check_appendable disagrees with the checks");
    if (!checked) {
      FUZZ_CHECK(checked.err().code == errc::invalid_argument, "refused with another code");
      FUZZ_CHECK(is_valid_utf8(checked.err().message), "the refusal is not UTF-8: " + checked.err().message);
    } else {
      fuzz::must(store.clear.run(), "delete");
      auto id = store.writer.insert_event(ev);
      FUZZ_CHECK(id.has_value(), "the table writer refused an event check_appendable took");
      auto back = store.read_back(*id);
      FUZZ_CHECK(back.has_value(), "an appendable event does not read back: " + (back ? "" : back.err().message));
      FUZZ_CHECK(back->dialog_id == ev.dialog_id && back->root_id == ev.root_id && back->seq == ev.seq &&
                     back->type() == ev_type && back->ts_ms == ev.ts_ms,
                 "the event's columns changed");
      const auto back_wire = encode_payload(back->payload);
      FUZZ_CHECK(back_wire == wire,
                 "the payload changed: " + boost::json::serialize(wire) + " → " + boost::json::serialize(back_wire));
    }
  }
  const bool ids_ok = is_valid_utf8(dialog_id) && is_valid_utf8(type);

  // Whatever text a damaged log holds reads as an object, or as `corrupt`.
  fuzz::must(store.clear.run(), "delete");
  store.raw_insert.bind_text(1, dialog_id);
  store.raw_insert.bind_text(2, type);
  store.raw_insert.bind_text(3, text);
  fuzz::must(store.raw_insert.run(), "raw insert");
  auto damaged = store.read_back(store.db.last_insert_rowid());
  if (!damaged) {
    FUZZ_CHECK(damaged.err().code == errc::corrupt, "a damaged payload read as " + damaged.err().message);
    if (ids_ok) FUZZ_CHECK(is_valid_utf8(damaged.err().message), "the corrupt error is not UTF-8");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static codec_db store;
  const std::string_view input = as_text(data, size);
  check_utf8(input);
  const auto parts = fuzz::split_parts(input, "\n");
  const std::string_view dialog_id = parts[0];
  const std::string_view type = parts.size() > 1 ? parts[1] : std::string_view("user_message");
  // Never a null view: SQLite binds one as NULL, which the payload column refuses.
  const std::string_view text = input.substr(parts.size() > 2 ? dialog_id.size() + type.size() + 2 : input.size());
  check_json(text);
  check_event(store, dialog_id, type, text);
  return 0;
}

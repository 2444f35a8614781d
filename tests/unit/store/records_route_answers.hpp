// What every records route answers for a store, by every id it holds: two stores (or one store
// before and after a migration or a rebuild) hold the same records when these are equal. Shared by
// the tests of the schema versions that change how the records are stored (19, 22) and by those
// that hold the PostgreSQL store's records to the SQLite store's.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "parley/store/sqlite/records_reader.hpp"
#include "parley/store/sqlite/records_v16.hpp"
#include "records_v21_form.hpp"
#include "store_test_support.hpp"

namespace parley::test {

// Everything the records routes answer, by every id the store holds.
struct route_answers {
  std::vector<record_dialogue> dialogues;
  std::vector<record_session> sessions;
  std::vector<record_turn> turns;
  std::vector<record_message> messages;
  std::vector<record_system_utterance> utterances;
  std::vector<record_memory_link> links;
  std::vector<record_memory_entry> memories;
  std::vector<std::string> linked;
  std::vector<std::int64_t> totals;
  std::vector<std::string> pending;
  bool operator==(const route_answers&) const = default;
};

template <class Row>
inline void add_page(route_answers& out, std::vector<Row>& into, const result<records_page<Row>>& page) {
  ASSERT_TRUE(page) << page.err().message;
  out.totals.push_back(page->total);
  into.insert(into.end(), page->items.begin(), page->items.end());
}

// What `reader` answers (any store's records).
inline route_answers answers_of(records_query& reader) {
  route_answers out;
  records_filter all;
  all.limit = 100000;
  auto messages = reader.messages(all);
  auto turns = reader.turns(all);
  auto sessions = reader.sessions(all);
  auto roots = reader.dialogues(all);
  add_page(out, out.messages, messages);
  add_page(out, out.turns, turns);
  add_page(out, out.sessions, sessions);
  add_page(out, out.dialogues, roots);
  add_page(out, out.messages, reader.search("\"the\"", all));
  if (!messages || !turns || !sessions) return out;
  for (const auto& m : messages->items) {
    auto one = reader.message(m.id);
    EXPECT_TRUE(one && one->has_value()) << m.id;
    if (one && *one) out.messages.push_back(**one);
    auto d = reader.dialogue(m.dialogue_id);
    EXPECT_TRUE(d && d->has_value()) << m.dialogue_id;
    if (d && *d) out.dialogues.push_back(**d);
  }
  for (const auto& s : sessions->items) {
    auto one = reader.session(s.id);
    EXPECT_TRUE(one && one->has_value()) << s.id;
    if (one && *one) out.sessions.push_back(**one);
    records_filter by_session = all;
    by_session.session_id = s.id;
    add_page(out, out.messages, reader.messages(by_session));
    add_page(out, out.turns, reader.turns(by_session));
  }
  for (const auto& t : turns->items) {
    auto one = reader.turn(t.id);
    EXPECT_TRUE(one && one->has_value()) << t.id;
    if (one && *one) out.turns.push_back(**one);
    records_filter by_turn = all;
    by_turn.turn_id = t.id;
    add_page(out, out.messages, reader.messages(by_turn));
    add_page(out, out.utterances, reader.system_utterances(by_turn));
    auto links = reader.memory_links(t.id);
    EXPECT_TRUE(links) << links.err().message;
    if (links) out.links.insert(out.links.end(), links->begin(), links->end());
    records_filter by_dialogue = all;
    by_dialogue.dialogue_id = t.dialogue_id;
    add_page(out, out.sessions, reader.sessions(by_dialogue));
    add_page(out, out.turns, reader.turns(by_dialogue));
    add_page(out, out.messages, reader.messages(by_dialogue));
    add_page(out, out.utterances, reader.system_utterances(by_dialogue));
    auto linked = reader.linked_memories(t.dialogue_id);
    EXPECT_TRUE(linked) << linked.err().message;
    if (linked) out.linked.insert(out.linked.end(), linked->begin(), linked->end());
  }
  for (const auto& memory_id : out.linked) {
    auto memory = reader.memory_entry(memory_id);
    EXPECT_TRUE(memory && memory->has_value()) << memory_id;
    if (memory && *memory) out.memories.push_back(**memory);
  }
  auto pending = reader.pending_turns();
  EXPECT_TRUE(pending) << pending.err().message;
  if (pending) {
    for (const auto& p : *pending)
      out.pending.push_back(p.dialog_id + " " + p.turn_id + " " + std::to_string(p.deadline_ms));
  }
  return out;
}

// What the SQLite store in `dir` answers, read from its file.
inline route_answers answers_of(const temp_dir& dir) {
  auto opened = sqlite::records_reader::open(dir.db_file());
  EXPECT_TRUE(opened) << opened.err().message;
  if (!opened) return {};
  return answers_of(**opened);
}

// What version 21 stored: the utterances and dialogue metadata of version 23 put back
// (records_v21_form.hpp), then a message names its event by (dialog_id, seq), and the views read
// the text through that pair (records_v22.hpp). Leaves schema_version as it is.
inline std::string back_to_version_twenty_one() {
  return back_to_version_twenty_one_records_sql() +
         "DROP VIEW system_utterance_log;\n"
         "DROP VIEW message_search;\n"
         "ALTER TABLE message ADD COLUMN dialog_id TEXT NOT NULL DEFAULT '';\n"
         "ALTER TABLE message ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;\n"
         "UPDATE message SET dialog_id = (SELECT e.dialog_id FROM events AS e WHERE e.id = message.event_id), "
         "seq = (SELECT e.seq FROM events AS e WHERE e.id = message.event_id);\n"
         "ALTER TABLE message DROP COLUMN event_id;\n" +
         sqlite::records_views_sql(sqlite::kV16MessageContentSql);
}

}  // namespace parley::test

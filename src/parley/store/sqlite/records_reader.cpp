#include "parley/store/sqlite/records_reader.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "parley/model/embedding_vector.hpp"
#include "parley/store/records_sort.hpp"
#include "parley/store/sqlite/dialogue_metadata_from_log.hpp"
#include "parley/store/sqlite/message_log_metadata.hpp"
#include "parley/store/sqlite/message_tool_calls.hpp"
#include "parley/store/sqlite/records_select.hpp"
#include "parley/store/sqlite/records_v16.hpp"
#include "parley/store/sqlite/records_v19.hpp"
#include "parley/store/sqlite/records_v22.hpp"
#include "parley/store/sqlite/trigram_text.hpp"

namespace parley::sqlite {
namespace {

// The metadata as the reducer wrote it, from the log where the row stores none
// (dialogue_metadata_from_log.hpp).
const std::string& dialogue_columns() {
  static const std::string columns =
      std::string(
          "record_id_text(d.id), d.dialog_id, d.dialogue_type, coalesce(d.human_id, ''), "
          "coalesce(d.ai_id, ''), coalesce(record_id_text(d.relation_id), ''), d.created_at, d.is_active, "
          "d.last_activity_at, ") +
      dialogue_metadata_sql();
  return columns;
}
// A row names the rows it refers to by rowid (schema version 16, records_v16.hpp): the UUID text
// of `alias.<table>_rowid`, put back by one lookup of that rowid ('' when it names none).
std::string id_of(std::string_view table, std::string_view alias) {
  return "coalesce((SELECT record_id_text(x.id) FROM " + std::string(table) +
         " AS x WHERE x.rowid = " + std::string(alias) + "." + std::string(table) + "_rowid), '')";
}
// A filter by a UUID: the rowid it names, looked up once (NULL, so no row matches, when none).
std::string rowid_is(std::string_view table, std::string_view alias) {
  return std::string(alias) + "." + std::string(table) + "_rowid = (SELECT x.rowid FROM " + std::string(table) +
         " AS x WHERE x.id = record_id_blob(?))";
}

const std::string& session_columns() {
  static const std::string columns =
      "record_id_text(s.id), " + id_of("dialogue", "s") +
      ", s.session_type, s.start_at, coalesce(s.end_at, 0), coalesce(s.description, ''), "
      "s.created_by, s.metadata, coalesce(s.trigger_source, ''), coalesce(s.goal, ''), coalesce(s.ai_mood_state, ''), "
      "coalesce(s.summary, '')";
  return columns;
}
constexpr std::string_view kIntrospectionColumns =
    "record_id_text(i.id), record_id_text(i.session_id), record_id_text(i.dialogue_id), i.purpose, "
    "coalesce(i.input_context, ''), coalesce(i.tool_used, ''), "
    "coalesce(i.tool_input, ''), coalesce(i.tool_output, ''), coalesce(i.generated_entry, ''), "
    "coalesce(i.mood_shift, ''), coalesce(i.value_impact, ''), i.started_at, i.duration_ms";
constexpr std::string_view kUtteranceColumns =
    "record_id_text(u.log_id), u.timestamp, record_id_text(u.conversation_id), u.trigger, u.content, u.target, "
    "coalesce(record_id_text(u.linked_turn_id), ''), "
    "coalesce(u.notes, '')";
const std::string& turn_columns() {
  static const std::string columns = "record_id_text(t.id), " + id_of("dialogue", "t") + ", " + id_of("session", "t") +
                                     ", t.turn_type, t.initiator_role, t.responder_role, t.started_at, "
                                     "coalesce(t.closed_at, 0), t.status, coalesce(t.response_time, 0), t.window_ms, " +
                                     std::string(kTurnMetadataSql);
  return columns;
}
// The metadata as the reducer wrote it: a tool_input message's calls come from its event.
const std::string& message_columns() {
  static const std::string columns =
      "record_id_text(m.id), " + id_of("dialogue", "m") + ", " + id_of("session", "m") + ", " + id_of("turn", "m") +
      ", m.sender_role, coalesce(m.sender_id, ''), " + kMessageContentSql + ", m.content_type, m.created_at, " +
      message_metadata_sql() + ", " + kMessageDialogIdSql + ", " + kMessageSeqSql + ", coalesce(m.content_meta, '')";
  return columns;
}

result<record_dialogue> read_dialogue_row(const statement& s) {
  record_dialogue d;
  d.id = s.text_at(0);
  d.dialog_id = s.text_at(1);
  PARLEY_TRY_ASSIGN(d.dialogue_type,
                    stored_vocab<events::dialogue_type>("dialogue", d.id, "dialogue_type", s.text_view_at(2)));
  d.human_id = s.text_at(3);
  d.ai_id = s.text_at(4);
  d.relation_id = s.text_at(5);
  d.created_at = s.int_at(6);
  d.is_active = s.int_at(7) != 0;
  d.last_activity_at = s.int_at(8);
  d.metadata = s.text_at(9);
  return d;
}

result<record_session> read_session_row(const statement& s) {
  record_session out;
  out.id = s.text_at(0);
  out.dialogue_id = s.text_at(1);
  PARLEY_TRY_ASSIGN(out.session_type,
                    stored_vocab<events::session_type>("session", out.id, "session_type", s.text_view_at(2)));
  out.start_at = s.int_at(3);
  out.end_at = s.int_at(4);
  out.description = s.text_at(5);
  PARLEY_TRY_ASSIGN(out.created_by,
                    stored_vocab<events::record_role>("session", out.id, "created_by", s.text_view_at(6)));
  out.metadata = s.text_at(7);
  // NULL (read as '') for a dialogue session.
  if (const auto trigger = s.text_view_at(8); !trigger.empty()) {
    PARLEY_TRY_ASSIGN(out.trigger_source,
                      stored_vocab<events::trigger_source>("session", out.id, "trigger_source", trigger));
  }
  out.goal = s.text_at(9);
  out.ai_mood_state = s.text_at(10);
  out.summary = s.text_at(11);
  return out;
}

record_introspection read_introspection_row(const statement& s) {
  return record_introspection{s.text_at(0),  s.text_at(1), s.text_at(2), s.text_at(3), s.text_at(4),
                              s.text_at(5),  s.text_at(6), s.text_at(7), s.text_at(8), s.text_at(9),
                              s.text_at(10), s.int_at(11), s.int_at(12)};
}

result<record_system_utterance> read_utterance_row(const statement& s) {
  record_system_utterance u;
  u.log_id = s.text_at(0);
  u.timestamp = s.int_at(1);
  u.conversation_id = s.text_at(2);
  PARLEY_TRY_ASSIGN(
      u.trigger, stored_vocab<events::utterance_trigger>("system_utterance", u.log_id, "trigger", s.text_view_at(3)));
  u.content = s.text_at(4);
  PARLEY_TRY_ASSIGN(u.target,
                    stored_vocab<events::utterance_target>("system_utterance", u.log_id, "target", s.text_view_at(5)));
  u.linked_turn_id = s.text_at(6);
  u.notes = s.text_at(7);
  return u;
}

result<record_turn> read_turn_row(const statement& s) {
  record_turn t;
  t.id = s.text_at(0);
  t.dialogue_id = s.text_at(1);
  t.session_id = s.text_at(2);
  PARLEY_TRY_ASSIGN(t.turn_type, stored_vocab<events::turn_type>("turn", t.id, "turn_type", s.text_view_at(3)));
  PARLEY_TRY_ASSIGN(t.initiator_role,
                    stored_vocab<events::record_role>("turn", t.id, "initiator_role", s.text_view_at(4)));
  PARLEY_TRY_ASSIGN(t.responder_role,
                    stored_vocab<events::record_role>("turn", t.id, "responder_role", s.text_view_at(5)));
  t.started_at = s.int_at(6);
  t.closed_at = s.int_at(7);
  PARLEY_TRY_ASSIGN(t.status, stored_vocab<events::turn_status>("turn", t.id, "status", s.text_view_at(8)));
  t.response_time = s.int_at(9);
  t.window_ms = s.int_at(10);
  t.metadata = s.text_at(11);
  return t;
}

result<record_message> read_message_row(const statement& s) {
  record_message m;
  m.id = s.text_at(0);
  m.dialogue_id = s.text_at(1);
  m.session_id = s.text_at(2);
  m.turn_id = s.text_at(3);
  PARLEY_TRY_ASSIGN(m.sender_role,
                    stored_vocab<events::record_role>("message", m.id, "sender_role", s.text_view_at(4)));
  m.sender_id = s.text_at(5);
  m.content = s.text_at(6);
  PARLEY_TRY_ASSIGN(m.content_type,
                    stored_vocab<events::content_type>("message", m.id, "content_type", s.text_view_at(7)));
  m.created_at = s.int_at(8);
  m.metadata = s.text_at(9);
  m.dialog_id = s.text_at(10);
  m.seq = s.int_at(11);
  m.content_meta = s.text_at(12);
  return m;
}

// Rows whose dialogue lies under a root `f.visible_to` takes part in (ids never contain a comma).
void visibility_condition(query_builder& q, std::string_view dialogue_rowid_column, const records_filter& f) {
  if (f.visible_to.empty()) return;
  std::string condition =
      std::string(dialogue_rowid_column) +
      " IN (SELECT d.rowid FROM dialogue AS d JOIN dialogs AS g ON g.id = d.dialog_id "
      "JOIN dialogs AS r ON r.id = g.root_id WHERE instr(',' || r.humans || ',', ',' || ? || ',') > 0";
  condition += f.or_unowned ? " OR r.humans = '')" : ")";
  q.where(condition, f.visible_to);
}

void message_conditions(query_builder& q, const records_filter& f) {
  visibility_condition(q, "m.dialogue_rowid", f);
  q.where_text(rowid_is("dialogue", "m"), f.dialogue_id);
  q.where_text(rowid_is("session", "m"), f.session_id);
  q.where_text(rowid_is("turn", "m"), f.turn_id);
  q.where_rowid_in("m.turn_rowid", "turn", f.turn_ids);
  q.where_vocab("m.sender_role = ?", f.role);
  q.where_vocab("m.content_type = ?", f.content_type);
  q.where_time("m.created_at", f);
}

}  // namespace

result<std::unique_ptr<records_reader>> records_reader::open(const std::string& path) {
  auto db = connection::open_read_only(path);
  if (!db) return std::move(db).err();
  std::unique_ptr<records_reader> reader(new records_reader());
  {
    parley::lock_guard lock(reader->mutex_);  // nobody else has it yet; the analysis is told so
    reader->db_ = std::move(*db);
  }
  return reader;
}

result<std::optional<record_dialogue>> records_reader::dialogue(std::string_view id) {
  parley::lock_guard lock(mutex_);
  return select_one<record_dialogue>(
      db_, "SELECT " + dialogue_columns() + " FROM dialogue AS d WHERE d.id = record_id_blob(?1) OR d.dialog_id = ?1",
      id, read_dialogue_row);
}

result<std::optional<record_session>> records_reader::session(std::string_view id) {
  parley::lock_guard lock(mutex_);
  return select_one<record_session>(
      db_, "SELECT " + session_columns() + " FROM session AS s WHERE s.id = record_id_blob(?1)", id, read_session_row);
}

result<std::optional<record_turn>> records_reader::turn(std::string_view id) {
  parley::lock_guard lock(mutex_);
  return select_one<record_turn>(db_, "SELECT " + turn_columns() + " FROM turn AS t WHERE t.id = record_id_blob(?1)",
                                 id, read_turn_row);
}

result<std::optional<record_message>> records_reader::message(std::string_view id) {
  parley::lock_guard lock(mutex_);
  return select_one<record_message>(
      db_, "SELECT " + message_columns() + " FROM message AS m WHERE m.id = record_id_blob(?1)", id, read_message_row);
}

result<records_page<record_session>> records_reader::sessions(const records_filter& f) {
  query_builder q;
  q.where_text(rowid_is("dialogue", "s"), f.dialogue_id);
  q.where_rowid_in("s.dialogue_rowid", "dialogue", f.dialogue_ids);
  q.where_vocab("s.session_type = ?", f.session_type);
  q.where_vocab("s.dialogue_rowid IN (SELECT d.rowid FROM dialogue AS d WHERE d.dialogue_type = ?)", f.dialogue_type);
  // The member speaks in a dialogue it is the AI of, or in a group it is one of the AIs of.
  q.where_text(
      "s.dialogue_rowid IN (SELECT d.rowid FROM dialogue AS d, (SELECT ? AS member) AS p WHERE d.ai_id = p.member "
      "OR EXISTS (SELECT 1 FROM json_each(" +
          dialogue_metadata_sql() + ", '$.members') WHERE value = p.member))",
      f.ai_id);
  visibility_condition(q, "s.dialogue_rowid", f);
  q.where_time("s.start_at", f);
  auto order = order_by(f, "s", "start_at", {"start_at", "end_at"});
  if (!order) return std::move(order).err();
  parley::lock_guard lock(mutex_);
  return select_page<record_session>(db_, session_columns(), "session AS s", q, *order, f, read_session_row);
}

result<records_page<record_introspection>> records_reader::introspections(const records_filter& f) {
  query_builder q;
  q.where_text("i.session_id = record_id_blob(?)", f.session_id);
  q.where_time("i.started_at", f);
  auto order = order_by(f, "i", "started_at", {"started_at"});
  if (!order) return std::move(order).err();
  parley::lock_guard lock(mutex_);
  return select_page<record_introspection>(db_, kIntrospectionColumns, "introspection_turn AS i", q, *order, f,
                                           read_introspection_row);
}

result<records_page<record_system_utterance>> records_reader::system_utterances(const records_filter& f) {
  query_builder q;
  q.where_text("u.conversation_id = record_id_blob(?)", f.dialogue_id);
  q.where_text("u.linked_turn_id = record_id_blob(?)", f.turn_id);
  q.where_time("u.timestamp", f);
  auto order = order_by(f, "u", "timestamp", {"timestamp"});
  if (!order) return std::move(order).err();
  parley::lock_guard lock(mutex_);
  return select_page<record_system_utterance>(db_, kUtteranceColumns, "system_utterance_log AS u", q, *order, f,
                                              read_utterance_row);
}

result<std::optional<record_memory_entry>> records_reader::memory_entry(std::string_view id) {
  parley::lock_guard lock(mutex_);
  return select_one<record_memory_entry>(db_,
                                         "SELECT record_id_text(id), record_id_text(dialogue_id), coalesce(ai_id, ''), "
                                         "content, created_at, coalesce(record_id_text(source_turn_id), '') "
                                         "FROM memory_entry WHERE id = record_id_blob(?1)",
                                         id, [](const statement& s) {
                                           return record_memory_entry{s.text_at(0), s.text_at(1), s.text_at(2),
                                                                      s.text_at(3), s.int_at(4),  s.text_at(5)};
                                         });
}

result<std::vector<record_memory_link>> records_reader::memory_links(std::string_view turn_id) {
  parley::lock_guard lock(mutex_);
  auto stmt = db_.prepare(
      "SELECT record_id_text(turn_id), record_id_text(memory_id), relation, created_at FROM memory_links "
      "WHERE turn_id = record_id_blob(?1) ORDER BY created_at, record_id_text(memory_id)",
      false);
  if (!stmt) return std::move(stmt).err();
  stmt->bind_text(1, turn_id);
  return collect_rows<record_memory_link>(*stmt, [](const statement& s) {
    return record_memory_link{s.text_at(0), s.text_at(1), s.text_at(2), s.int_at(3)};
  });
}

result<records_page<record_turn>> records_reader::turns(const records_filter& f) {
  query_builder q;
  q.where_text(rowid_is("dialogue", "t"), f.dialogue_id);
  q.where_text(rowid_is("session", "t"), f.session_id);
  q.where_rowid_in("t.session_rowid", "session", f.session_ids);
  q.where_vocab("t.status = ?", f.status);
  q.where_time("t.started_at", f);
  auto order = order_by(f, "t", "started_at", {"started_at", "closed_at", "response_time"});
  if (!order) return std::move(order).err();
  parley::lock_guard lock(mutex_);
  return select_page<record_turn>(db_, turn_columns(), "turn AS t", q, *order, f, read_turn_row);
}

result<records_page<record_message>> records_reader::messages(const records_filter& f) {
  query_builder q;
  message_conditions(q, f);
  auto order = order_by(f, "m", "created_at", {"created_at"});
  if (!order) return std::move(order).err();
  parley::lock_guard lock(mutex_);
  return select_page<record_message>(db_, message_columns(), "message AS m", q, *order, f, read_message_row);
}

result<records_page<record_dialogue>> records_reader::dialogues(const records_filter& f) {
  query_builder q;
  q.where_text(
      "d.dialog_id IN (SELECT id FROM dialogs WHERE parent_id = '' AND "
      "instr(',' || humans || ',', ',' || ? || ',') > 0)",
      f.participant);
  visibility_condition(q, "d.rowid", f);
  q.where_time("d.created_at", f);
  // Its id breaks ties, in its text order (a UUID stored as 16 bytes sorts as its text would, an id
  // of another shape where it did). Newest first unless the caller sorts.
  auto sort = dialogues_sort_of(f);
  if (!sort) return std::move(sort).err();
  const char* direction = sort->descending ? " DESC" : " ASC";
  const std::string order =
      " ORDER BY d." + std::string(sort->column) + direction + ", record_id_text(d.id)" + direction;
  parley::lock_guard lock(mutex_);
  return select_page<record_dialogue>(db_, dialogue_columns(), "dialogue AS d", q, order, f, read_dialogue_row);
}

result<records_page<record_message>> records_reader::search(std::string_view match, const records_filter& f) {
  auto words = search_conditions(match);
  if (!words) return std::move(words).err();
  query_builder q;
  // The words as phrase queries of a `detail=full` index found them (trigram_text.hpp): one
  // query of the index for the rows holding every trigram of every word — so a common word does
  // not make a long list of its own — then each word tested in those rows' text, after the
  // filter's cheaper conditions. A word of exactly three characters is one trigram, which the
  // index answers exactly: no test. A word of fewer has no trigram: FTS5 read its phrase as no
  // condition beside other words, and as no match alone, and so does this.
  std::string trigrams;
  std::vector<std::string> tested;
  for (std::string& word : *words) {
    trigrams += (trigrams.empty() ? "" : " AND ") + trigram_match_of(word);
    if (trigram_characters(word) != 3) tested.push_back(std::move(word));
  }
  if (trigrams.empty()) {
    q.where("? IS NULL", std::string(match));  // a condition no row meets: the text is never NULL
  } else {
    q.where("m.rowid IN (SELECT rowid FROM message_fts WHERE message_fts MATCH ?)", std::move(trigrams));
  }
  message_conditions(q, f);
  // The text the index holds (the message_search view's), read from the message's row and its
  // event, where the index's own `content` would run a statement per candidate.
  for (std::string& word : tested)
    q.where("instr(parley_trigram_fold(s.content), parley_trigram_fold(?)) > 0", std::move(word));
  auto order = order_by(f, "m", "created_at", {"created_at"});
  if (!order) return std::move(order).err();
  parley::lock_guard lock(mutex_);
  // Each candidate's text is read from the log and folded: tested once for the total and the page.
  return select_page_found_once<record_message>(db_, message_columns(),
                                                "message AS m JOIN message_search AS s ON s.message_rowid = m.rowid",
                                                "message AS m", "m", q, *order, f, read_message_row);
}

result<std::optional<message_embedding>> records_reader::embedding(std::string_view message_id) {
  parley::lock_guard lock(mutex_);
  auto stmt = db_.prepare(
      "SELECT model, dimensions, vector FROM message_embedding WHERE message_id = record_id_blob(?1)", false);
  if (!stmt) return std::move(stmt).err();
  stmt->bind_text(1, message_id);
  auto found = stmt->step();
  if (!found) return std::move(found).err();
  if (!*found) return std::optional<message_embedding>{};
  // The writer stored only checked vectors; a damaged row is reported, never returned.
  auto floats = floats_of_bytes(stmt->blob_view_at(2), stmt->int_at(1));
  if (!floats)
    return make_error(errc::corrupt, "message_embedding " + std::string(message_id) + ": " + floats.err().message);
  return std::optional<message_embedding>{message_embedding{stmt->text_at(0), std::move(*floats)}};
}

result<records_page<scored_message>> records_reader::nearest(std::string_view model, std::span<const float> query,
                                                             const records_filter& f) {
  query_builder q;
  q.where("e.model = ?", std::string(model));
  q.where("e.dimensions = ?", static_cast<std::int64_t>(query.size()));
  message_conditions(q, f);
  parley::lock_guard lock(mutex_);
  // First the scores of every candidate (rowid and vector only), then the rows of the page.
  auto scan = db_.prepare(
      "SELECT m.rowid, e.dimensions, e.vector FROM message AS m JOIN message_embedding AS e ON "
      "e.message_id = m.id" +
          q.clause() + " ORDER BY m.rowid",
      false);
  if (!scan) return std::move(scan).err();
  q.bind(*scan);
  struct scored_row {
    std::int64_t rowid = 0;
    double score = 0.0;
  };
  std::vector<scored_row> scored;
  for (;;) {
    auto has_row = scan->step();
    if (!has_row) return std::move(has_row).err();
    if (!*has_row) break;
    auto floats = floats_of_bytes(scan->blob_view_at(2), scan->int_at(1));
    if (!floats) continue;  // never written so (the writer checks); not a match either
    scored.push_back({scan->int_at(0), cosine_similarity(*floats, query)});
  }
  records_page<scored_message> out;
  out.total = static_cast<std::int64_t>(scored.size());
  std::stable_sort(scored.begin(), scored.end(),
                   [](const scored_row& a, const scored_row& b) { return a.score > b.score; });
  const auto first = std::min<std::size_t>(scored.size(), static_cast<std::size_t>(f.offset));
  const auto last = std::min<std::size_t>(scored.size(), first + static_cast<std::size_t>(f.limit));
  auto fetch = db_.prepare("SELECT " + message_columns() + " FROM message AS m WHERE m.rowid = ?1", false);
  if (!fetch) return std::move(fetch).err();
  for (std::size_t i = first; i < last; ++i) {
    reset_guard guard(*fetch);
    fetch->bind_int(1, scored[i].rowid);
    auto found = fetch->step();
    if (!found) return std::move(found).err();
    if (!*found) continue;
    auto message = read_message_row(*fetch);
    if (!message) return std::move(message).err();
    out.items.push_back({std::move(*message), scored[i].score});
  }
  return out;
}

result<std::vector<std::string>> records_reader::linked_memories(std::string_view dialogue_id) {
  parley::lock_guard lock(mutex_);
  auto stmt = db_.prepare(
      "SELECT DISTINCT record_id_text(l.memory_id) FROM memory_links AS l WHERE l.turn_id IN (SELECT id FROM turn "
      "WHERE "
      "dialogue_rowid = (SELECT d.rowid FROM dialogue AS d WHERE d.id = record_id_blob(?1)) UNION ALL SELECT id FROM "
      "introspection_turn WHERE dialogue_id = record_id_blob(?1)) ORDER BY 1",
      false);
  if (!stmt) return std::move(stmt).err();
  stmt->bind_text(1, dialogue_id);
  return collect_rows<std::string>(*stmt, [](const statement& s) { return s.text_at(0); });
}

// A pending turn's deadline: its start plus its own window, which its row keeps (a turn opened
// with seed 002's expected_window_minutes), else its dialogue's.
namespace {
constexpr std::string_view kPendingTurnSelect =
    "SELECT c.dialog_id, record_id_text(t.id), c.turn_started_ms + coalesce(t.window_ms, c.window_ms) "
    "FROM records_cursor AS c JOIN turn AS t ON t.rowid = c.turn_rowid WHERE c.turn_rowid != 0 ";
}  // namespace

result<std::vector<pending_turn>> records_reader::pending_turns() {
  parley::lock_guard lock(mutex_);
  auto stmt = db_.prepare(std::string(kPendingTurnSelect) + "ORDER BY 3", false);
  if (!stmt) return std::move(stmt).err();
  return collect_rows<pending_turn>(*stmt, [](const statement& s) {
    return pending_turn{s.text_at(0), s.text_at(1), s.int_at(2)};
  });
}

result<std::optional<pending_turn>> records_reader::pending_turn_of(std::string_view dialog_id) {
  parley::lock_guard lock(mutex_);
  return select_one<pending_turn>(db_, std::string(kPendingTurnSelect) + "AND c.dialog_id = ?1", dialog_id,
                                  [](const statement& s) {
                                    return pending_turn{s.text_at(0), s.text_at(1), s.int_at(2)};
                                  });
}

}  // namespace parley::sqlite

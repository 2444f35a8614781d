// The records' searches on PostgreSQL: full text through pg_trgm, semantic by a scan of the
// candidates' embeddings (records_query.hpp says both contracts).
#include <algorithm>
#include <string>
#include <unordered_map>

#include "parley/core/base64.hpp"
#include "parley/core/json_text.hpp"
#include "parley/model/embedding_vector.hpp"
#include "parley/store/postgres/pg_records.hpp"
#include "parley/store/postgres/pg_records_rows.hpp"
#include "parley/store/postgres/pg_records_select.hpp"
#include "parley/store/postgres/pg_schema.hpp"
#include "parley/store/records_search.hpp"
#include "parley/store/records_sort.hpp"
#include "parley/store/sqlite/trigram_text.hpp"

namespace parley::pg {

namespace {

// `%phrase%` for LIKE, with the phrase's own `%`, `_` and `\` taken literally.
std::string contains_pattern(std::string_view phrase) {
  std::string out = "%";
  for (const char c : phrase) {
    if (c == '%' || c == '_' || c == '\\') out += '\\';
    out += c;
  }
  return out + "%";
}

// An embedding's vector as stored (bytea, read as base64 without PostgreSQL's line breaks).
result<std::vector<float>> stored_vector(std::string_view base64, std::int64_t dimensions) {
  auto bytes = base64_decode(base64);
  if (!bytes) return make_error(errc::corrupt, "its vector does not read back");
  return floats_of_bytes(*bytes, dimensions);
}

constexpr std::string_view kVectorText = "translate(encode(e.vector, 'base64'), chr(10), '')";

}  // namespace

// Each phrase of three characters or more must be in the message's search text, both folded as
// SQLite's trigram tokenizer folds case (records_search.hpp says why shorter ones are no
// condition). The text's fold is PARLEY_PG_MESSAGE_SEARCH_KEY (pg_schema.hpp), the phrase's
// trigram_fold — SQLite's own tokenizer, so the folding is the SQLite store's whatever the
// database's locale (PostgreSQL's lower() differs: it keeps a final sigma, and lowers letters that
// tokenizer's Unicode tables leave). The GIN trigram index of the key answers each
// LIKE '%phrase%' from the trigrams it holds and PostgreSQL checks the candidates' text, so the
// answer is exact. Text without spaces (Chinese) has trigrams like any other.
result<records_page<record_message>> pg_records::search(std::string_view match, const records_filter& f) {
  auto phrases = search_conditions(match);
  if (!phrases) return std::move(phrases).err();
  sql_conditions q;
  if (phrases->empty()) q.where("?::text IS NULL", std::string(match));  // no row: the text is never NULL
  for (const std::string& phrase : *phrases) {
    auto folded = sqlite::trigram_fold(phrase);
    if (!folded) return std::move(folded).err();
    q.where(PARLEY_PG_MESSAGE_SEARCH_KEY " LIKE ?::text", contains_pattern(*folded));
  }
  message_conditions(q, f);
  auto sort = records_sort_of(f, "created_at", {"created_at"});
  if (!sort) return std::move(sort).err();
  return read([&](connection& conn) {
    return select_page<record_message>(conn, kMessageColumns, "message m", q, order_of(*sort, "m"), f,
                                       read_record_message);
  });
}

result<std::optional<message_embedding>> pg_records::embedding(std::string_view message_id) {
  return read([&](connection& conn) -> result<std::optional<message_embedding>> {
    const params<1> args{message_id};
    auto found = conn.query("SELECT e.model, e.dimensions, " + std::string(kVectorText) +
                                " FROM message_embedding e WHERE e.message_id = $1",
                            args, "reading a message's embedding");
    if (!found) return std::move(found).err();
    if (found->empty()) return std::optional<message_embedding>{};
    std::int64_t dimensions = 0;
    PARLEY_TRY_ASSIGN(dimensions, found->integer(0, 1));
    // The writer stored only checked vectors; a damaged row is reported, never returned.
    auto floats = stored_vector(found->text(0, 2), dimensions);
    if (!floats) {
      return make_error(errc::corrupt, "message_embedding " + std::string(message_id) + ": " + floats.err().message);
    }
    return std::optional<message_embedding>{message_embedding{std::string(found->text(0, 0)), std::move(*floats)}};
  });
}

namespace {

struct scored_id {
  std::string id;
  double score = 0.0;
};

// The candidates' scores, in log order, from a scan of their ids and vectors.
result<std::vector<scored_id>> scores_of(const rows& found, std::span<const float> query) {
  std::vector<scored_id> scored;
  for (int i = 0; i < found.size(); ++i) {
    std::int64_t dimensions = 0;
    PARLEY_TRY_ASSIGN(dimensions, found.integer(i, 1));
    auto floats = stored_vector(found.text(i, 2), dimensions);
    if (!floats) continue;  // never written so (the writer checks); not a match either
    scored.push_back({std::string(found.text(i, 0)), cosine_similarity(*floats, query)});
  }
  return scored;
}

// The messages `page` names, in its order.
result<std::vector<scored_message>> messages_of(connection& conn, const std::vector<scored_id>& page) {
  std::string ids;
  json_text_writer list(ids);
  list.begin_array();
  for (const auto& s : page) list.string(s.id);
  list.end_array();
  const params<1> args{ids};
  auto found = conn.query("SELECT " + std::string(kMessageColumns) +
                              " FROM message m WHERE m.id IN (SELECT json_array_elements_text($1::json))",
                          args, "reading the nearest messages");
  if (!found) return std::move(found).err();
  std::unordered_map<std::string, record_message> by_id;
  for (int i = 0; i < found->size(); ++i) {
    auto message = read_record_message(*found, i);
    if (!message) return std::move(message).err();
    by_id.emplace(message->id, std::move(*message));
  }
  std::vector<scored_message> out;
  for (const auto& s : page) {
    if (auto it = by_id.find(s.id); it != by_id.end()) out.push_back({std::move(it->second), s.score});
  }
  return out;
}

}  // namespace

result<records_page<scored_message>> pg_records::nearest(std::string_view model, std::span<const float> query,
                                                         const records_filter& f) {
  sql_conditions q;
  q.where("e.model = ?", std::string(model));
  q.where("e.dimensions = ?::bigint", std::to_string(query.size()));
  message_conditions(q, f);
  return read([&](connection& conn) -> result<records_page<scored_message>> {
    // First the scores of every candidate (its id and vector only), then the rows of the page.
    auto found =
        conn.query("SELECT m.id, e.dimensions, " + std::string(kVectorText) +
                       " FROM message m JOIN message_embedding e ON e.message_id = m.id" + q.clause() + " ORDER BY m.n",
                   q.params(), "scanning the embeddings");
    if (!found) return std::move(found).err();
    std::vector<scored_id> scored;
    PARLEY_TRY_ASSIGN(scored, scores_of(*found, query));
    records_page<scored_message> out;
    out.total = static_cast<std::int64_t>(scored.size());
    std::stable_sort(scored.begin(), scored.end(),
                     [](const scored_id& a, const scored_id& b) { return a.score > b.score; });
    const auto first =
        std::min<std::size_t>(scored.size(), static_cast<std::size_t>(std::max<std::int64_t>(f.offset, 0)));
    const auto last =
        std::min<std::size_t>(scored.size(), first + static_cast<std::size_t>(std::max<std::int64_t>(f.limit, 0)));
    const std::vector<scored_id> page(scored.begin() + static_cast<std::ptrdiff_t>(first),
                                      scored.begin() + static_cast<std::ptrdiff_t>(last));
    PARLEY_TRY_ASSIGN(out.items, messages_of(conn, page));
    return out;
  });
}

}  // namespace parley::pg

// Substring search over the trigram full-text indexes kept with `detail=none` (schema version 20,
// docs/store.md "Full-text indexes without positions"). Such an index knows which rows hold a
// trigram but not where, so FTS5 refuses a phrase ("abcd" is the trigrams abc, bcd at adjacent
// places). A search for a text is then two steps with the same answer as the phrase:
//   1. candidates: the rows holding the trigrams that cover the text (`trigram_match_of`, an AND
//      of one-trigram phrases, which `detail=none` accepts);
//   2. the exact test: the candidate's text, folded the way the trigram tokenizer folds case
//      (`parley_trigram_fold`, which asks the tokenizer itself: Unicode case folding, diacritics
//      kept, where SQLite's LIKE and lower() fold ASCII only), contains the folded needle.
// Both are SQL functions on every connection (sqlite_handle.cpp registers them), so a query says
//   t MATCH parley_trigram_match(?1) AND instr(parley_trigram_fold(col), parley_trigram_fold(?1)) > 0
// The caller's text is only ever bound, and each trigram is quoted: quotes, `%`, `_`, `*` and any
// FTS5 syntax in it are literal characters.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/store/records_search.hpp"  // indexed_text_of, trigram_characters, phrases_of

struct sqlite3;

namespace parley::sqlite {

// An FTS5 query of the rows that may hold `text`: `"abc" AND "def" AND …`, the trigrams that cover
// it without overlap (and the last one), each its own quoted token (a `"` in it doubled). Every row
// holding `text` is found; for more than three characters, others may be too, which the exact test
// removes. Characters are split as the tokenizer reads UTF-8. Empty when `text` has fewer than
// three characters: no trigram, nothing an index can find.
std::string trigram_match_of(std::string_view text);

// `text` case-folded as the trigram tokenizer folds it (what `parley_trigram_fold` gives), without
// a connection of the caller's: for a store that searches with another index (PostgreSQL's
// records, postgres/pg_records_search.cpp) and must find what FTS5's phrases find. Thread-safe.
result<std::string> trigram_fold(std::string_view text);

// Registers on `db`, each deterministic and NULL for NULL: `parley_trigram_fold(text)` (the
// text's indexed_text_of, case folded by the connection's trigram tokenizer), `parley_indexed_text(text)`
// and `parley_trigram_match(text)` (trigram_match_of). Returns SQLite's result code.
int register_trigram_functions(sqlite3* db) noexcept;

}  // namespace parley::sqlite

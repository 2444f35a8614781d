// What a records search (records_query::search) means, apart from any index: the phrases a match
// names, which of them are conditions, and the text a message is found by. Both stores answer the
// same searches from these — SQLite with FTS5 trigram indexes (sqlite/trigram_text.hpp), PostgreSQL
// with pg_trgm (postgres/pg_records_search.cpp).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/model/conversation_records.hpp"

namespace parley {

// The words of a search as `fts_match_of` (server/records_params.hpp) writes them: one or more
// phrases, each in double quotes with a quote inside doubled, separated by spaces. Anything else
// is refused, naming the problem.
result<std::vector<std::string>> phrases_of(std::string_view match);

// The length in bytes of the character at text[at] as SQLite's trigram tokenizer reads it (its
// READ_UTF8: a lead byte of 0xC0 or more takes the continuation bytes after it, any other byte
// stands alone), and the number of characters of `text` so counted.
std::size_t trigram_character_at(std::string_view text, std::size_t at);
std::size_t trigram_characters(std::string_view text);

// The phrases of `match` a message must contain: those of three characters or more. A shorter one
// has no trigram, so FTS5's phrase queries read it as no condition beside longer ones and as no
// match alone: an empty list means the search finds nothing.
result<std::vector<std::string>> search_conditions(std::string_view match);

// `text` as the search indexes take it: FTS5's tokenizer stops at a NUL byte, so a NUL reads as a
// space there (the record keeps the byte).
std::string indexed_text_of(std::string_view text);

// The text a message is found by: its content and, for image and audio, the words that stand for
// the medium (content_meta's caption, transcription and text), as indexed_text_of gives it.
std::string message_search_text(const record_message& m);

}  // namespace parley

// The two trigram full-text indexes without positions (docs/store.md "Full-text indexes without
// positions"). Kept apart from schema.cpp's list so the version it gets there is the only thing
// tied to it.
//
// `detail=full` kept, for every trigram of every text, the row and its place in the text: 2 KB of
// a fanout-3 task's 20 KB on disk. `detail=none` keeps only which rows hold each trigram (a third
// of the bytes), and `columnsize=0` drops the per-row token counts, which only bm25 ranking reads
// and no query here ranks. Without positions FTS5 refuses a phrase, so a search asks the index for
// the rows that hold every trigram of the text and tests each candidate's text exactly
// (trigram_text.hpp): the same rows as the phrase found.
//
// Both indexes are made again and filled from what they index: `message_fts` from its external
// content (the `message_search` view, so the text is read, not copied; a NUL byte read as a space,
// as records_writer indexes it, where FTS5's 'rebuild' would stop at it), `root_title_fts` from the
// roots' titles as schema version 8 filled it. Its triggers name the table, not its layout, so they
// write to the new one.
#pragma once

namespace parley::sqlite {

inline constexpr const char* kFtsWithoutPositionsSql = R"sql(
DROP TABLE message_fts;
CREATE VIRTUAL TABLE message_fts USING fts5 (content, content = 'message_search', content_rowid = 'message_rowid',
                                             tokenize = 'trigram', detail = none, columnsize = 0);
INSERT INTO message_fts (rowid, content) SELECT message_rowid, parley_indexed_text(content) FROM message_search;
DROP TABLE root_title_fts;
CREATE VIRTUAL TABLE root_title_fts USING fts5 (title, dialog_id UNINDEXED, tokenize = 'trigram', detail = none,
                                                columnsize = 0);
INSERT INTO root_title_fts (title, dialog_id) SELECT title, id FROM dialogs WHERE parent_id = '' AND title != '';
)sql";

}  // namespace parley::sqlite

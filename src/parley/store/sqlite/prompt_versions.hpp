// Seed 002's ActivePromptLog stored once per prompt version (schema version 13, docs/store.md
// "A prompt's text, once"). Every dialog logs `prompt_logged` when its prompt first takes a
// version, and a fanout-3 task's four dialogs logged the same two texts again and again: 3.3 KB of
// its 36 KB. The version is a SHA-256 over the text and the tools, so one row per version in
// `prompt_versions` holds them, and the event keeps the rest (course, version, model).
//
// The log still reproduces every prompt: whatever reads `events` reads the payload through
// kEventPayloadSql, which puts the text back, so a reader (the projector, `read_events`, `parley
// check`, the shell's `events_readable`) sees the event as it was appended. An event whose
// version is stored with another text (never, for a hash) keeps its own copy.
#pragma once

#include <boost/json/object.hpp>

#include "parley/core/result.hpp"
#include "parley/model/events/message_events.hpp"
#include "parley/store/sqlite/sqlite_handle.hpp"

namespace parley::sqlite {

// The table, made by the migration to schema version 13.
inline constexpr const char* kPromptVersionsTableSql = R"sql(
CREATE TABLE prompt_versions (
  version TEXT PRIMARY KEY,
  system_prompt TEXT NOT NULL,
  tools TEXT NOT NULL
) WITHOUT ROWID;
)sql";

// The payload of `events AS e` as it was appended: a `prompt_logged` stored without its text gets
// it back from `prompt_versions`. Evaluated in order, so a payload that is not JSON is never given
// to json_extract (the reader reports it as the damage it is). One missing version is left as
// stored, and its event then fails to decode naming the field (`parley check` lists it).
inline constexpr const char* kEventPayloadSql =
    "CASE WHEN e.type != 'prompt_logged' THEN e.payload "
    "WHEN NOT json_valid(e.payload) THEN e.payload "
    "WHEN json_type(e.payload, '$.systemPrompt') IS NOT NULL THEN e.payload "
    "ELSE coalesce((SELECT json_set(e.payload, '$.systemPrompt', p.system_prompt, '$.tools', json(p.tools)) "
    "FROM prompt_versions AS p WHERE p.version = json_extract(e.payload, '$.version')), e.payload) END";

// The writer's side: stores a version's text the first time it is logged and says whether an
// event may leave it out. Runs inside the writer's transaction, so a batch rolled back takes its
// new versions with it and no event ever refers to a text that was not committed.
class prompt_version_store {
 public:
  // Prepares the statements on `db`, which must outlive this object.
  result<void> prepare(connection& db);

  // Removes `systemPrompt` and `tools` from `payload` (the encoded `logged`) when the text of
  // `logged.version` is, or is now, stored as exactly this text.
  result<void> share(const events::prompt_logged& logged, boost::json::object& payload);

 private:
  statement find_, insert_;
  std::string tools_text_;
};

}  // namespace parley::sqlite

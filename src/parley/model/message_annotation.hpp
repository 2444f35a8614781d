// How the analyst's and the embedder's events change a message's record (docs/records.md
// "Analysis and embeddings"): the analysis goes into the message's metadata as seed 002 names it
// (`intent_tags`, `emotion`, `topic_tags`) with `analysis: {status, analyst, attempts, error?}`;
// an embedding's vector goes to the side table, `embedding: {status, model, dimensions, error?}` to
// the metadata. A vector that does not decode to its dimensions of finite floats is folded as a
// failure: the log is read back from disk, and a damaged vector must never reach a search.
#pragma once

#include "parley/model/conversation_records.hpp"
#include "parley/model/events/records_events.hpp"

namespace parley {

record_message_annotation annotation_of(const events::record_message_analyzed& analyzed);
record_message_annotation annotation_of(const events::record_message_embedded& embedded);

}  // namespace parley

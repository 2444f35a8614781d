// A records dialogue's metadata is read from its dialog's `dialog_created` event (schema version
// 23, docs/store.md "Utterances and dialogue metadata from the log").
//
// The reducer builds it from that event alone (dialogue_from_created): the dialog's id and root,
// then its title, callKind, humans, members and a group's host, each when it has one. A row whose
// metadata is exactly that text stores '' (the column is NOT NULL, and '' costs no more than NULL);
// any other keeps what version 16 stored (message_log_metadata.hpp, kDialogueMetadataSql): the
// text after its dialogId and rootId, or the whole text when that would be ''.
#pragma once

#include <string>
#include <string_view>

#include "parley/model/event.hpp"
#include "parley/model/events/records_enums.hpp"

namespace parley::sqlite {

// `d.metadata` of `dialogue AS d` as the reducer wrote it.
const std::string& dialogue_metadata_sql();

// The metadata the dialog_created event (seq 1) of `dialogue AS d`'s dialog gives, built in
// dialogue_from_created's key order (NULL when the log has no such event).
const std::string& dialogue_metadata_from_log_sql();

// Whether `metadata`, of a dialogue of `dialogue_type` made by `ev`, is byte for byte the text
// dialogue_metadata_from_log_sql builds: `ev` is its dialog's first event, a dialog_created, and
// every string in it is one SQLite's json_quote and the reducer's serializer spell alike.
bool dialogue_metadata_is_in_log(const std::string& metadata, events::dialogue_type dialogue_type, const event& ev);

}  // namespace parley::sqlite

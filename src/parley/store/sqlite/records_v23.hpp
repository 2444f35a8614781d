// Schema version 23: system utterances and dialogue metadata the log gives are not stored
// (utterance_from_log.hpp, dialogue_metadata_from_log.hpp; docs/store.md "Utterances and dialogue
// metadata from the log"). Kept apart from schema.cpp's list so the version it gets there is the
// only thing tied to it.
//
// A fanout-3 task stored 6 utterance rows (trigger, target, notes: ~280 bytes with their b-tree)
// and 4 dialogue metadata fragments (~60 bytes each) that follow from the message and event they
// describe. The migration makes `system_utterance_log` again over the messages, deletes every
// utterance row equal to what the view derives, and stores '' for every dialogue metadata equal to
// what its dialog_created event gives, with the same expressions the readers use; any other row
// keeps its values. A dialogue that stored '' (its metadata was only its dialogId and rootId) and
// is not what its event gives now stores its whole text.
#pragma once

namespace parley::sqlite {

const char* v23_records_from_log_sql();

}  // namespace parley::sqlite

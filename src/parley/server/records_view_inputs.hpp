// What seed 002's composed views (records_views.hpp) are made of, read from the store: a message's
// MultiModalInputParser block, a turn's DialogueTurn input, a dialogue's topic tags, and who asked
// a subdialog for its work. Run on the store's read thread (store_reads.hpp). Internal to the
// server module.
#pragma once

#include <string>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/model/conversation_records.hpp"
#include "parley/model/multimodal.hpp"
#include "parley/server/records_views.hpp"
#include "parley/store/records_query.hpp"
#include "parley/store/store.hpp"

namespace parley::server {

// The MultiModalInputParser's block of a message; a quoted reply brings the text it quotes.
context_block block_of(records_query& records, const record_message& m);
// What the DialogueTurn view is made of: the turn's messages and memory links, and the human's
// first message after the turn closed (their feedback on the answer).
result<dialogue_turn_input> dialogue_turn_of(records_query& records, const record_turn& turn);
// The topic tags the analyst gave the dialogue's human messages, each once, first seen first.
result<std::vector<std::string>> topic_tags_of(records_query& records, const std::string& dialogue_id);
// The members whose AIs asked a subdialog's AI for its work: the one that made it and, for a Type
// B session a later caller took over, the current tellasker. Each dialog row names its member.
result<std::vector<std::string>> tellasker_members(store& log, const std::string& dialog_id);

}  // namespace parley::server

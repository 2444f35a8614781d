// The JSON shapes of seed 002's records (docs/records.md): the seed's snake_case field names,
// times as UTC ISO-8601, open times as null, metadata as an object.
#pragma once

#include <boost/json/object.hpp>

#include "parley/model/conversation_records.hpp"
#include "parley/model/multimodal.hpp"

namespace parley::server {

// A record's stored metadata text as the object it is ({} for anything else).
boost::json::object metadata_of(const std::string& text);
boost::json::object dialogue_json(const record_dialogue& d);
boost::json::object session_json(const record_session& s);
boost::json::object turn_json(const record_turn& t);
boost::json::object record_message_json(const record_message& m);
boost::json::object introspection_json(const record_introspection& t);
boost::json::object memory_entry_json(const record_memory_entry& m);
boost::json::object memory_link_json(const record_memory_link& l);
boost::json::object system_utterance_json(const record_system_utterance& u);
// Seed 002's MultiModalInputParser output for a message.
boost::json::object context_block_json(const context_block& block);

}  // namespace parley::server

// The one codec of the log's payloads: a typed payload to its wire object and back, and the
// schema of every type (docs/events.json). All three are driven by each struct's field list
// (model/events/wire.hpp), so they cannot disagree.
//
// Decoding is strict: a missing field, a field of the wrong JSON type, or an enum value not in its
// table is an error naming the field path — never a silent default. Fields a type does not list
// are ignored (a newer binary may add optional ones; see docs/events.md), and an event type this
// binary does not know decodes to `unknown_event` with its object kept.
#pragma once

#include <boost/json/object.hpp>

#include <string_view>

#include "parley/core/result.hpp"
#include "parley/model/events/event_payload.hpp"

namespace parley {

boost::json::object encode_payload(const events::event_payload& payload);

// Fails with `corrupt` and a message "<field path>: <problem>" (e.g. "usage.inputTokens: is
// missing"); callers name the event.
result<events::event_payload> decode_payload(std::string_view type, const boost::json::object& wire);

// True when `type` is one of the typed events (false for a name only a newer binary knows).
bool is_known_event_type(std::string_view type) noexcept;

// Every typed event with its fields: {type: {family, fields: {name: {type, required, default?,
// enum?, items?, fields?}}}}, printed to docs/events.json.
boost::json::object event_schema();

}  // namespace parley

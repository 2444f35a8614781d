// Test helpers for typed events: build a payload from a JSON object that names only the fields a
// test cares about, and read an event back as its wire object.
#pragma once

#include <gtest/gtest.h>

#include <boost/json/object.hpp>

#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include "parley/model/event.hpp"
#include "parley/model/event_codec.hpp"

namespace parley::test {

namespace detail {

template <std::size_t I = 0>
boost::json::object defaults_of(std::string_view type) {
  if constexpr (I + 1 < std::variant_size_v<events::event_payload>) {  // the last one is unknown_event
    using T = std::variant_alternative_t<I, events::event_payload>;
    if (T::kType == type) return events::encode_object(T{});
    return defaults_of<I + 1>(type);
  } else {
    return {};
  }
}

}  // namespace detail

// The payload of a `type` event with the fields of `given` and every other field at its default
// (empty string, 0, false, the first enum value). A field of the wrong JSON type fails the test.
// A type the codec does not know stays an unknown_event holding `given`, as a reader keeps it.
inline events::event_payload payload_of(std::string_view type, boost::json::object given) {
  if (!is_known_event_type(type)) return events::unknown_event{std::string(type), std::move(given)};
  boost::json::object wire = detail::defaults_of(type);
  for (auto& [key, value] : given) wire[key] = std::move(value);
  auto typed = decode_payload(type, wire);
  if (!typed) {
    ADD_FAILURE() << "test payload of " << type << " does not decode: " << typed.err().message;
    return events::unknown_event{std::string(type), std::move(wire)};
  }
  return std::move(*typed);
}

// The event's payload as it is written to the log.
inline boost::json::object wire_of(const event& ev) { return encode_payload(ev.payload); }

}  // namespace parley::test

namespace parley::test {

// An event of `type` whose payload names only the fields the test cares about (see payload_of).
inline event typed_event(std::string dialog_id, std::string root_id, std::int64_t seq, std::string_view type,
                         boost::json::object given, std::int64_t ts_ms) {
  return event{std::move(dialog_id), std::move(root_id), seq, payload_of(type, std::move(given)), ts_ms};
}

}  // namespace parley::test

// JSON as the checked-in snapshots hold it (docs/events.json, docs/protocol-v1.json, the prompt
// snapshots): objects one key a line, arrays and scalars as compact JSON, so a change to one field
// is one line of the diff in review.
#pragma once

#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <string>

namespace parley::test {

inline void pretty_json(const boost::json::value& value, std::string& out, int indent = 0) {
  const std::string pad(static_cast<std::size_t>(indent + 2), ' ');
  if (value.is_object() && !value.as_object().empty()) {
    out += "{\n";
    bool first = true;
    for (const auto& [key, member] : value.as_object()) {
      if (!first) out += ",\n";
      first = false;
      out += pad + boost::json::serialize(boost::json::string(key)) + ": ";
      pretty_json(member, out, indent + 2);
    }
    out += "\n" + std::string(static_cast<std::size_t>(indent), ' ') + "}";
    return;
  }
  out += boost::json::serialize(value);
}

}  // namespace parley::test

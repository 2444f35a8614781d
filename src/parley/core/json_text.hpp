// Writes JSON text straight into a string. For bodies made on every model call: building a
// boost::json tree first and serializing it costs several times more than writing the text.
#pragma once

#include <boost/json/fwd.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace parley {

// Appends `text` as a quoted JSON string. The bytes are copied as they are, as Boost.JSON's
// serializer does: quotes, backslashes and control characters are escaped.
void append_json_string(std::string& out, std::string_view text);

// Commas and nesting are kept track of; the caller writes a well-formed shape (a key before each
// value inside an object, every container closed).
class json_text_writer {
 public:
  explicit json_text_writer(std::string& out) : out_(out) {}

  json_text_writer& begin_object();
  json_text_writer& end_object();
  json_text_writer& begin_array();
  json_text_writer& end_array();
  json_text_writer& key(std::string_view name);
  json_text_writer& string(std::string_view text);
  json_text_writer& integer(std::int64_t number);
  json_text_writer& boolean(bool flag);
  json_text_writer& null();
  // Text that is already JSON (a value serialized elsewhere, or checked with a parser).
  json_text_writer& raw(std::string_view json);
  json_text_writer& value(const boost::json::value& any);

  // A key and its string value.
  json_text_writer& field(std::string_view name, std::string_view text) { return key(name).string(text); }

 private:
  void before_value();
  json_text_writer& open(char bracket);
  json_text_writer& close(char bracket);

  std::string& out_;
  std::vector<bool> first_;  // per open container: nothing written in it yet
  bool after_key_ = false;   // the next value belongs to the key just written
};

}  // namespace parley

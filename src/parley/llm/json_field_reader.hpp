// Internal to the providers' stream readers (include from .cpp files only: it brings in Boost.JSON's
// parser): the part of a SAX handler for Boost.JSON's basic_parser that every reader of a few known
// fields shares. It follows the path of each value — the object and key, or the array, it is in —
// and hands the values of the fields the reader knows to the reader; the rest is walked over and
// never stored, so reading a small streamed event allocates nothing once the buffers are warm.
//
// A reader derives from json_field_handler<Reader> (CRTP) and names its containers and fields with
// small numbers (0: ignored; field 1 is the document itself). It provides:
//   void clear_fields();                                  before each document
//   std::uint8_t field_of_key(std::uint8_t container, std::string_view key);
//   std::uint8_t element_field(std::uint8_t array);       the field of an array's elements
//   std::uint8_t open_object(std::uint8_t field);         the container it opens (0: ignored)
//   std::uint8_t open_array(std::uint8_t field);
//   std::string* string_field(std::uint8_t field);        where a string goes (null: not a string field)
//   void number(std::uint8_t field, std::int64_t value);
//   void other_value(std::uint8_t field, bool is_null);   a bool or null, or a string it does not take
// A field that gets a value of another kind than it takes reads as absent, and since the last of
// repeated keys counts (as in Boost.JSON's objects), the reader undoes what an earlier one set.
#pragma once

#include <boost/json/basic_parser_impl.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "parley/core/json.hpp"

namespace parley::llm {

inline constexpr std::uint8_t kIgnoredField = 0;
inline constexpr std::uint8_t kDocumentField = 1;

// A reader's container or field enumerator as the number the handler passes around.
template <class Enum>
constexpr std::uint8_t as_byte(Enum value) noexcept {
  return static_cast<std::uint8_t>(value);
}

template <class Reader>
class json_field_handler {
  using error_code = boost::json::error_code;
  using string_view = boost::json::string_view;

 public:
  // The names Boost.JSON's parser looks up.
  static constexpr std::size_t max_object_size = static_cast<std::size_t>(-1);
  static constexpr std::size_t max_array_size = static_cast<std::size_t>(-1);
  static constexpr std::size_t max_key_size = static_cast<std::size_t>(-1);
  static constexpr std::size_t max_string_size = static_cast<std::size_t>(-1);

  void start() {
    reader().clear_fields();
    depth_ = 0;
    in_string_ = false;
    is_object_ = false;
  }
  // The document was an object (the reader may still find it holds something only a full parse
  // can report, such as an error).
  bool was_object() const noexcept { return is_object_; }

  bool on_document_begin(error_code&) { return true; }
  bool on_document_end(error_code&) { return true; }

  bool on_object_begin(error_code& ec) {
    const std::uint8_t field = current_field();
    if (field == kDocumentField) is_object_ = true;
    return open(field == kIgnoredField ? kIgnoredField : reader().open_object(field), false, ec);
  }
  bool on_object_end(std::size_t, error_code&) { return close(); }
  bool on_array_begin(error_code& ec) {
    const std::uint8_t field = current_field();
    return open(field <= kDocumentField ? kIgnoredField : reader().open_array(field), true, ec);
  }
  bool on_array_end(std::size_t, error_code&) { return close(); }

  bool on_key_part(string_view part, std::size_t so_far, error_code&) {
    if (so_far == part.size()) key_.clear();
    key_.append(part.data(), part.size());
    return true;
  }
  bool on_key(string_view part, std::size_t size, error_code&) {
    std::string_view key(part.data(), part.size());
    if (size != part.size()) {
      key_.append(part.data(), part.size());
      key = key_;
    }
    frame& in = frames_[depth_ - 1];
    in.key = in.container == kIgnoredField ? kIgnoredField : reader().field_of_key(in.container, key);
    return true;
  }

  bool on_string_part(string_view part, std::size_t, error_code&) {
    if (!in_string_) begin_string();
    if (string_ != nullptr) string_->append(part.data(), part.size());
    return true;
  }
  bool on_string(string_view part, std::size_t size, error_code& ec) {
    on_string_part(part, size, ec);
    in_string_ = false;
    return true;
  }

  bool on_number_part(string_view, error_code&) { return true; }
  bool on_int64(std::int64_t value, string_view, error_code&) { return on_number(value); }
  bool on_uint64(std::uint64_t value, string_view, error_code&) { return on_number(static_cast<std::int64_t>(value)); }
  bool on_double(double value, string_view, error_code&) { return on_number(json_int_from_double(value)); }
  bool on_bool(bool, error_code&) { return on_other(false); }
  bool on_null(error_code&) { return on_other(true); }
  bool on_comment_part(string_view, error_code&) { return true; }
  bool on_comment(string_view, error_code&) { return true; }

 private:
  struct frame {
    std::uint8_t container = kIgnoredField;
    std::uint8_t key = kIgnoredField;  // the field of the member being read, in an object
    bool array = false;
  };
  // Boost.JSON's default nesting limit is 32: deeper documents fail to parse before reaching this.
  static constexpr std::size_t kMaxDepth = 64;

  Reader& reader() noexcept { return static_cast<Reader&>(*this); }

  std::uint8_t current_field() {
    if (depth_ == 0) return kDocumentField;
    const frame& in = frames_[depth_ - 1];
    if (in.container == kIgnoredField) return kIgnoredField;
    return in.array ? reader().element_field(in.container) : in.key;
  }

  bool open(std::uint8_t container, bool array, error_code& ec) {
    if (depth_ == kMaxDepth) {
      ec = boost::json::error::too_deep;
      return false;
    }
    frames_[depth_++] = frame{container, kIgnoredField, array};
    return true;
  }
  bool close() {
    --depth_;
    return true;
  }

  void begin_string() {
    in_string_ = true;
    string_ = nullptr;
    const std::uint8_t field = current_field();
    if (field > kDocumentField) {
      string_ = reader().string_field(field);
      if (string_ != nullptr) {
        string_->clear();
      } else {
        reader().other_value(field, false);
      }
    }
  }

  bool on_number(std::int64_t value) {
    const std::uint8_t field = current_field();
    if (field > kDocumentField) reader().number(field, value);
    return true;
  }
  bool on_other(bool is_null) {
    const std::uint8_t field = current_field();
    if (field > kDocumentField) reader().other_value(field, is_null);
    return true;
  }

  std::array<frame, kMaxDepth> frames_{};
  std::size_t depth_ = 0;
  std::string key_;  // a key that arrives in parts
  std::string* string_ = nullptr;
  bool in_string_ = false;
  bool is_object_ = false;
};

// Reads one whole document into the parser's handler; false when the text is not one valid JSON
// object (whitespace around it aside).
template <class Handler>
bool read_json_fields(boost::json::basic_parser<Handler>& parser, std::string_view text) {
  parser.reset();
  parser.handler().start();
  boost::json::error_code ec;
  const std::size_t used = parser.write_some(false, text.data(), text.size(), ec);
  return !ec && parser.handler().was_object() &&
         text.substr(used).find_first_not_of(" \t\r\n") == std::string_view::npos;
}

}  // namespace parley::llm

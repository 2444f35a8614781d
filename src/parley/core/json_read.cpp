#include "parley/core/json_read.hpp"

#include <boost/json/basic_parser_impl.hpp>
#include <boost/json/error.hpp>
#include <boost/json/value_stack.hpp>

#include <charconv>
#include <cmath>
#include <string>

namespace parley {
namespace {

using boost::json::string_view;
using boost::system::error_code;

// The double closest to `text`, a JSON number the parser has read as `approximate`.
double exact_double(std::string_view text, double approximate) {
  double exact = 0;
  const char* end = text.data() + text.size();
  const auto [stop, problem] = std::from_chars(text.data(), end, exact);
  if (problem == std::errc() && stop == end) return exact;
  // Out of range: beyond ±1.8e308 stays infinite (refused downstream by find_unwritable_json);
  // below the smallest subnormal is zero (the library's parser can make 0e400 NaN).
  if (std::abs(approximate) > 1) return std::copysign(HUGE_VAL, approximate);
  return text.starts_with('-') ? -0.0 : 0.0;
}

// The handler boost::json::parser uses, with doubles taken from their text.
class exact_number_handler {
 public:
  constexpr static std::size_t max_object_size = boost::json::object::max_size();
  constexpr static std::size_t max_array_size = boost::json::array::max_size();
  constexpr static std::size_t max_key_size = boost::json::string::max_size();
  constexpr static std::size_t max_string_size = boost::json::string::max_size();

  bool on_document_begin(error_code&) { return true; }
  bool on_document_end(error_code&) { return true; }
  bool on_array_begin(error_code&) { return true; }
  bool on_array_end(std::size_t n, error_code&) {
    stack_.push_array(n);
    return true;
  }
  bool on_object_begin(error_code&) { return true; }
  bool on_object_end(std::size_t n, error_code&) {
    stack_.push_object(n);
    return true;
  }
  bool on_string_part(string_view s, std::size_t, error_code&) {
    stack_.push_chars(s);
    return true;
  }
  bool on_string(string_view s, std::size_t, error_code&) {
    stack_.push_string(s);
    return true;
  }
  bool on_key_part(string_view s, std::size_t, error_code&) {
    stack_.push_chars(s);
    return true;
  }
  bool on_key(string_view s, std::size_t, error_code&) {
    stack_.push_key(s);
    return true;
  }
  bool on_number_part(string_view s, error_code&) {
    number_text_.append(s.data(), s.size());
    return true;
  }
  bool on_int64(std::int64_t i, string_view, error_code&) {
    number_text_.clear();
    stack_.push_int64(i);
    return true;
  }
  bool on_uint64(std::uint64_t u, string_view, error_code&) {
    number_text_.clear();
    stack_.push_uint64(u);
    return true;
  }
  bool on_double(double approximate, string_view s, error_code&) {
    std::string_view text(s.data(), s.size());
    if (!number_text_.empty()) {
      number_text_.append(s.data(), s.size());
      text = number_text_;
    }
    stack_.push_double(exact_double(text, approximate));
    number_text_.clear();
    return true;
  }
  bool on_bool(bool b, error_code&) {
    stack_.push_bool(b);
    return true;
  }
  bool on_null(error_code&) {
    stack_.push_null();
    return true;
  }
  bool on_comment_part(string_view, error_code&) { return true; }
  bool on_comment(string_view, error_code&) { return true; }

  void reset() { stack_.reset(); }
  boost::json::value release() { return stack_.release(); }

 private:
  boost::json::value_stack stack_;
  std::string number_text_;
};

boost::json::value read_with(const boost::json::parse_options& options, std::string_view text, error_code& ec,
                             std::size_t& stopped_at) {
  boost::json::basic_parser<exact_number_handler> parser(options);
  parser.handler().reset();
  stopped_at = parser.write_some(false, text.data(), text.size(), ec);
  if (!ec && stopped_at < text.size()) ec = boost::json::error::extra_data;
  if (ec) return nullptr;
  return parser.handler().release();
}

}  // namespace

boost::json::value read_json(std::string_view text, error_code& ec, const boost::json::parse_options& options) {
  std::size_t stopped_at = 0;
  return read_with(options, text, ec, stopped_at);
}

boost::json::value read_json(std::string_view text, error_code& ec, std::size_t& stopped_at) {
  return read_with(boost::json::parse_options{}, text, ec, stopped_at);
}

}  // namespace parley

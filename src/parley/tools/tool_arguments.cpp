// parse_tool_arguments: the model's argument text → a validated JSON object, with errors the
// model can act on (where the JSON broke, which property is wrong).
#include "parley/core/json.hpp"
#include "parley/core/json_check.hpp"
#include "parley/core/json_read.hpp"
#include "parley/tools/json_schema.hpp"

namespace parley::tools {
namespace {

bool is_blank(std::string_view text) { return text.find_first_not_of(" \t\r\n") == std::string_view::npos; }

// A few characters from where parsing stopped, so the model sees what it wrote there.
std::string excerpt_at(std::string_view text, std::size_t offset) {
  constexpr std::size_t kExcerpt = 20;
  if (offset >= text.size()) return "at the end of the text";
  std::size_t end = std::min(text.size(), offset + kExcerpt);
  while (end < text.size() && (static_cast<unsigned char>(text[end]) & 0xC0U) == 0x80U) ++end;
  return "near '" + std::string(text.substr(offset, end - offset)) + (end < text.size() ? "...'" : "'");
}

}  // namespace

result<boost::json::object> parse_tool_arguments(std::string_view text, const boost::json::object& schema) {
  boost::json::value parsed = boost::json::object{};
  if (!is_blank(text)) {
    boost::system::error_code ec;
    std::size_t offset = 0;
    parsed = read_json(text, ec, offset);
    if (ec) {
      return make_error(errc::invalid_argument, "arguments are not valid JSON: " + ec.message() + " at offset " +
                                                    std::to_string(offset) + " (" + excerpt_at(text, offset) + ")");
    }
  }
  if (!parsed.is_object()) {
    return make_error(errc::invalid_argument,
                      std::string("arguments must be a JSON object, got ") + json_kind_name(parsed));
  }
  // A number past double's range reads as infinity: no tool can use it, and no event can hold it.
  if (auto problem = find_unwritable_json(parsed)) {
    return make_error(errc::invalid_argument, "argument " + problem->message());
  }
  PARLEY_TRY(validate_arguments(parsed, schema));
  return std::move(parsed.get_object());
}

}  // namespace parley::tools

#include "parley/tools/mcp/uri_template.hpp"

#include <algorithm>
#include <cctype>

namespace parley::tools::mcp {

namespace {

struct expression {
  char op = 0;  // 0 for simple expansion
  std::vector<std::string> names;
};

result<expression> read_expression(std::string_view raw) {
  while (!raw.empty() && std::isspace(static_cast<unsigned char>(raw.front())) != 0) raw.remove_prefix(1);
  while (!raw.empty() && std::isspace(static_cast<unsigned char>(raw.back())) != 0) raw.remove_suffix(1);
  expression out;
  if (!raw.empty() && std::string_view("+#./;?&").find(raw.front()) != std::string_view::npos) {
    out.op = raw.front();
    raw.remove_prefix(1);
  }
  while (true) {
    const auto comma = raw.find(',');
    std::string_view token = raw.substr(0, comma);
    if (token.ends_with('*')) token.remove_suffix(1);
    token = token.substr(0, token.find(':'));
    while (!token.empty() && std::isspace(static_cast<unsigned char>(token.front())) != 0) token.remove_prefix(1);
    while (!token.empty() && std::isspace(static_cast<unsigned char>(token.back())) != 0) token.remove_suffix(1);
    if (!token.empty()) out.names.emplace_back(token);
    if (comma == std::string_view::npos) break;
    raw.remove_prefix(comma + 1);
  }
  if (out.names.empty()) return make_error(errc::invalid_argument, "the URI template has an empty expression {}");
  return out;
}

// JavaScript's encodeURIComponent, or (reserved) encodeURI with [ and ] kept, as Dominds encodes.
std::string encode(std::string_view value, bool reserved) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  static constexpr std::string_view kMark = "-_.!~*'()";
  static constexpr std::string_view kReserved = ";,/?:@&=+$#[]";
  std::string out;
  for (const unsigned char c : value) {
    const bool plain = std::isalnum(c) != 0 || kMark.find(static_cast<char>(c)) != std::string_view::npos ||
                       (reserved && kReserved.find(static_cast<char>(c)) != std::string_view::npos);
    if (plain) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
    }
  }
  return out;
}

// Calls `each` with every expression's text between braces, and `literal` with the text between.
template <class Literal, class Each>
result<void> walk(std::string_view uri_template, Literal literal, Each each) {
  std::size_t at = 0;
  while (at < uri_template.size()) {
    const auto open = uri_template.find('{', at);
    if (open == std::string_view::npos) break;
    const auto close = uri_template.find('}', open);
    if (close == std::string_view::npos) break;
    literal(uri_template.substr(at, open - at));
    auto read = read_expression(uri_template.substr(open + 1, close - open - 1));
    if (!read) return std::move(read).err();
    PARLEY_TRY(each(*read));
    at = close + 1;
  }
  literal(uri_template.substr(at));
  return ok();
}

}  // namespace

result<std::vector<std::string>> template_variables(std::string_view uri_template) {
  std::vector<std::string> names;
  PARLEY_TRY(walk(
      uri_template, [](std::string_view) {},
      [&](const expression& found) -> result<void> {
        names.insert(names.end(), found.names.begin(), found.names.end());
        return ok();
      }));
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

result<std::string> expand_uri_template(std::string_view uri_template,
                                        const std::map<std::string, std::string>& values) {
  std::string out;
  PARLEY_TRY(walk(
      uri_template, [&](std::string_view text) { out += text; },
      [&](const expression& found) -> result<void> {
        std::vector<std::pair<std::string, std::string>> pairs;
        for (const auto& name : found.names) {
          const auto value = values.find(name);
          if (value == values.end() || value->second.empty()) {
            return make_error(errc::invalid_argument, "missing resource template argument '" + name + "'");
          }
          pairs.emplace_back(name, value->second);
        }
        const bool reserved = found.op == '+' || found.op == '#';
        std::string expanded;
        for (std::size_t i = 0; i < pairs.size(); ++i) {
          const auto& [name, value] = pairs[i];
          switch (found.op) {
            case '/':
            case '.':
              expanded += found.op + encode(value, false);
              break;
            case ';':
              expanded += ";" + encode(name, false) + "=" + encode(value, false);
              break;
            case '?':
            case '&':
              expanded += std::string(i == 0 ? 1 : 0, found.op) + (i == 0 ? "" : "&") + encode(name, false) + "=" +
                          encode(value, false);
              break;
            default:
              expanded += (i == 0 ? (found.op == '#' ? "#" : "") : ",") + encode(value, reserved);
              break;
          }
        }
        out += expanded;
        return ok();
      }));
  return out;
}

}  // namespace parley::tools::mcp

#include <charconv>

#include "parley/core/text.hpp"
#include "parley/llm/scripted/script.hpp"

namespace parley::llm::scripted_detail {
namespace {

constexpr std::string_view kCapturePrefix = "capture.";

void append_literal(text_template& out, std::string_view text) {
  if (text.empty()) return;
  if (!out.parts.empty() && out.parts.back().kind == text_template::part_kind::literal) {
    out.parts.back().text.append(text);
    return;
  }
  out.parts.push_back({text_template::part_kind::literal, std::string(text), 0});
}

result<text_template::part> parse_placeholder(std::string_view name) {
  using kind = text_template::part_kind;
  if (name == "last_user") return text_template::part{kind::last_user, {}, 0};
  if (name == "last_tool") return text_template::part{kind::last_tool, {}, 0};
  if (name == "last_user_media") return text_template::part{kind::last_user_media, {}, 0};
  if (name == "member") return text_template::part{kind::member, {}, 0};
  if (name == "round") return text_template::part{kind::round, {}, 0};
  if (name.starts_with(kCapturePrefix)) {
    const std::string_view digits = name.substr(kCapturePrefix.size());
    std::size_t index = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
    if (digits.empty() || ec != std::errc{} || end != digits.data() + digits.size()) {
      return make_error(errc::config_error,
                        "placeholder '{{" + std::string(name) + "}}' needs a capture group number, e.g. {{capture.1}}");
    }
    return text_template::part{kind::capture, {}, index};
  }
  static const std::vector<std::string> known{"last_user", "last_tool", "last_user_media",
                                              "member",    "round",     "capture.1"};
  return make_error(errc::config_error, "unknown placeholder '{{" + std::string(name) + "}}'" +
                                            did_you_mean(name, known) +
                                            "; known: last_user, last_tool, last_user_media, member, round, capture.N");
}

}  // namespace

bool text_template::has_placeholders() const noexcept {
  for (const auto& p : parts) {
    if (p.kind != part_kind::literal) return true;
  }
  return false;
}

long text_template::max_capture() const noexcept {
  long highest = -1;
  for (const auto& p : parts) {
    if (p.kind == part_kind::capture) highest = std::max(highest, static_cast<long>(p.capture));
  }
  return highest;
}

result<text_template> parse_text_template(std::string_view text) {
  text_template out;
  out.source = std::string(text);
  std::size_t pos = 0;
  while (pos < text.size()) {
    const auto open = text.find("{{", pos);
    const auto close = open == std::string_view::npos ? open : text.find("}}", open + 2);
    if (close == std::string_view::npos) break;  // no complete placeholder left: the rest is literal
    append_literal(out, text.substr(pos, open - pos));
    auto part = parse_placeholder(trim(text.substr(open + 2, close - open - 2), " \t"));
    if (!part) return std::move(part).err();
    out.parts.push_back(std::move(part).value());
    pos = close + 2;
  }
  append_literal(out, text.substr(std::min(pos, text.size())));
  return out;
}

text_template literal_template(std::string text) {
  text_template out;
  append_literal(out, text);
  out.source = std::move(text);
  return out;
}

std::string_view expand_template(const text_template& tmpl, const template_context& ctx, std::string& scratch) {
  if (!tmpl.has_placeholders()) return tmpl.source;
  scratch.clear();
  for (const auto& p : tmpl.parts) {
    switch (p.kind) {
      case text_template::part_kind::literal:
        scratch += p.text;
        break;
      case text_template::part_kind::last_user:
        scratch += ctx.last_user;
        break;
      case text_template::part_kind::last_tool:
        scratch += ctx.last_tool;
        break;
      case text_template::part_kind::last_user_media:
        scratch += ctx.last_user_media;
        break;
      case text_template::part_kind::member:
        scratch += ctx.member;
        break;
      case text_template::part_kind::round:
        scratch += std::to_string(ctx.round);
        break;
      case text_template::part_kind::capture:
        // A group that did not take part in the match expands to nothing.
        if (ctx.captures != nullptr && p.capture < ctx.captures->size()) scratch += (*ctx.captures)[p.capture];
        break;
    }
  }
  return scratch;
}

}  // namespace parley::llm::scripted_detail

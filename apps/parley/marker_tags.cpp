#include "marker_tags.hpp"

#include <array>

namespace parley::cli {
namespace {

struct marker_tag {
  std::string_view marker;
  std::string_view en;
  std::string_view zh;
};

// The markers docs/hierarchy.md names (engine/prompts.hpp), and the runtime's nudge (diligence.cpp).
constexpr std::array<marker_tag, 5> kMarkerTags{{
    {"【最终完成】", "[final reply]", "[最终回复]"},
    {"【FBR-直接回复】", "[fresh-boots: direct answer]", "[FBR：直接回答]"},
    {"【FBR-仅推理】", "[fresh-boots: reasoning only]", "[FBR：仅推理]"},
    {"【tellaskBack】", "[asks back]", "[反问]"},
    {"【运行时自动继续】", "[runtime: keep going]", "[运行时：继续]"},
}};

bool& marker_language_is_zh() {
  static bool zh = false;
  return zh;
}

std::size_t leading_space(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')) ++i;
  return i;
}

}  // namespace

void set_marker_language(std::string_view language) { marker_language_is_zh() = language == "zh"; }

std::string tag_markers(std::string_view text) {
  const std::size_t start = leading_space(text);
  const std::string_view rest = text.substr(start);
  for (const auto& entry : kMarkerTags) {
    if (!rest.starts_with(entry.marker)) continue;
    const std::string_view tag = marker_language_is_zh() ? entry.zh : entry.en;
    std::string_view after = rest.substr(entry.marker.size());
    // The marker's own line break stays: the tag stands on the first line as the marker did.
    return std::string(text.substr(0, start)) + std::string(tag) + (after.empty() || after.front() == '\n' ? "" : " ") +
           std::string(after);
  }
  return std::string(text);
}

bool may_become_marker(std::string_view start) {
  const std::string_view rest = start.substr(leading_space(start));
  if (rest.empty()) return true;
  for (const auto& entry : kMarkerTags) {
    if (rest.size() < entry.marker.size() && entry.marker.starts_with(rest)) return true;
  }
  return false;
}

}  // namespace parley::cli

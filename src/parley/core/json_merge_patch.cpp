#include "parley/core/json_merge_patch.hpp"

namespace parley {

json::value json_merge_patch(const json::value& target, const json::value& patch) {
  if (!patch.is_object()) return patch;
  json::object merged = target.is_object() ? target.get_object() : json::object{};
  for (const auto& [name, value] : patch.get_object()) {
    const auto existing = merged.find(name);
    if (value.is_null()) {
      if (existing == merged.end()) continue;
      // Rebuilt without it: boost::json's erase moves the last member into the gap.
      json::object kept;
      kept.reserve(merged.size());
      for (const auto& member : merged) {
        if (member.key() != name) kept.emplace(member.key(), member.value());
      }
      merged = std::move(kept);
    } else if (existing != merged.end()) {
      existing->value() = json_merge_patch(existing->value(), value);
    } else {
      merged.emplace(name, json_merge_patch(json::value(nullptr), value));
    }
  }
  return merged;
}

result<std::string> json_merge_patch_text(std::string_view target, std::string_view patch) {
  auto parsed_target = parse_json(target);
  if (!parsed_target)
    return make_error(errc::corrupt, "the JSON to patch does not parse: " + parsed_target.err().message);
  auto parsed_patch = parse_json(patch);
  if (!parsed_patch)
    return make_error(errc::invalid_argument, "the JSON merge patch does not parse: " + parsed_patch.err().message);
  return to_json_text(json_merge_patch(*parsed_target, *parsed_patch));
}

}  // namespace parley

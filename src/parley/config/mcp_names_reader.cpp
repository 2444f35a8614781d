// What members see of an MCP server: the name filters and transforms of its tools, prompts and
// resources (Dominds' parseScopedTransformConfig / parseTransformArray / parseResourceConfig), and
// its manual (as dist/mcp/manual-problems.js checks it) — strictly, naming the key.
#include <string>
#include <utility>
#include <vector>

#include "parley/config/mcp_reader.hpp"
#include "parley/core/text.hpp"

namespace parley::config::detail {
namespace {

const std::vector<std::string> kFilterKeys{"whitelist", "blacklist", "transform"};
const std::vector<std::string> kResourceKeys{"whitelist", "blacklist", "transform", "mimeTypes", "maxBytes", "skills"};
const std::vector<std::string> kSkillKeys{"enabled", "whitelist", "blacklist", "transform"};
const std::vector<std::string> kManualKeys{"content", "contentFile", "sections"};
const std::vector<std::string> kSectionKeys{"title", "content"};
const std::vector<std::string> kTransformKeys{"prefix", "suffix"};
const std::vector<std::string> kPrefixKeys{"remove", "add"};

result<mcp_name_transform> read_prefix(const map_reader& entry_map, const map_reader::entry& item) {
  if (is_yaml_string(item.value))
    return mcp_name_transform{mcp_name_transform::kind::prefix_add, {}, item.value.Scalar()};
  if (!item.value.IsMap()) return type_error(entry_map, item, "a string or {remove: '...', add: '...'}");
  auto opened = entry_map.child_of(item, entry_map.path_of(item.key));
  if (!opened) return std::move(opened).err();
  const map_reader& replace = *opened;
  PARLEY_TRY(replace.check_keys(kPrefixKeys));
  mcp_name_transform transform{mcp_name_transform::kind::prefix_replace, {}, {}};
  for (const auto& [key, out] : {std::pair<const char*, std::string*>{"remove", &transform.remove},
                                 std::pair<const char*, std::string*>{"add", &transform.add}}) {
    const map_reader::entry* part = replace.find(key);
    if (part == nullptr) return replace.missing(key, "a string (may be empty: '')");
    if (!is_yaml_string(part->value)) return type_error(replace, *part, kMcpStringHint);
    *out = part->value.Scalar();
  }
  return transform;
}

// Dominds' transform list: each entry `prefix: 'x_'`, `prefix: {remove, add}` or `suffix: '_x'`.
result<std::vector<mcp_name_transform>> read_transforms(const map_reader& map, const map_reader::entry& item) {
  if (!item.value.IsSequence()) {
    return type_error(map, item, "a list of {prefix: ...} or {suffix: ...} entries");
  }
  std::vector<mcp_name_transform> transforms;
  for (std::size_t i = 0; i < item.value.size(); ++i) {
    const YAML::Node element = item.value[i];
    const std::string path = map.path_of(item.key) + "[" + std::to_string(i) + "]";
    auto opened = map_reader::open(map.file(), element, element.Mark(), path);
    if (!opened) return std::move(opened).err();
    const map_reader& entry_map = *opened;
    PARLEY_TRY(entry_map.check_keys(kTransformKeys));
    // Entries with a null value count: `- prefix:` is a prefix without its text.
    const auto& entries = entry_map.entries();
    if (entries.size() != 1) {
      return entry_map.fail(entries.empty() ? "neither 'prefix' nor 'suffix' (expected one of them)"
                                            : "both 'prefix' and 'suffix' (expected one per entry)");
    }
    const map_reader::entry& only = entries.front();
    if (only.key == "prefix") {
      auto prefix = read_prefix(entry_map, only);
      if (!prefix) return std::move(prefix).err();
      transforms.push_back(std::move(prefix).value());
      continue;
    }
    if (!is_yaml_string(only.value)) return type_error(entry_map, only, kMcpStringHint);
    transforms.push_back(mcp_name_transform{mcp_name_transform::kind::suffix_add, {}, only.value.Scalar()});
  }
  return transforms;
}

// whitelist, blacklist and transform, as every filter has them.
result<void> read_filter_keys(const map_reader& map, mcp_name_filter& filter) {
  PARLEY_TRY_ASSIGN(filter.whitelist, read_mcp_strings(map, "whitelist", /*keep_blank=*/false));
  PARLEY_TRY_ASSIGN(filter.blacklist, read_mcp_strings(map, "blacklist", /*keep_blank=*/false));
  if (const map_reader::entry* item = map.find("transform")) {
    PARLEY_TRY_ASSIGN(filter.transform, read_transforms(map, *item));
  }
  return ok();
}

result<void> read_filter(const map_reader& server, std::string_view key, mcp_name_filter& filter) {
  auto map = server.child(key);
  if (!map) return std::move(map).err();
  if (!map->has_value()) return ok();
  PARLEY_TRY((*map)->check_keys(kFilterKeys));
  return read_filter_keys(**map, filter);
}

result<void> read_resources(const map_reader& server, mcp_server_config& config) {
  auto opened = server.child("resources");
  if (!opened) return std::move(opened).err();
  if (!opened->has_value()) return ok();
  const map_reader& map = **opened;
  PARLEY_TRY(map.check_keys(kResourceKeys));
  PARLEY_TRY(read_filter_keys(map, config.resources));
  PARLEY_TRY_ASSIGN(config.resource_mime_types, read_mcp_strings(map, "mimeTypes", /*keep_blank=*/false));
  if (map.has("maxBytes")) {
    std::int64_t max_bytes = 0;
    PARLEY_TRY(map.read_positive("maxBytes", max_bytes));
    config.resource_max_bytes = static_cast<std::size_t>(max_bytes);
  }
  auto skills = map.child("skills");
  if (!skills) return std::move(skills).err();
  if (!skills->has_value()) return ok();
  PARLEY_TRY((*skills)->check_keys(kSkillKeys));
  PARLEY_TRY((*skills)->read("enabled", config.resource_skills.enabled));
  return read_filter_keys(**skills, config.resource_skills.filter);
}

// A manual section's title or text: non-blank, trimmed (Dominds trims them).
result<std::string> section_text(const map_reader& map, const YAML::Node& node, const std::string& path) {
  if (!is_yaml_string(node) || trim(node.Scalar()).empty())
    return mcp_node_type_error(map, node, path, "non-blank text");
  return std::string(trim(node.Scalar()));
}

result<void> read_sections(const map_reader& manual, const map_reader::entry& item,
                           std::vector<std::pair<std::string, std::string>>& sections) {
  const std::string path = manual.path_of("sections");
  if (item.value.IsMap()) {  // title: content
    auto opened = manual.child_of(item, path);
    if (!opened) return std::move(opened).err();
    const map_reader& map = *opened;
    PARLEY_TRY(map.check_unique("section title"));
    for (const auto& entry : map.entries()) {
      std::pair<std::string, std::string> section;
      PARLEY_TRY_ASSIGN(section.first, section_text(map, entry.key_node, path));
      PARLEY_TRY_ASSIGN(section.second, section_text(map, entry.value, map.path_of(entry.key)));
      sections.push_back(std::move(section));
    }
    return ok();
  }
  if (!item.value.IsSequence()) {
    return type_error(manual, item, "a list of {title, content} or a mapping of title to content");
  }
  for (std::size_t i = 0; i < item.value.size(); ++i) {
    const YAML::Node element = item.value[i];
    const std::string at = path + "[" + std::to_string(i) + "]";
    auto opened = map_reader::open(manual.file(), element, element.Mark(), at);
    if (!opened) return std::move(opened).err();
    const map_reader& map = *opened;
    PARLEY_TRY(map.check_keys(kSectionKeys));
    std::pair<std::string, std::string> section;
    for (const auto& [key, out] : {std::pair<const char*, std::string*>{"title", &section.first},
                                   std::pair<const char*, std::string*>{"content", &section.second}}) {
      const map_reader::entry* part = map.find(key);
      if (part == nullptr) return map.missing(key, "non-blank text");
      PARLEY_TRY_ASSIGN(*out, section_text(map, part->value, map.path_of(key)));
    }
    sections.push_back(std::move(section));
  }
  return ok();
}

// Dominds' `manual`: text, or {content, contentFile, sections} with at least one of them.
result<void> read_manual(const map_reader& server, mcp_server_config& config) {
  const map_reader::entry* item = server.find("manual");
  if (item == nullptr) return ok();
  constexpr std::string_view kExpected = "text, or {content, contentFile, sections}";
  if (is_yaml_string(item->value)) {
    config.manual = std::string(trim(item->value.Scalar()));
    if (config.manual.empty()) return server.fail_at_value(*item, "blank (expected " + std::string(kExpected) + ")");
    return ok();
  }
  if (!item->value.IsMap()) return type_error(server, *item, kExpected);
  auto opened = server.child_of(*item, server.path_of("manual"));
  if (!opened) return std::move(opened).err();
  const map_reader& manual = *opened;
  PARLEY_TRY(manual.check_keys(kManualKeys));
  std::vector<std::string> parts;
  if (const map_reader::entry* content = manual.find("content")) {
    std::string text;
    PARLEY_TRY_ASSIGN(text, read_mcp_text(manual, *content, "non-blank text"));
    parts.emplace_back(trim(text));
  }
  if (const map_reader::entry* file = manual.find("contentFile")) {
    std::string prefix;
    PARLEY_TRY_ASSIGN(prefix, read_mcp_text(manual, *file, "a path prefix of the manual's topic files"));
    PARLEY_TRY(check_mcp_controls(manual, *file, prefix, "a path"));
    config.manual_content_file = std::string(trim(prefix));
  }
  std::vector<std::pair<std::string, std::string>> sections;
  if (const map_reader::entry* list = manual.find("sections")) PARLEY_TRY(read_sections(manual, *list, sections));
  for (const auto& [title, content] : sections) parts.push_back("#### " + title + "\n\n" + content);
  if (parts.empty() && config.manual_content_file.empty()) {
    return manual.fail("no 'content', 'contentFile' or 'sections' (expected at least one)");
  }
  config.manual = join(parts, "\n\n");
  return ok();
}

}  // namespace

result<void> read_mcp_names(const map_reader& server, mcp_server_config& config) {
  if (const map_reader::entry* transform = server.find("transform")) {
    PARLEY_TRY_ASSIGN(config.transform, read_transforms(server, *transform));
  }
  PARLEY_TRY(read_filter(server, "tools", config.tools));
  PARLEY_TRY(read_filter(server, "prompts", config.prompts));
  PARLEY_TRY(read_resources(server, config));
  return read_manual(server, config);
}

}  // namespace parley::config::detail

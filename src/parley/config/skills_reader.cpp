#include "parley/config/skills_reader.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <system_error>

#include "parley/config/yaml_reader.hpp"
#include "parley/core/file_text.hpp"
#include "parley/core/text.hpp"

namespace parley::config::detail {
namespace {

namespace fs = std::filesystem;

enum class variant { neutral, en, cn };

std::string_view variant_name(variant v) { return v == variant::en ? "en" : v == variant::cn ? "cn" : "neutral"; }

struct candidate {
  variant kind;
  fs::path path;
  std::string relative;  // to the workspace: what the index shows
  std::string label;     // the path as errors name it (under the workspace path as given)
};

// `<stem>.md`, `<stem>.en.md`, `<stem>.cn.md` (case-insensitive suffixes, as Dominds' regex).
std::optional<std::pair<std::string, variant>> direct_file(const std::string& name) {
  const std::string low = ascii_lowercase(name);
  if (!low.ends_with(".md")) return std::nullopt;
  std::string stem = name.substr(0, name.size() - 3);
  variant kind = variant::neutral;
  const std::string low_stem = ascii_lowercase(stem);
  if (low_stem.size() > 3 && (low_stem.ends_with(".en") || low_stem.ends_with(".cn"))) {
    kind = low_stem.ends_with(".en") ? variant::en : variant::cn;
    stem.resize(stem.size() - 3);
  }
  if (stem.find_first_not_of(" \t") == std::string::npos) return std::nullopt;
  return std::pair{stem, kind};
}

std::optional<variant> package_file(const std::string& name) {
  const std::string low = ascii_lowercase(name);
  if (low == "skill.md") return variant::neutral;
  if (low == "skill.en.md") return variant::en;
  if (low == "skill.cn.md") return variant::cn;
  return std::nullopt;
}

// What an entry is once links are followed; a link to nothing is an error, as in Dominds.
result<fs::file_type> kind_of(const fs::path& path, const std::string& label) {
  std::error_code ec;
  const auto status = fs::status(path, ec);
  if (status.type() == fs::file_type::not_found) {
    return make_error(errc::config_error, label + ": a skill link whose target does not exist");
  }
  return status.type();
}

using candidate_groups = std::map<std::string, std::vector<candidate>>;

result<candidate_groups> scan_scope(const fs::path& workspace, const fs::path& scope_rel) {
  candidate_groups groups;
  std::error_code ec;
  const fs::path root = workspace / scope_rel;
  if (!fs::is_directory(root, ec)) return groups;
  std::vector<fs::path> entries;
  for (const auto& entry : fs::directory_iterator(root, ec)) entries.push_back(entry.path());
  if (ec) return make_error(errc::config_error, root.string() + ": cannot list skills: " + ec.message());
  std::sort(entries.begin(), entries.end());
  for (const auto& path : entries) {
    const std::string name = path.filename().string();
    const std::string relative = (scope_rel / name).string();
    auto kind = kind_of(path, path.string());
    if (!kind) return std::move(kind).err();
    if (*kind == fs::file_type::regular) {
      if (auto parsed = direct_file(name))
        groups[parsed->first].push_back({parsed->second, path, relative, path.string()});
      continue;
    }
    if (*kind != fs::file_type::directory) continue;
    std::vector<fs::path> inside;
    for (const auto& entry : fs::directory_iterator(path, ec)) inside.push_back(entry.path());
    std::sort(inside.begin(), inside.end());
    for (const auto& file : inside) {
      const auto kind_inside = package_file(file.filename().string());
      if (!kind_inside) continue;
      const std::string file_relative = (scope_rel / name / file.filename()).string();
      auto file_kind = kind_of(file, file.string());
      if (!file_kind) return std::move(file_kind).err();
      if (*file_kind == fs::file_type::regular) {
        groups[name].push_back({*kind_inside, file, file_relative, file.string()});
      }
    }
  }
  return groups;
}

result<std::optional<candidate>> pick(const std::vector<candidate>& files, std::string_view language) {
  for (const variant v : {variant::neutral, variant::en, variant::cn}) {
    std::vector<std::string> same;
    for (const auto& file : files) {
      if (file.kind == v) same.push_back(file.label);
    }
    if (same.size() > 1) {
      return make_error(errc::config_error, same[0] + ": duplicate skill variant '" + std::string(variant_name(v)) +
                                                "' (also " + join_names({same.begin() + 1, same.end()}) + ")");
    }
  }
  const variant preferred = language == "zh" ? variant::cn : variant::en;
  for (const variant v : {preferred, variant::neutral}) {
    for (const auto& file : files) {
      if (file.kind == v) return std::optional<candidate>(file);
    }
  }
  return std::optional<candidate>{};
}

// `allowed-tools`: "a, b" or [a, b]; an empty string or an empty item is refused, as in Dominds.
result<std::vector<std::string>> read_allowed_tools(const map_reader& front) {
  const auto* item = front.find("allowed-tools");
  if (item == nullptr) return std::vector<std::string>{};
  std::vector<std::string> names;
  if (item->value.IsScalar()) {
    std::string_view rest = item->value.Scalar();
    while (!rest.empty()) {
      const auto comma = rest.find(',');
      if (auto name = std::string(trim(rest.substr(0, comma))); !name.empty()) names.push_back(std::move(name));
      rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
    }
    if (names.empty()) return front.fail_at_value(*item, "got an empty string (expected tool names, comma-separated)");
    return names;
  }
  PARLEY_TRY(front.read("allowed-tools", names));
  for (auto& name : names) {
    name = std::string(trim(name));
    if (name.empty()) return front.fail_at_value(*item, "an empty tool name (expected non-empty strings)");
  }
  return names;
}

result<skill_config> read_skill_file(const candidate& file, const std::string& id) {
  auto raw = read_regular_file(file.path, errc::config_error, kMaxSkillFileBytes);
  if (!raw) return std::move(raw).err();
  std::string text = std::move(*raw);
  if (text.starts_with("\xEF\xBB\xBF")) text.erase(0, 3);
  std::string normalized;
  normalized.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') continue;
    normalized += text[i];
  }
  // The frontmatter is the YAML between a first line `---` and the next `---` line. Parsed with
  // its opening line blanked, so positions in errors are the file's own lines.
  std::string yaml;
  std::string body = normalized;
  if (normalized.starts_with("---\n")) {
    auto end = normalized.find("\n---\n", 3);
    std::size_t body_at = end == std::string::npos ? std::string::npos : end + 5;
    if (end == std::string::npos && normalized.ends_with("\n---") && normalized.size() >= 7) {
      end = normalized.size() - 4;
      body_at = normalized.size();
    }
    if (end != std::string::npos) {
      yaml = "\n" + normalized.substr(4, end - 4);
      body = normalized.substr(body_at);
    }
  }
  const std::string& label = file.label;
  auto node = parse_yaml_text(label, yaml);
  if (!node) return std::move(node).err();
  YAML::Mark top;
  top.line = 0;
  top.column = 0;
  if (!node->IsNull() && !node->IsMap()) {
    return yaml_error(label, node->Mark(), {}, "the frontmatter is not a mapping (expected name: and description:)");
  }
  auto front = map_reader::open(label, *node, top, {});
  if (!front) return std::move(front).err();
  PARLEY_TRY(front->check_keys({"name", "description", "allowed-tools", "user-invocable", "disable-model-invocation"}));
  skill_config skill;
  skill.id = id;
  skill.source = file.relative;
  auto title = front->require_nonempty("name", "the skill's title");
  if (!title) return std::move(title).err();
  skill.title = std::string(trim(*title));
  auto description = front->require_nonempty("description", "when to use the skill");
  if (!description) return std::move(description).err();
  skill.description = std::string(trim(*description));
  bool flag = false;
  PARLEY_TRY(front->read("user-invocable", flag));
  PARLEY_TRY(front->read("disable-model-invocation", flag));
  auto allowed = read_allowed_tools(*front);
  if (!allowed) return std::move(allowed).err();
  skill.allowed_tools = std::move(*allowed);
  skill.body = std::string(trim(body));
  if (skill.body.empty()) {
    return make_error(errc::config_error, label +
                                              ": the skill has no Markdown body after its frontmatter (expected "
                                              "its instructions)");
  }
  return skill;
}

result<void> read_scope(const fs::path& workspace, const fs::path& scope_rel, const std::string& member_id,
                        std::string_view language, std::vector<skill_config>& out) {
  auto groups = scan_scope(workspace, scope_rel);
  if (!groups) return std::move(groups).err();
  for (const auto& [id, files] : *groups) {
    auto chosen = pick(files, language);
    if (!chosen) return std::move(chosen).err();
    if (!*chosen) continue;
    auto skill = read_skill_file(**chosen, id);
    if (!skill) return std::move(skill).err();
    skill->member_id = member_id;
    out.push_back(std::move(*skill));
  }
  return ok();
}

}  // namespace

result<std::vector<skill_config>> read_dominds_skills(const fs::path& workspace,
                                                      const std::vector<std::string>& member_ids,
                                                      std::string_view language) {
  std::vector<skill_config> skills;
  const fs::path skills_rel = fs::path(".minds") / "skills";
  PARLEY_TRY(read_scope(workspace, skills_rel / "team_shared", {}, language, skills));
  for (const auto& member_id : member_ids) {
    PARLEY_TRY(read_scope(workspace, skills_rel / "individual" / member_id, member_id, language, skills));
  }
  return skills;
}

}  // namespace parley::config::detail

#include "parley/config/cleared_problems.hpp"

#include <algorithm>
#include <system_error>

#include "parley/config/yaml_reader.hpp"
#include "parley/core/file_io.hpp"

namespace parley::config {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kClearedProblemsHeader =
    "# Problems cleared with team_mgmt_clear_problems: Parley does not list them again while they stay\n"
    "# the same (same file, key path and text). Remove an entry, or this file, to list it again.\n";

result<cleared_problem> read_cleared_item(const std::string& file, const YAML::Node& item, std::size_t index) {
  const std::string path = "cleared[" + std::to_string(index) + "]";
  if (!item.IsMap()) return detail::yaml_error(file, item.Mark(), path, "expected a mapping with file, what and why");
  auto map = detail::map_reader::open(file, item, item.Mark(), path);
  if (!map) return std::move(map).err();
  PARLEY_TRY(map->check_keys({"file", "what", "why"}));
  cleared_problem out;
  PARLEY_TRY(map->read("file", out.file));
  PARLEY_TRY(map->read("what", out.what));
  auto why = map->require_nonempty("why", "the problem's text");
  if (!why) return std::move(why).err();
  out.why = std::move(*why);
  return out;
}

}  // namespace

fs::path cleared_problems_file(const fs::path& workspace) { return workspace / ".minds" / "problems-cleared.yaml"; }

cleared_problem cleared_entry(const problem& found, const fs::path& workspace) {
  cleared_problem out{found.file, found.what, found.why};
  const fs::path file(found.file);
  const auto relative = file.lexically_relative(workspace / ".minds");
  if (file.is_absolute() && !relative.empty() && *relative.begin() != "..") out.file = relative.generic_string();
  return out;
}

result<std::vector<cleared_problem>> read_cleared_problems(const fs::path& workspace) {
  const fs::path file = cleared_problems_file(workspace);
  std::error_code ec;
  if (!fs::exists(file, ec)) return std::vector<cleared_problem>{};
  auto root = detail::load_yaml_file(file);
  if (!root) return std::move(root).err();
  if (root->IsNull()) return std::vector<cleared_problem>{};
  auto top = detail::map_reader::open(file.string(), *root, root->Mark(), {});
  if (!top) return std::move(top).err();
  PARLEY_TRY(top->check_keys({"cleared"}));
  const auto* list = top->find("cleared");
  std::vector<cleared_problem> out;
  if (list == nullptr) return out;
  if (!list->value.IsSequence()) return top->fail_at_value(*list, "expected a list of cleared problems");
  for (std::size_t i = 0; i < list->value.size(); ++i) {
    auto item = read_cleared_item(file.string(), list->value[i], i);
    if (!item) return std::move(item).err();
    out.push_back(std::move(*item));
  }
  return out;
}

result<void> write_cleared_problems(const fs::path& workspace, const std::vector<cleared_problem>& entries) {
  const fs::path file = cleared_problems_file(workspace);
  std::error_code ec;
  if (entries.empty()) {
    fs::remove(file, ec);
    if (ec) return make_error(errc::io_error, "cannot remove " + file.string() + ": " + ec.message());
    return ok();
  }
  YAML::Emitter out;
  out << YAML::BeginMap << YAML::Key << "cleared" << YAML::Value << YAML::BeginSeq;
  for (const auto& entry : entries) {
    out << YAML::BeginMap;
    out << YAML::Key << "file" << YAML::Value << YAML::DoubleQuoted << entry.file;
    out << YAML::Key << "what" << YAML::Value << YAML::DoubleQuoted << entry.what;
    out << YAML::Key << "why" << YAML::Value << YAML::DoubleQuoted << entry.why;
    out << YAML::EndMap;
  }
  out << YAML::EndSeq << YAML::EndMap;
  if (!out.good()) return make_error(errc::internal, "cannot write the cleared problems: " + out.GetLastError());
  return write_file_atomically(file, std::string(kClearedProblemsHeader) + out.c_str() + "\n");
}

std::size_t hide_cleared_problems(std::vector<problem>& problems, const fs::path& workspace) {
  auto cleared = read_cleared_problems(workspace);
  if (!cleared) {
    problems.push_back(problem_from_message(cleared.err().message + "; no problem is hidden"));
    return 0;
  }
  if (cleared->empty()) return 0;
  const auto before = problems.size();
  std::erase_if(problems, [&](const problem& found) {
    if (found.blocks_member) return false;
    const cleared_problem entry = cleared_entry(found, workspace);
    return std::find(cleared->begin(), cleared->end(), entry) != cleared->end();
  });
  return before - problems.size();
}

}  // namespace parley::config

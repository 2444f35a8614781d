// Dominds' team_mgmt_link_skill / team_mgmt_unlink_skill: a skill package kept in the team's pool
// `.minds/skills/linkable/<skill>/` is handed to one member as the link
// `.minds/skills/individual/<member>/<skill>` → `../../linkable/<skill>`, the layout Dominds
// writes, so the same workspace reads the same in both. Parley's skills reader follows the link
// (config/skills_reader.hpp), and a running `parley serve` reloads the team when `.minds/` changes.
// The link never leads out of `.minds/`: both ids are single path segments, and the package must
// resolve inside `.minds/skills/linkable/`. A link is first made on a copy of `.minds/` (the
// validated write path of every team_mgmt change): when the member's skills would no longer load
// (a package without valid SKILL.md frontmatter), nothing is linked. Unlink removes only a link,
// never a folder the member owns.
#include <boost/json/object.hpp>

#include <algorithm>

#include "parley/config/team.hpp"
#include "parley/core/json_fields.hpp"
#include "parley/tools/dominds_tool_support.hpp"
#include "parley/tools/function_tool.hpp"
#include "parley/tools/team_mgmt_support.hpp"

namespace parley::tools::team_mgmt_detail {
namespace {

namespace json = boost::json;
namespace fs = std::filesystem;

// Dominds' rule for member and skill ids here: one segment of letters, digits, '_' and '-'.
result<std::string> skill_link_segment(json_fields& in, std::string_view field) {
  const std::string raw = in.string(field);
  if (!in.ok()) return make_error(errc::invalid_argument, in.message());
  const auto first = raw.find_first_not_of(" \t");
  const auto last = raw.find_last_not_of(" \t");
  if (first == std::string::npos) {
    return make_error(errc::invalid_argument, "Invalid " + std::string(field) + ": expected a non-empty string.");
  }
  std::string value = raw.substr(first, last - first + 1);
  const bool plain = std::all_of(value.begin(), value.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
  if (!plain) {
    return make_error(errc::invalid_argument, "Invalid " + std::string(field) +
                                                  ": expected one path segment of letters, numbers, underscores "
                                                  "and hyphens.");
  }
  return value;
}

struct skill_link {
  std::string member_id;
  std::string skill_id;
  std::string source_rel;  // ".minds/skills/linkable/<skill>"
  std::string target_rel;  // ".minds/skills/individual/<member>/<skill>"
};

result<skill_link> read_skill_link(const json::object& args) {
  json_fields in(args);
  auto member = skill_link_segment(in, "member_id");
  if (!member) return std::move(member).err();
  auto skill = skill_link_segment(in, "skill_id");
  if (!skill) return std::move(skill).err();
  skill_link out{*member, *skill, ".minds/skills/linkable/" + *skill,
                 ".minds/skills/individual/" + *member + "/" + *skill};
  return out;
}

bool skill_link_path_inside(const fs::path& inner, const fs::path& outer) {
  const auto rel = inner.lexically_relative(outer);
  return !rel.empty() && *rel.begin() != "..";
}

// The package is a folder that resolves inside `.minds/skills/linkable/`, and the member's skills
// folder (as far as it exists) inside `.minds/`.
result<void> check_link_ends(const fs::path& workspace, const skill_link& link) {
  std::error_code ec;
  const fs::path minds = fs::canonical(workspace / ".minds", ec);
  if (ec) return make_error(errc::not_found, "the workspace has no .minds/ folder");
  const fs::path source = workspace / link.source_rel;
  if (!fs::exists(source, ec)) return make_error(errc::not_found, "Linkable skill does not exist: " + link.source_rel);
  if (!fs::is_directory(source, ec)) {
    return make_error(errc::invalid_argument, "Linkable skill is not a directory package: " + link.source_rel);
  }
  const fs::path pool = fs::canonical(workspace / ".minds/skills/linkable", ec);
  if (ec || !skill_link_path_inside(pool, minds) || !skill_link_path_inside(fs::canonical(source, ec), pool)) {
    return make_error(errc::invalid_argument, link.source_rel + " leads out of .minds/skills/linkable/; not linked");
  }
  const fs::path target = workspace / link.target_rel;
  if (fs::symlink_status(target, ec).type() != fs::file_type::not_found) {
    return make_error(errc::conflict, "Target personal skill path already exists: " + link.target_rel);
  }
  if (!skill_link_path_inside(fs::weakly_canonical(target.parent_path(), ec), minds)) {
    return make_error(errc::invalid_argument, link.target_rel + " leads out of .minds/; not linked");
  }
  return ok();
}

result<void> make_skill_link(const fs::path& workspace, const skill_link& link) {
  std::error_code ec;
  const fs::path target = workspace / link.target_rel;
  fs::create_directories(target.parent_path(), ec);
  if (!ec) fs::create_directory_symlink(fs::path("../../linkable") / link.skill_id, target, ec);
  if (ec) return make_error(errc::io_error, "cannot link " + link.target_rel + ": " + ec.message());
  return ok();
}

// The member must be one the team has: a link for anyone else would never be read.
result<void> check_member_known(const fs::path& workspace, const std::string& member_id) {
  auto team = config::load_dominds_workspace(workspace);
  if (!team) return ok();  // the copy's check below reports a team that does not load
  const auto ids = team->member_ids();
  if (std::find(ids.begin(), ids.end(), member_id) != ids.end()) return ok();
  return make_error(errc::not_found, "no member '" + member_id + "' in .minds/team.yaml; not linked");
}

tool_outcome link_skill(const json::object& args, const tool_context& ctx) {
  auto link = read_skill_link(args);
  if (!link) return tool_outcome{false, "Error: " + link.err().message};
  if (auto ends = check_link_ends(ctx.workspace, *link); !ends)
    return tool_outcome{false, "Error: " + ends.err().message};
  if (auto known = check_member_known(ctx.workspace, link->member_id); !known) {
    return tool_outcome{false, "Error: " + known.err().message};
  }
  auto copy = minds_copy::of(ctx.workspace);
  if (!copy) return tool_outcome{false, "Error: " + copy.err().message};
  if (auto trial = make_skill_link(copy->workspace(), *link); !trial) {
    return tool_outcome{false, "Error: " + trial.err().message};
  }
  if (auto loads = copy->loads(ctx.workspace); !loads) return tool_outcome{false, "Error: " + loads.err().message};
  if (auto made = make_skill_link(ctx.workspace, *link); !made)
    return tool_outcome{false, "Error: " + made.err().message};
  return dominds_detail::yaml_answer(true, "link_skill")
      .quoted("member_id", link->member_id)
      .quoted("skill_id", link->skill_id)
      .quoted("source", link->source_rel)
      .quoted("path", link->target_rel)
      .quoted("summary", "Linked skill.")
      .done();
}

tool_outcome unlink_skill(const json::object& args, const tool_context& ctx) {
  auto link = read_skill_link(args);
  if (!link) return tool_outcome{false, "Error: " + link.err().message};
  const fs::path target = ctx.workspace / link->target_rel;
  std::error_code ec;
  const auto type = fs::symlink_status(target, ec).type();
  if (type == fs::file_type::not_found) {
    return tool_outcome{false, "Error: Target personal skill link does not exist: " + link->target_rel};
  }
  if (type != fs::file_type::symlink) {
    return tool_outcome{false, "Error: Target personal skill path is not a symlink: " + link->target_rel};
  }
  // Removing a skill never leaves a team that does not load: no trial on a copy is needed.
  fs::remove(target, ec);
  if (ec) return tool_outcome{false, "Error: cannot remove " + link->target_rel + ": " + ec.message()};
  return dominds_detail::yaml_answer(true, "unlink_skill")
      .quoted("member_id", link->member_id)
      .quoted("skill_id", link->skill_id)
      .quoted("path", link->target_rel)
      .quoted("summary", "Unlinked skill.")
      .done();
}

}  // namespace

void register_minds_skill_link_tools(tool_registry& registry) {
  registry.add(
      std::make_unique<function_tool>(dominds_detail::dominds_spec_or_note("team_mgmt_link_skill"), link_skill));
  registry.add(
      std::make_unique<function_tool>(dominds_detail::dominds_spec_or_note("team_mgmt_unlink_skill"), unlink_skill));
}

}  // namespace parley::tools::team_mgmt_detail

// Dominds' team_mgmt_validate_priming_scripts and team_mgmt_clear_problems, Parley's way.
// Priming scripts are checked as Dominds checks them (config/priming_scripts.hpp); Parley does not
// replay them, and the answer says so. Clearing a Problem acknowledges it: it is kept in
// `.minds/problems-cleared.yaml` and not listed again while it stays the same
// (config/cleared_problems.hpp). Parley keeps no resolved history — a fixed problem is gone at the
// next load — so Dominds' default, clearing resolved history, clears nothing; clearing active
// problems needs a source, path or problem_id, as in Dominds.
#include <boost/json/object.hpp>

#include <algorithm>

#include "parley/config/cleared_problems.hpp"
#include "parley/config/priming_scripts.hpp"
#include "parley/config/team.hpp"
#include "parley/core/json_fields.hpp"
#include "parley/tools/dominds_tool_support.hpp"
#include "parley/tools/function_tool.hpp"
#include "parley/tools/team_mgmt_support.hpp"

namespace parley::tools::team_mgmt_detail {
namespace {

namespace json = boost::json;
namespace fs = std::filesystem;

constexpr std::size_t kClearedIdsShown = 50;
constexpr std::string_view kPrimingNotRun =
    "Note: Parley does not replay priming scripts (its dialogs start without them); they are checked so the "
    "workspace stays valid for Dominds.";

tool_outcome validate_priming(const tool_context& ctx) {
  std::error_code ec;
  if (!fs::is_directory(ctx.workspace / ".minds", ec)) {
    return tool_outcome{true, "`.minds/` not found. Cannot validate `.minds/priming/` yet."};
  }
  const auto report = config::validate_priming_scripts(ctx.workspace);
  if (report.checked == 0) {
    return tool_outcome{true,
                        "# Startup Script Validation\n- No script files found under `.minds/priming/`; nothing to "
                        "validate.\n"};
  }
  const std::string checked = std::to_string(report.checked);
  if (report.issues.empty()) {
    return tool_outcome{true, "# Startup Script Validation Passed\n- Checked " + checked +
                                  " script(s): ✅ all passed\n- Recommendation: run this tool after each change under "
                                  "`.minds/priming/**`.\n- " +
                                  std::string(kPrimingNotRun) + "\n"};
  }
  std::string out = "# Startup Script Validation Failed\n- Checked " + checked + " script(s): ❌ " +
                    std::to_string(report.issues.size()) + " failed\n- Fix each error below before continuing.\n- " +
                    std::string(kPrimingNotRun) + "\n\n";
  for (const auto& issue : report.issues) out += "- " + issue.message + "\n";
  return tool_outcome{false, out};
}

struct clear_filter {
  std::optional<std::string> source;
  std::optional<std::string> path;
  std::optional<std::string> problem_id;
  std::string status;

  bool matches(const config::problem& found) const {
    if (source && problem_source(found) != *source) return false;
    if (path && found.file.find(minds_relative(*path)) == std::string::npos) return false;
    return !problem_id || team_mgmt_detail::problem_id(found) == *problem_id;
  }
  std::string described() const {
    std::string out;
    if (source) out += "source=`" + *source + "`, ";
    if (path) out += "path=`" + *path + "`, ";
    if (problem_id) out += "problem_id=`" + *problem_id + "`, ";
    return out + "status=`" + status + "`";
  }
};

result<clear_filter> read_clear_filter(const json::object& args) {
  json_fields in(args);
  clear_filter out{in.optional_string("source"), in.optional_string("path"), in.optional_string("problem_id"),
                   in.optional_string("status").value_or("resolved")};
  if (!in.ok()) return make_error(errc::invalid_argument, in.message());
  if (out.status != "resolved" && out.status != "active" && out.status != "all") {
    return make_error(errc::invalid_argument, "status: expected all, active or resolved, got '" + out.status + "'");
  }
  if (out.status != "resolved" && !out.source && !out.path && !out.problem_id) {
    return make_error(errc::invalid_argument,
                      "Clearing active/all problems requires an explicit source, path, or problem_id filter to "
                      "avoid removing active issues by mistake.");
  }
  return out;
}

std::string clear_answer(const clear_filter& filter, const std::vector<std::string>& cleared,
                         const std::vector<std::string>& kept) {
  std::string out = "# Problems Clear Result\n- cleared " + std::to_string(cleared.size()) +
                    " problem(s)\n- filters: " + filter.described() + "\n";
  if (filter.status == "resolved") {
    return out +
           "- Note: by default this only clears resolved history; Parley keeps none (a fixed problem is gone "
           "at the next load). To hide active problems until they change, call with status \"active\" and a "
           "source, path or problem_id.\n";
  }
  out +=
      "- Note: cleared problems are not listed again while they stay the same (kept in "
      "`.minds/problems-cleared.yaml`; remove an entry to list it again).\n";
  if (!cleared.empty()) out += "\n## Cleared Problems\n";
  for (std::size_t i = 0; i < cleared.size() && i < kClearedIdsShown; ++i) out += "- " + cleared[i] + "\n";
  if (cleared.size() > kClearedIdsShown) {
    out += "(omitted " + std::to_string(cleared.size() - kClearedIdsShown) + " additional cleared problem id(s))\n";
  }
  if (!kept.empty()) out += "\n## Not Cleared (they keep a member from running until fixed)\n";
  for (const auto& id : kept) out += "- " + id + "\n";
  return out;
}

tool_outcome clear_problems(const json::object& args, const tool_context& ctx) {
  auto filter = read_clear_filter(args);
  if (!filter) return tool_outcome{false, "Error: " + filter.err().message};
  if (filter->status == "resolved") return tool_outcome{true, clear_answer(*filter, {}, {})};
  auto team = config::load_dominds_workspace(ctx.workspace);
  if (!team) return tool_outcome{false, "Error: the team does not load, so nothing is cleared: " + team.err().message};
  auto existing = config::read_cleared_problems(ctx.workspace);
  if (!existing) return tool_outcome{false, "Error: " + existing.err().message};
  // Entries whose problem is gone are dropped, so a problem fixed and later back is listed again.
  std::vector<config::cleared_problem> entries;
  std::vector<std::string> cleared;
  std::vector<std::string> kept;
  for (const auto& found : team->problems) {
    const auto entry = config::cleared_entry(found, ctx.workspace);
    const bool before = std::find(existing->begin(), existing->end(), entry) != existing->end();
    const bool now = filter->matches(found);
    if (now && found.blocks_member) kept.push_back(problem_id(found));
    if (found.blocks_member || (!before && !now)) continue;
    if (now && !before) cleared.push_back(problem_id(found));
    if (std::find(entries.begin(), entries.end(), entry) == entries.end()) entries.push_back(entry);
  }
  if (auto written = config::write_cleared_problems(ctx.workspace, entries); !written) {
    return tool_outcome{false, "Error: " + written.err().message};
  }
  return tool_outcome{true, clear_answer(*filter, cleared, kept)};
}

}  // namespace

void register_minds_admin_tools(tool_registry& registry) {
  registry.add(std::make_unique<function_tool>(
      dominds_detail::dominds_spec_or_note("team_mgmt_validate_priming_scripts"),
      [](const json::object&, const tool_context& ctx) { return validate_priming(ctx); },
      function_tool::effects::none));
  registry.add(std::make_unique<function_tool>(dominds_detail::dominds_spec_or_note("team_mgmt_clear_problems"),
                                               clear_problems));
}

}  // namespace parley::tools::team_mgmt_detail

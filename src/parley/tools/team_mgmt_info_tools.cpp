// Dominds' team_mgmt reports, from what loading the workspace finds: the providers (Parley's
// built-in catalogue with `.minds/llm.yaml` over it, config/dominds_llm.hpp), their models, the
// MCP configuration and the Problems. Answers in Dominds' Markdown shapes ("# LLM Providers",
// "# mcp.yaml Validation Passed", "# Problems Query"). Parley keeps no Problems history: every
// problem listed is active, recomputed by this load, less those team_mgmt_clear_problems cleared
// (config/cleared_problems.hpp).
#include <boost/json/object.hpp>

#include <algorithm>
#include <cstdlib>

#include "parley/config/cleared_problems.hpp"
#include "parley/config/dominds_llm.hpp"
#include "parley/config/team.hpp"
#include "parley/core/json_fields.hpp"
#include "parley/tools/dominds_tool_support.hpp"
#include "parley/tools/function_tool.hpp"
#include "parley/tools/team_mgmt_support.hpp"

namespace parley::tools::team_mgmt_detail {
namespace {

namespace json = boost::json;
namespace fs = std::filesystem;

constexpr std::int64_t kTeamMgmtDefaultMaxModels = 30;
constexpr std::int64_t kTeamMgmtDefaultMaxProblems = 50;

// Dominds' wildcard: `*` any run of characters, `?` one, the rest literal; the whole value.
bool wildcard_match(std::string_view value, std::string_view pattern) {
  if (pattern.empty()) return value.empty();
  if (pattern.front() == '*') {
    for (std::size_t skip = 0; skip <= value.size(); ++skip) {
      if (wildcard_match(value.substr(skip), pattern.substr(1))) return true;
    }
    return false;
  }
  if (value.empty()) return false;
  if (pattern.front() != '?' && pattern.front() != value.front()) return false;
  return wildcard_match(value.substr(1), pattern.substr(1));
}

// Whether the key variable is set, never its value (it is a secret).
std::string key_status(const config::provider_entry& entry) {
  const std::string& env = entry.config.api_key_env;
  if (env.empty()) return "apiKeyEnvVar: (none)";
  const char* value = std::getenv(env.c_str());
  return "apiKeyEnvVar: " + env + (value != nullptr && *value != '\0' ? " (configured)" : " (NOT set)");
}

std::string model_ids(std::vector<std::string> ids, std::int64_t max) {
  if (ids.empty()) return "(none)";
  std::sort(ids.begin(), ids.end());
  std::string out;
  for (std::size_t i = 0; i < ids.size() && static_cast<std::int64_t>(i) < max; ++i) out += (i ? ", " : "") + ids[i];
  return out + (static_cast<std::int64_t>(ids.size()) > max ? ", ..." : "");
}

result<config::detail::dominds_llm> load_llm(const tool_context& ctx) {
  return config::detail::load_dominds_llm(ctx.workspace / ".minds" / "llm.yaml");
}

bool from_workspace(const config::provider_entry& entry) { return entry.origin != "built-in"; }

tool_outcome list_providers(const json::object& args, const tool_context& ctx) {
  json_fields in(args);
  const std::string pattern = in.optional_string("provider_pattern").value_or("*");
  const bool builtin = in.optional_boolean("include_builtin").value_or(true);
  const bool rtws = in.optional_boolean("include_rtws").value_or(true);
  const bool show_models = in.optional_boolean("show_models").value_or(true);
  const std::int64_t max_models = in.optional_integer("max_models").value_or(kTeamMgmtDefaultMaxModels);
  if (!in.ok()) return tool_outcome{false, "Error: " + in.message()};
  if (max_models <= 0) return tool_outcome{false, "Error: max_models: expected a positive integer"};
  auto llm = load_llm(ctx);
  if (!llm) return tool_outcome{false, "Error: " + llm.err().message};
  std::string out =
      "# LLM Providers\nNote: rtws (runtime workspace) `.minds/llm.yaml` overrides built-in defaults "
      "when provider keys match.\n";
  for (const bool workspace_part : {true, false}) {
    if (workspace_part ? !rtws : !builtin) continue;
    out += workspace_part ? "\n## rtws (.minds/llm.yaml)\n" : "\n## Built-in (Parley's provider catalogue)\n";
    if (workspace_part && !llm->found) out += "(`.minds/llm.yaml` not found; showing built-in defaults only)\n";
    std::string items;
    for (const auto& entry : llm->providers) {
      if (from_workspace(entry) != workspace_part || !wildcard_match(entry.config.id, pattern)) continue;
      items += "- `" + entry.config.id + "` (apiType: `" + entry.api_type + "`) — " + key_status(entry) + " — models(" +
               std::to_string(entry.config.models.size()) + ")";
      if (show_models) items += ": " + model_ids(entry.config.models, max_models);
      if (!entry.unsupported.empty()) items += " — Parley cannot use it: " + entry.unsupported;
      items += "\n";
    }
    out += items.empty() ? "(empty)\n" : items;
  }
  return tool_outcome{true, out};
}

tool_outcome list_models(const json::object& args, const tool_context& ctx) {
  json_fields in(args);
  const std::string source = in.optional_string("source").value_or("effective");
  const std::string provider_pattern = in.optional_string("provider_pattern").value_or("*");
  const std::string model_pattern = in.optional_string("model_pattern").value_or("*");
  (void)in.optional_boolean("include_param_options");  // Parley's model params are in docs/team-yaml.md
  const std::int64_t max_models = in.optional_integer("max_models").value_or(kTeamMgmtDefaultMaxModels * 4);
  const std::int64_t per_provider = in.optional_integer("max_models_per_provider").value_or(kTeamMgmtDefaultMaxModels);
  (void)in.optional_integer("max_params");
  if (!in.ok()) return tool_outcome{false, "Error: " + in.message()};
  if (source != "effective" && source != "builtin" && source != "rtws") {
    return tool_outcome{false, "Error: source: expected effective, builtin or rtws, got '" + source + "'"};
  }
  auto llm = load_llm(ctx);
  if (!llm) return tool_outcome{false, "Error: " + llm.err().message};
  std::string out = "# Models\n- source: `" + source + "`\n";
  std::int64_t shown = 0;
  for (const auto& entry : llm->providers) {
    if (source == "builtin" && from_workspace(entry)) continue;
    if (source == "rtws" && !from_workspace(entry)) continue;
    if (!wildcard_match(entry.config.id, provider_pattern)) continue;
    std::string rows;
    std::int64_t in_provider = 0;
    for (const auto& model : entry.config.models) {
      if (!wildcard_match(model, model_pattern) || in_provider >= per_provider || shown >= max_models) continue;
      ++in_provider;
      ++shown;
      rows += "- `" + model + "`";
      const auto detail = std::find_if(entry.config.model_details.begin(), entry.config.model_details.end(),
                                       [&](const config::model_info& info) { return info.id == model; });
      if (detail != entry.config.model_details.end() && detail->context_window > 0) {
        rows += " — context_length: " + std::to_string(detail->context_window);
      }
      rows += "\n";
    }
    if (!rows.empty()) out += "\n## `" + entry.config.id + "` (apiType: `" + entry.api_type + "`)\n" + rows;
  }
  if (shown == 0) out += "\nNo matching models.\n";
  return tool_outcome{true, out};
}

tool_outcome validate_mcp(const tool_context& ctx) {
  const fs::path file = ctx.workspace / ".minds" / "mcp.yaml";
  std::error_code ec;
  if (!fs::exists(file, ec)) {
    return tool_outcome{true,
                        "# mcp.yaml Validation Passed\n- `.minds/mcp.yaml`: ✅ not found (treated as empty config)\n"};
  }
  auto read = config::read_mcp_file(file);
  if (!read) {
    return tool_outcome{false, "# mcp.yaml Validation Failed\n- `.minds/mcp.yaml`: ❌ YAML/structure parse failed\n\n" +
                                   read.err().message + "\n"};
  }
  const std::size_t declared = read->servers.size() + read->disabled.size() + read->refused.size();
  if (read->problems.empty()) {
    return tool_outcome{true, "# mcp.yaml Validation Passed\n- `.minds/mcp.yaml`: ✅ no issues detected (" +
                                  std::to_string(declared) + " declared server(s))\n"};
  }
  std::string out = "# mcp.yaml Validation Failed\n- `.minds/mcp.yaml`: ❌ " + std::to_string(read->problems.size()) +
                    " issue(s) detected (each server named is left out; the others load)\n\n## Active Problems\n";
  for (const auto& line : read->problems) out += "- [error] " + line + "\n";
  return tool_outcome{false, out};
}

tool_outcome list_problems(const json::object& args, const tool_context& ctx) {
  json_fields in(args);
  const auto source = in.optional_string("source");
  const auto path = in.optional_string("path");
  const auto problem_id = in.optional_string("problem_id");
  const std::string status = in.optional_string("status").value_or("active");
  const std::int64_t max_items = in.optional_integer("max_items").value_or(kTeamMgmtDefaultMaxProblems);
  if (!in.ok()) return tool_outcome{false, "Error: " + in.message()};
  if (max_items <= 0) return tool_outcome{false, "Error: max_items: expected a positive integer"};
  auto team = config::load_dominds_workspace(ctx.workspace);
  std::vector<config::problem> problems;
  std::size_t cleared = 0;
  if (team) {
    problems = team->problems;
    cleared = config::hide_cleared_problems(problems, ctx.workspace);  // team_mgmt_clear_problems
  } else {
    problems.push_back(config::problem_from_message(team.err().message));  // the team does not load at all
  }
  std::vector<std::string> rows;
  std::size_t matched = 0;
  for (const auto& found : problems) {
    const std::string id = team_mgmt_detail::problem_id(found);
    if (source && problem_source(found) != *source) continue;
    if (path && found.file.find(minds_relative(*path)) == std::string::npos) continue;
    if (problem_id && id != *problem_id) continue;
    ++matched;
    if (status == "resolved" || static_cast<std::int64_t>(rows.size()) >= max_items) continue;
    std::string row = "- [" + std::string(found.blocks_member ? "error" : "warning") + "] " + id + ": " + found.why;
    if (!found.file.empty()) row += "\n  file: " + found.file;
    rows.push_back(row + "\n");
  }
  std::string out = "# Problems Query\n- " + std::to_string(matched) + " problem(s) matched; returning " +
                    std::to_string(rows.size()) + "\n- active: " + std::to_string(matched) +
                    ", resolved history: 0, cleared (not listed until they change): " + std::to_string(cleared) +
                    "\n- filters: status=`" + status + "`\n";
  if (rows.empty()) return tool_outcome{true, out + "No matching problems.\n"};
  out += "\n## Active Problems\n";
  for (const auto& row : rows) out += row;
  return tool_outcome{true, out};
}

}  // namespace

void register_minds_info_tools(tool_registry& registry) {
  const auto none = function_tool::effects::none;
  registry.add(std::make_unique<function_tool>(dominds_detail::dominds_spec_or_note("team_mgmt_list_providers"),
                                               list_providers, none));
  registry.add(std::make_unique<function_tool>(dominds_detail::dominds_spec_or_note("team_mgmt_list_models"),
                                               list_models, none));
  registry.add(std::make_unique<function_tool>(
      dominds_detail::dominds_spec_or_note("team_mgmt_validate_mcp_cfg"),
      [](const json::object&, const tool_context& ctx) { return validate_mcp(ctx); }, none));
  registry.add(std::make_unique<function_tool>(dominds_detail::dominds_spec_or_note("team_mgmt_list_problems"),
                                               list_problems, none));
}

}  // namespace parley::tools::team_mgmt_detail

// load_dominds_workspace: a Dominds workspace read as it is — `.minds/team.yaml` (members and
// member_defaults), `.minds/llm.yaml` (providers, over Parley's built-in catalogue), the minds files
// `.minds/team/<id>/{persona,knowhow,pitfalls}[.<lang>].md`, `.minds/env[.<lang>].md` and the skills
// of `.minds/skills/` (skills_reader.hpp), and the MCP servers of `.minds/mcp.yaml` (mcp_config.hpp).
#include <algorithm>
#include <cstdlib>
#include <exception>
#include <optional>
#include <system_error>
#include <utility>

#include "parley/config/access_reader.hpp"
#include "parley/config/dominds_llm.hpp"
#include "parley/config/mcp_reader.hpp"
#include "parley/config/priming_scripts.hpp"
#include "parley/config/shell_reader.hpp"
#include "parley/config/skills_reader.hpp"
#include "parley/config/team.hpp"
#include "parley/config/team_rules.hpp"
#include "parley/config/yaml_reader.hpp"

namespace parley::config {
namespace {

using detail::map_reader;

// `shell` is Parley's (docs/team-yaml.md "Dominds workspaces"): Dominds has no sandbox or allowlist.
const std::vector<std::string> kTopKeys{"member_defaults", "default_responder", "shell_specialists", "members",
                                        "shell"};
// Every member key Dominds accepts (team.ts TEAM_YAML_MEMBER_KEYS). Parley reads the shared ones
// (see read_shared_member_fields, which takes the gofor/nogo routing cards too) and the access
// rules (access_reader.hpp), and ignores the rest: FBR settings, icons — none of which widens
// what a member may do.
const std::vector<std::string> kMemberKeys{
    "name", "from", "use", "import", "provider", "model", "gofor", "nogo", "toolsets", "tools", "model_params",
    "fbr-effort", "fbr_effort", "fbr_model_params", "diligence-push-max", "diligence_push_max", "read_dirs",
    "write_dirs", "no_read_dirs", "no_write_dirs", "read_file_ext_names", "write_file_ext_names",
    "no_read_file_ext_names", "no_write_file_ext_names", "icon", "streaming", "hidden",
    // Parley's own keys, where Dominds has none (docs/team-yaml.md).
    "max_tool_rounds", "shell"};

// Dominds' defaults (dist/docs/diligence-push.md: "if missing, diligence-push-max defaults to 99").
// Dominds bounds no drive by tool rounds; Parley keeps a backstop against a model that never stops,
// high enough that no real task meets it, settable with `max_tool_rounds`.
constexpr std::int64_t kDomindsDiligencePushMax = 99;
constexpr std::int64_t kDomindsMaxToolRounds = 1000;

// Everything member reading needs besides the member itself.
struct workspace_context {
  std::filesystem::path team_dir;  // .minds/team
  std::string language;            // the work language: which minds files are read
  const detail::dominds_llm& llm;
  const map_reader* defaults = nullptr;      // member_defaults, when given
  member_config base;                        // member_defaults applied to an empty member
  detail::access_reader access;              // member_defaults' access rules
  std::vector<problem>* problems = nullptr;  // what the members ask for that Parley cannot honour
};

// Dominds' selection (minds/load.ts): `<kind>.<work language>.md`, then `<kind>.md`; variants in
// other languages are never used. Neither file: `fallback`.
result<std::string> read_minds_file(const std::filesystem::path& dir, std::string_view kind, std::string_view language,
                                    std::string_view fallback) {
  std::error_code ec;
  for (const std::string& name : {std::string(kind) + "." + std::string(language) + ".md", std::string(kind) + ".md"}) {
    const std::filesystem::path path = dir / name;
    if (!std::filesystem::is_regular_file(path, ec)) continue;
    return detail::read_text_file(path);  // the first file found wins, even blank, as in Dominds
  }
  return std::string(fallback);
}

// Dominds' work language when none is chosen: the OS locale (LANG), "zh" for Chinese, else "en" —
// the two languages Parley writes its own prompts in.
std::string work_language() {
  const char* lang = std::getenv("LANG");
  const std::string_view value = lang == nullptr ? std::string_view{} : std::string_view(lang);
  return value.starts_with("zh") ? "zh" : "en";
}

// Dominds' persona when a member has no persona file (minds-i18n defaultPersonaText).
std::string_view default_persona(std::string_view language) {
  return language == "zh" ? "你是一个乐于助人的助手。" : "You are a helpful assistant.";
}

result<void> read_minds(const std::filesystem::path& member_dir, std::string_view language, member_config& member) {
  auto persona = read_minds_file(member_dir, "persona", language, default_persona(language));
  if (!persona) return std::move(persona).err();
  member.persona = std::move(persona).value();
  auto knowhow = read_minds_file(member_dir, "knowhow", language, {});
  if (!knowhow) return std::move(knowhow).err();
  member.knowhow = std::move(knowhow).value();
  auto pitfalls = read_minds_file(member_dir, "pitfalls", language, {});
  if (!pitfalls) return std::move(pitfalls).err();
  member.pitfalls = std::move(pitfalls).value();
  return ok();
}

// Dominds' `shell_specialists`: a single id, a list of ids, or null (none). Only the shape is
// checked here; the ids are checked against the members once they are read.
result<void> check_shell_specialists(const map_reader& root) {
  const map_reader::entry* item = root.find("shell_specialists");
  if (item == nullptr || item->value.IsScalar()) return ok();
  std::vector<std::string> ids;
  if (item->value.IsSequence()) return root.read("shell_specialists", ids);
  return detail::type_error(root, *item, "a member id or a list of member ids");
}

// Dominds' shell rule (team.ts enforceShellSpecialistsPolicy, minds/load.ts): only the members
// `shell_specialists` names keep shell tools; hidden members are exempt, as Dominds exempts its
// system-managed ones; absent or null, no visible member keeps them. Dominds reports a listed id
// that is no member as an error-level problem, and so does Parley (the id is left out). The tools
// themselves are withheld by the engine (engine/member_toolsets.hpp), which knows what `os` or `*`
// stand for.
result<void> apply_shell_specialists(const map_reader& root, team_config& team) {
  const map_reader::entry* item = root.find("shell_specialists");
  std::vector<YAML::Node> nodes;
  if (item != nullptr && item->value.IsScalar()) nodes.push_back(item->value);
  if (item != nullptr && item->value.IsSequence()) {
    for (const auto& node : item->value) nodes.push_back(node);
  }
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const std::string id = nodes[i].Scalar();
    const std::string at =
        item->value.IsSequence() ? "shell_specialists[" + std::to_string(i) + "]" : "shell_specialists";
    if (team.find_member(id) == nullptr) {
      team.problems.push_back(problem_from_message(
          detail::yaml_error(root.file(), nodes[i].Mark(), at,
                             detail::unknown_name_problem("member", id, team.member_ids()) +
                                 " (shell_specialists names the members allowed shell tools): left out")
              .message));
      continue;
    }
    if (std::find(team.shell_specialists.begin(), team.shell_specialists.end(), id) == team.shell_specialists.end()) {
      team.shell_specialists.push_back(id);
    }
  }
  for (auto& member : team.members) {
    const auto& listed = team.shell_specialists;
    member.shell_specialist = member.hidden || std::find(listed.begin(), listed.end(), member.id) != listed.end();
  }
  return ok();
}

// Dominds' `fbr-effort` (or `fbr_effort`): FBR intensity, 0 turning Fresh Boots Reasoning off for
// the member. Parley's FBR has no intensity, but 0 is a restriction and is kept: the member is not
// offered freshBootsReasoning. The member's own key wins over member_defaults'.
result<void> apply_fbr_effort(const map_reader& map, const workspace_context& context, member_config& member) {
  for (const map_reader* holder : {&map, context.defaults}) {
    if (holder == nullptr) continue;
    for (const std::string_view key : {"fbr-effort", "fbr_effort"}) {
      const map_reader::entry* item = holder->find(key);
      if (item == nullptr) continue;
      if (!item->value.IsScalar() || item->value.Scalar().find_first_not_of("0123456789") != std::string::npos ||
          item->value.Scalar().empty()) {
        return detail::type_error(*holder, *item, "a whole number >= 0 (0 turns Fresh Boots Reasoning off)");
      }
      if (item->value.Scalar().find_first_not_of('0') == std::string::npos) {
        member.dialog_tools = std::vector<std::string>{
            "tellask",         "tellaskSessionless", "tellaskBack", "askHuman",       "add_reminder",
            "update_reminder", "delete_reminder",    "clear_mind",  "change_mind",    "recall_taskdoc",
            "do_mind",         "mind_more",          "never_mind",  "set_dialog_goal"};
      }
      return ok();
    }
  }
  return ok();
}

// Dominds' cross-app member reference (`from` + `use` or `import`) takes the member's keys from an
// enabled Dominds app, its own keys over them. Parley has no apps, so it is what Dominds does for an
// app that is not enabled: a Problem, and the member loaded from its own keys. `from` alone is a
// no-op in Dominds too. `who` is the member's id, empty for member_defaults.
void report_app_members(const map_reader& map, const std::string& who, std::vector<problem>& problems) {
  const map_reader::entry* use = map.find("use");
  const map_reader::entry* import = map.find("import");
  if (use == nullptr && import == nullptr) return;
  const map_reader::entry& item = use != nullptr ? *use : *import;
  std::string why;
  if (use != nullptr && import != nullptr) {
    why = "cannot specify both 'use' and 'import'; remove one";
  } else if (!map.has("from")) {
    why = "'" + item.key + "' is a cross-app member reference and needs 'from: <app id>'";
  } else {
    why = "'" + item.key + "' takes member '" + (item.value.IsScalar() ? item.value.Scalar() : std::string("?")) +
          "' from Dominds app '" + (map.find("from")->value.IsScalar() ? map.find("from")->value.Scalar() : "?") +
          "', and Parley has no Dominds apps (as Dominds with the app not enabled)";
  }
  why += who.empty() ? ": ignored" : ": member '" + who + "' is loaded from its own keys";
  problems.push_back(problem_from_message(map.fail_at_key(item, why).message, who));
}

result<void> read_defaults(const map_reader& root, std::optional<map_reader>& defaults, workspace_context& context) {
  auto map = root.child("member_defaults");
  if (!map) return std::move(map).err();
  defaults = std::move(map).value();
  if (!defaults) return ok();
  PARLEY_TRY(defaults->check_keys(kMemberKeys));
  report_app_members(*defaults, "", *context.problems);
  PARLEY_TRY(context.access.read(*defaults));
  PARLEY_TRY(defaults->read_positive("max_tool_rounds", context.base.max_tool_rounds));
  PARLEY_TRY(detail::read_shell(*defaults, context.base.shell));
  return detail::read_shared_member_fields(*defaults, context.base);
}

// The mapping that decided `key` for a member: its own, else member_defaults.
const map_reader& holder_of(const map_reader& map, const workspace_context& context, std::string_view key) {
  if (map.has(key) || context.defaults == nullptr || !context.defaults->has(key)) return map;
  return *context.defaults;
}

// Appended to the problem of a member whose provider Parley cannot use.
std::string blocked_member_note(const std::string& member_id) {
  return "; member '" + member_id + "' cannot be driven until it names a provider Parley can use";
}

// The provider should be one Parley can use. One it cannot (unknown, or an apiType it does not
// speak, such as codex until a provider for it is registered in the catalogue) is a problem that
// blocks this member alone: it is loaded, and fails with the problem when it is driven. Returns
// false then.
bool check_provider(const map_reader& map, const workspace_context& context, const member_config& member) {
  const map_reader& holder = holder_of(map, context, "provider");
  const provider_entry* entry = context.llm.find(member.provider);
  const map_reader::entry* item = holder.find("provider");
  std::string why;
  if (entry == nullptr) {
    const std::string note = context.llm.found ? "" : " (not built in, and .minds/llm.yaml not found)";
    why = detail::unknown_name_problem("provider", member.provider, context.llm.ids()) + note;
  } else if (!entry->unsupported.empty()) {
    why = "provider '" + member.provider + "' (apiType '" + entry->api_type + "', defined at " + entry->origin +
          ") cannot be used: " + entry->unsupported;
  } else {
    return true;
  }
  problem found = problem_from_message(holder.fail_at_value(*item, why).message, member.id);
  found.why += blocked_member_note(member.id);
  found.blocks_member = true;
  context.problems->push_back(std::move(found));
  return false;
}

result<void> choose_model(const map_reader& map, const workspace_context& context, member_config& member) {
  const provider_config& provider = context.llm.find(member.provider)->config;
  if (member.model.empty()) {
    if (!provider.models.empty()) {
      member.model = provider.models.front();
      return ok();
    }
    return map.missing("model",
                       "a model name here or in member_defaults; provider '" + member.provider + "' lists no models");
  }
  if (provider.models.empty() ||
      std::find(provider.models.begin(), provider.models.end(), member.model) != provider.models.end()) {
    return ok();
  }
  const map_reader& holder = holder_of(map, context, "model");
  return holder.fail_at_value(*holder.find("model"),
                              detail::unknown_name_problem("model", member.model, provider.models) +
                                  " (the models of provider '" + member.provider + "')");
}

result<member_config> read_member(const map_reader& map, const std::string& id, const workspace_context& context) {
  PARLEY_TRY(map.check_keys(kMemberKeys));
  report_app_members(map, id, *context.problems);
  member_config member = context.base;
  member.id = id;
  // A display name in member_defaults would give every member the same name; the id is better.
  member.name = id;
  PARLEY_TRY(detail::read_shared_member_fields(map, member));
  if (member.provider.empty()) return map.missing("provider", "a provider id here or in member_defaults");
  PARLEY_TRY(map.read_positive("max_tool_rounds", member.max_tool_rounds));
  PARLEY_TRY(detail::read_shell(map, member.shell));
  const bool usable = check_provider(map, context, member);
  PARLEY_TRY(apply_fbr_effort(map, context, member));
  if (usable) PARLEY_TRY(choose_model(map, context, member));
  detail::access_reader access = context.access;
  PARLEY_TRY(access.read(map));
  auto rules = access.finish();
  if (!rules) return std::move(rules).err();
  member.access = std::move(rules).value();
  PARLEY_TRY(read_minds(context.team_dir / id, context.language, member));
  return member;
}

result<void> read_members(const map_reader& root, const workspace_context& context, team_config& team) {
  auto members = root.child("members");
  if (!members) return std::move(members).err();
  if (!members->has_value()) return root.missing("members", "a mapping of member id to member");
  const map_reader& table = **members;
  if (table.entries().empty()) {
    return root.fail_at_value(*root.find("members"), "no members defined (expected at least one member)");
  }
  PARLEY_TRY(table.check_unique("member id"));
  for (const auto& item : table.entries()) {
    if (!detail::is_valid_id(item.key))
      return table.fail_at_key(item, detail::invalid_id_problem("member id", item.key));
    auto map = table.child_of(item, table.path_of(item.key));
    if (!map) return std::move(map).err();
    auto member = read_member(*map, item.key, context);
    if (!member) return std::move(member).err();
    team.members.push_back(std::move(member).value());
  }
  return ok();
}

// The providers the engine builds: every usable one llm.yaml defines, and the built-in ones a member
// names. Each unusable llm.yaml provider no member names is said once, as a problem. A provider a
// member names that Parley cannot use (its problem was said by check_provider) is there with kind
// none and why: the member fails with it when driven, the others run.
void use_providers(const detail::dominds_llm& llm, team_config& team) {
  for (const auto& entry : llm.providers) {
    const bool named = std::any_of(team.members.begin(), team.members.end(),
                                   [&](const member_config& member) { return member.provider == entry.config.id; });
    const bool from_file = entry.origin != "built-in";
    if (!entry.unsupported.empty()) {
      if (from_file && !named) {
        team.problems.push_back(problem_from_message(entry.origin + ": providers." + entry.config.id +
                                                     ": skipped, not usable by Parley: " + entry.unsupported));
      }
      continue;
    }
    if (from_file || named) team.providers.push_back(entry.config);
  }
  for (const auto& member : team.members) {
    if (team.find_provider(member.provider) != nullptr) continue;
    provider_config unavailable;
    unavailable.id = member.provider;
    const auto blocking = std::find_if(team.problems.begin(), team.problems.end(),
                                       [&](const problem& p) { return p.blocks_member && p.member == member.id; });
    // The problem without the member's name: other members may name the same provider.
    std::string why =
        blocking == team.problems.end() ? "provider '" + member.provider + "' cannot be used" : blocking->text();
    if (why.ends_with(blocked_member_note(member.id))) why.resize(why.size() - blocked_member_note(member.id).size());
    unavailable.unavailable = std::move(why);
    team.providers.push_back(std::move(unavailable));
  }
  team.provider_entries = llm.providers;
}

// Dominds' fallback when default_responder is not given: the first member that is not hidden.
std::string first_visible_member(const team_config& team) {
  for (const auto& member : team.members) {
    if (!member.hidden) return member.id;
  }
  return team.members.front().id;
}

// Dominds always adds two hidden "shadow" members, fuxi (the team manager, with team_mgmt) and
// pangu, with personas built into Dominds; its own team template names fuxi as default_responder.
// Parley has neither, so naming one that team.yaml does not define falls back to the first
// visible member, with a notice, rather than refusing a workspace Dominds accepts.
result<void> read_default_responder(const map_reader& root, team_config& team) {
  const map_reader::entry* item = root.find("default_responder");
  if (item != nullptr && item->value.IsScalar()) {
    const std::string id = item->value.Scalar();
    if ((id == "fuxi" || id == "pangu") && team.find_member(id) == nullptr) {
      team.problems.push_back(problem_from_message(
          root.file() + ":" + detail::format_position(item->value.Mark()) + ": default_responder: '" + id +
          "' is a Dominds shadow member, which Parley does not have; the default member is the first visible one "
          "instead"));
      return ok();
    }
  }
  return detail::read_default_member(root, "default_responder", team);
}

// `.minds/mcp.yaml`, as Dominds keeps going with it: a server whose entry is wrong is refused alone,
// a file refused whole leaves the team without MCP servers; either is a notice, never a failed
// load. A missing file means no MCP servers, silently.
void read_workspace_mcp(team_config& team) {
  auto config = read_mcp_file(team.base_dir / ".minds" / "mcp.yaml");
  if (!config) {
    team.problems.push_back(
        problem_from_message(config.err().message + " (the whole file is refused: no MCP server is used)"));
    return;
  }
  team.mcp = std::move(config).value();
  detail::add_mcp_problems(team.mcp, team.problems);
}

result<team_config> load(const std::filesystem::path& dir) {
  std::error_code ec;
  team_config team;
  team.base_dir = std::filesystem::absolute(dir, ec).lexically_normal();
  if (ec) return make_error(errc::config_error, dir.string() + ": cannot resolve path: " + ec.message());
  const std::filesystem::path minds = dir / ".minds";
  const std::filesystem::path team_file = minds / "team.yaml";
  if (!std::filesystem::is_regular_file(team_file, ec)) {
    return make_error(errc::config_error,
                      dir.string() + ": not a Dominds workspace (" + team_file.string() + " not found)");
  }
  team.source = team.base_dir / ".minds" / "team.yaml";
  team.workspace = team.base_dir;
  team.lenient = true;

  auto document = detail::load_yaml_file(team_file);
  if (!document) return std::move(document).err();
  auto root = map_reader::open(team_file.string(), *document, document->Mark(), {});
  if (!root) return std::move(root).err();
  PARLEY_TRY(root->check_keys(kTopKeys));
  PARLEY_TRY(check_shell_specialists(*root));
  auto llm = detail::load_dominds_llm(minds / "llm.yaml");
  if (!llm) return std::move(llm).err();

  std::optional<map_reader> defaults;
  team.language = work_language();
  auto environment = read_minds_file(minds, "env", team.language, {});
  if (!environment) return std::move(environment).err();
  team.environment = std::move(environment).value();
  workspace_context context{minds / "team", team.language, *llm};
  context.problems = &team.problems;
  context.base.diligence_push_max = kDomindsDiligencePushMax;
  context.base.max_tool_rounds = kDomindsMaxToolRounds;
  PARLEY_TRY(detail::read_shell(*root, context.base.shell));
  PARLEY_TRY(read_defaults(*root, defaults, context));
  context.defaults = defaults ? &*defaults : nullptr;
  PARLEY_TRY(read_members(*root, context, team));
  auto skills = detail::read_dominds_skills(team.workspace, team.member_ids(), team.language);
  if (!skills) return std::move(skills).err();
  team.skills = std::move(*skills);
  use_providers(*llm, team);
  PARLEY_TRY(apply_shell_specialists(*root, team));
  PARLEY_TRY(read_default_responder(*root, team));
  if (team.default_member.empty()) team.default_member = first_visible_member(team);
  read_workspace_mcp(team);
  // Startup scripts Parley does not replay: said, never refused (priming_scripts.hpp).
  for (auto& found : priming_problems(team.workspace)) team.problems.push_back(std::move(found));
  return team;
}

}  // namespace

result<team_config> load_dominds_workspace(const std::filesystem::path& dir) {
  // yaml-cpp reports misuse by throwing; a throw that slips past the readers must not leave the module.
  try {
    return load(dir);
  } catch (const YAML::Exception& e) {
    return detail::yaml_error((dir / ".minds").string(), e.mark, {}, e.msg);
  } catch (const std::exception& e) {
    return make_error(errc::internal, dir.string() + ": " + e.what());
  }
}

}  // namespace parley::config

// load_team_file: Parley's own team.yaml (format in docs/team-yaml.md).
#include <algorithm>
#include <exception>
#include <system_error>
#include <utility>

#include "parley/config/access_reader.hpp"
#include "parley/config/mcp_reader.hpp"
#include "parley/config/records_reader.hpp"
#include "parley/config/shell_reader.hpp"
#include "parley/config/team.hpp"
#include "parley/config/team_rules.hpp"
#include "parley/config/yaml_reader.hpp"
#include "parley/config/yaml_value.hpp"

namespace parley::config {
namespace {

using detail::map_reader;

const std::vector<std::string> kTopKeys{"version",         "default_member", "workspace", "language", "limits",
                                        "providers",       "members",        "media",     "access",   "shell",
                                        "max_tool_rounds", "retention",      "records",   "mcp",      "titles"};
const std::vector<std::string> kMediaKeys{"captioner", "transcriber"};
const std::vector<std::string> kRetentionKeys{"archive_after_days"};
const std::vector<std::string> kLimitKeys{"max_message_bytes", "critical_context_rounds"};
const std::vector<std::string> kProviderKeys{"kind",         "script",   "base_url", "api_key_env",
                                             "base_url_env", "fallback", "models"};
// The access-rule keys (access_reader::keys) are member keys too.
const std::vector<std::string> kMemberKeys{"name",
                                           "persona",
                                           "persona_file",
                                           "provider",
                                           "model",
                                           "model_params",
                                           "tools",
                                           "toolsets",
                                           "max_tool_rounds",
                                           "max_tellask_depth",
                                           "streaming",
                                           "hidden",
                                           "tellask_syntax",
                                           "self_reflection",
                                           "vision",
                                           "audio",
                                           "dialog_tools",
                                           "gofor",
                                           "nogo",
                                           "kind",
                                           "flow",
                                           "shell",
                                           "diligence_push_max",
                                           "diligence-push-max"};
constexpr std::int64_t kSupportedVersion = 1;

// A member as found in either form of `members`, before its fields are read.
struct member_source {
  std::string id;
  YAML::Mark id_mark;
  map_reader map;
};

result<void> read_version(const map_reader& root) {
  const map_reader::entry* item = root.find("version");
  if (item == nullptr) return ok();
  const detail::typed_scalar value = detail::resolve_scalar(item->value);
  if (value.kind != detail::scalar_kind::integer || value.integer != kSupportedVersion) {
    return detail::type_error(root, *item, std::to_string(kSupportedVersion));
  }
  return ok();
}

// `media`: members that describe media sent without words; each must take that medium.
result<void> read_media(const map_reader& root, team_config& team) {
  auto map = root.child("media");
  if (!map) return std::move(map).err();
  if (!map->has_value()) return ok();
  const map_reader& media = **map;
  PARLEY_TRY(media.check_keys(kMediaKeys));
  for (const auto* key : {"captioner", "transcriber"}) {
    const map_reader::entry* item = media.find(key);
    if (item == nullptr) continue;
    std::string id;
    PARLEY_TRY(media.read_nonempty(key, id));
    const member_config* member = team.find_member(id);
    if (member == nullptr)
      return media.fail_at_value(*item, detail::unknown_name_problem("member", id, team.member_ids()));
    const bool captioner = std::string_view(key) == "captioner";
    if (captioner ? !member->vision : !member->audio) {
      return media.fail_at_value(
          *item, "member '" + id + "' does not take " + (captioner ? "images (vision: true)" : "audio (audio: true)"));
    }
    (captioner ? team.media.captioner : team.media.transcriber) = id;
  }
  return ok();
}

result<void> read_limits(const map_reader& root, limits_config& limits) {
  auto map = root.child("limits");
  if (!map) return std::move(map).err();
  if (!map->has_value()) return ok();
  PARLEY_TRY((*map)->check_keys(kLimitKeys));
  PARLEY_TRY((*map)->read_positive("max_message_bytes", limits.max_message_bytes));
  return (*map)->read_positive("critical_context_rounds", limits.critical_context_rounds);
}

result<void> read_retention(const map_reader& root, retention_config& retention) {
  auto map = root.child("retention");
  if (!map) return std::move(map).err();
  if (!map->has_value()) return ok();
  PARLEY_TRY((*map)->check_keys(kRetentionKeys));
  return (*map)->read_positive("archive_after_days", retention.archive_after_days);
}

// Keys that only make sense for some kinds are refused for the others rather than ignored.
result<void> check_kind_keys(const map_reader& map, const provider_config& provider) {
  const bool scripted = provider.kind == provider_kind::scripted || provider.kind == provider_kind::mock;
  for (const auto& item : map.entries()) {
    const bool http_only =
        item.key == "base_url" || item.key == "api_key_env" || item.key == "base_url_env" || item.key == "fallback";
    if ((scripted && http_only) || (!scripted && item.key == "script")) {
      return map.fail_at_key(
          item, "key '" + item.key + "' does not apply to kind '" + std::string(to_name(provider.kind)) + "'");
    }
  }
  return ok();
}

result<provider_config> read_provider(const map_reader& map, std::string id, const std::filesystem::path& base_dir) {
  PARLEY_TRY(map.check_keys(kProviderKeys));
  provider_config provider;
  provider.id = std::move(id);
  auto kind = map.require_nonempty("kind", "scripted, openai, anthropic, openai-responses, codex or mock");
  if (!kind) return std::move(kind).err();
  const auto parsed = from_name<provider_kind>(*kind);
  if (!parsed) {
    return map.fail_at_value(*map.find("kind"),
                             detail::unknown_name_problem("provider kind", *kind, all_names<provider_kind>()));
  }
  provider.kind = *parsed;
  PARLEY_TRY(check_kind_keys(map, provider));
  PARLEY_TRY(map.read_nonempty("base_url", provider.base_url));
  PARLEY_TRY(map.read_nonempty("api_key_env", provider.api_key_env));
  PARLEY_TRY(map.read_nonempty("base_url_env", provider.base_url_env));
  PARLEY_TRY(map.read_nonempty("fallback", provider.fallback));
  PARLEY_TRY(detail::read_models(map, provider, detail::model_keys::parley));
  if (provider.kind == provider_kind::scripted || provider.kind == provider_kind::mock) {
    auto script = detail::read_existing_path(map, "script", base_dir, provider.kind == provider_kind::mock);
    if (!script) return std::move(script).err();
    provider.script = std::move(script).value();
  }
  detail::apply_provider_defaults(provider);
  return provider;
}

// A fallback must name another provider; chains are allowed, cycles are not.
result<void> check_fallbacks(const map_reader& map, const std::vector<provider_config>& providers) {
  for (const auto& provider : providers) {
    std::vector<std::string> seen{provider.id};
    for (const provider_config* at = &provider; !at->fallback.empty();) {
      const auto next = std::find_if(providers.begin(), providers.end(),
                                     [&](const provider_config& p) { return p.id == at->fallback; });
      auto provider_map = map.child_of(*map.find(at->id), map.path_of(at->id));
      if (!provider_map) return std::move(provider_map).err();
      if (next == providers.end()) {
        return provider_map->fail_at_value(
            *provider_map->find("fallback"),
            detail::unknown_name_problem("provider", at->fallback, detail::provider_ids(providers)));
      }
      if (std::find(seen.begin(), seen.end(), next->id) != seen.end()) {
        return provider_map->fail_at_value(*provider_map->find("fallback"),
                                           "fallback providers form a cycle through '" + next->id + "'");
      }
      seen.push_back(next->id);
      at = &*next;
    }
  }
  return ok();
}

result<void> read_providers(const map_reader& root, team_config& team) {
  auto providers = root.child("providers");
  if (!providers) return std::move(providers).err();
  if (!providers->has_value()) return root.missing("providers", "a mapping of provider id to provider");
  const map_reader& map = **providers;
  PARLEY_TRY(map.check_unique("provider id"));
  for (const auto& item : map.entries()) {
    if (!detail::is_valid_id(item.key))
      return map.fail_at_key(item, detail::invalid_id_problem("provider id", item.key));
    auto provider_map = map.child_of(item, map.path_of(item.key));
    if (!provider_map) return std::move(provider_map).err();
    auto provider = read_provider(*provider_map, item.key, team.base_dir);
    if (!provider) return std::move(provider).err();
    team.providers.push_back(std::move(provider).value());
  }
  return check_fallbacks(map, team.providers);
}

result<void> read_persona(const map_reader& map, member_config& member, const std::filesystem::path& base_dir) {
  const map_reader::entry* file_item = map.find("persona_file");
  if (map.has("persona") && file_item != nullptr) {
    return map.fail_at_key(*file_item, "both 'persona' and 'persona_file' are given (expected exactly one)");
  }
  if (file_item == nullptr) {
    if (!map.has("persona")) return map.fail("missing required key 'persona' or 'persona_file' (expected exactly one)");
    return map.read("persona", member.persona);
  }
  auto path = detail::read_existing_path(map, "persona_file", base_dir);
  if (!path) return std::move(path).err();
  auto text = detail::read_text_file(*path);
  if (!text) return map.fail_at_value(*file_item, "cannot read file: " + path->string());
  member.persona = std::move(text).value();
  return ok();
}

// `access`: the team's default access rules, which a member's own keys replace key by key.
result<void> read_team_access(const map_reader& root, detail::access_reader& access) {
  auto map = root.child("access");
  if (!map) return std::move(map).err();
  if (!map->has_value()) return ok();
  PARLEY_TRY((*map)->check_keys(detail::access_reader::keys()));
  return access.read(**map);
}

// `kind: llm` (the default) or `kind: flow` with `flow: FOLDER` (seed 004's agents, docs/flows.md).
result<void> read_flow_kind(const map_reader& map, member_config& member, const std::filesystem::path& base_dir) {
  std::string kind(to_name(member.kind));
  PARLEY_TRY(map.read("kind", kind));
  const auto parsed = from_name<member_kind>(kind);
  if (!parsed) {
    return map.fail_at_value(*map.find("kind"), "unknown member kind '" + kind + "' (expected llm or flow)");
  }
  member.kind = *parsed;
  const auto* folder = map.find("flow");
  if (member.kind != member_kind::flow) {
    if (folder != nullptr) return map.fail_at_key(*folder, "key 'flow' applies to members of kind 'flow' only");
    return ok();
  }
  if (folder == nullptr) return map.missing("flow", "the folder of the flow agent (its [Business]Agent.yaml)");
  std::string relative;
  PARLEY_TRY(map.read("flow", relative));
  member.flow = base_dir / relative;
  std::error_code ec;
  if (!std::filesystem::is_directory(member.flow, ec)) {
    return map.fail_at_value(*folder, "flow folder " + member.flow.string() + " does not exist");
  }
  return ok();
}

result<member_config> read_member(const member_source& source, const team_config& team,
                                  const std::vector<std::string>& allowed_keys,
                                  const detail::access_reader& team_access, const access::shell_policy& team_shell,
                                  std::int64_t team_max_tool_rounds) {
  const map_reader& map = source.map;
  PARLEY_TRY(map.check_keys(allowed_keys));
  member_config member;
  member.id = source.id;
  member.name = source.id;
  PARLEY_TRY(detail::read_shared_member_fields(map, member));
  if (!map.has("provider")) return map.missing("provider", "the id of a provider");
  if (!map.has("model")) return map.missing("model", "a model name");
  PARLEY_TRY(detail::check_provider_reference(map, member, team.providers));
  PARLEY_TRY(read_flow_kind(map, member, team.base_dir));
  // A flow's prompts are its phases' prompt files; a persona is optional for it.
  if (member.kind != member_kind::flow || map.has("persona") || map.has("persona_file")) {
    PARLEY_TRY(read_persona(map, member, team.base_dir));
  }
  member.max_tool_rounds = team_max_tool_rounds;
  PARLEY_TRY(map.read_positive("max_tool_rounds", member.max_tool_rounds));
  PARLEY_TRY(map.read_positive("max_tellask_depth", member.max_tellask_depth));
  detail::access_reader access = team_access;
  PARLEY_TRY(access.read(map));
  auto rules = access.finish();
  if (!rules) return std::move(rules).err();
  member.access = std::move(rules).value();
  member.shell = team_shell;
  PARLEY_TRY(detail::read_shell(map, member.shell));
  return member;
}

// `members` as a mapping of id → member.
result<std::vector<member_source>> sources_from_map(const map_reader& members) {
  PARLEY_TRY(members.check_unique("member id"));
  std::vector<member_source> sources;
  for (const auto& item : members.entries()) {
    auto map = members.child_of(item, members.path_of(item.key));
    if (!map) return std::move(map).err();
    sources.push_back(member_source{item.key, item.key_node.Mark(), std::move(map).value()});
  }
  return sources;
}

// `members` as a list of mappings, each with an `id`.
result<std::vector<member_source>> sources_from_list(const std::string& file, const YAML::Node& list) {
  std::vector<member_source> sources;
  std::size_t index = 0;
  for (const auto& element : list) {
    const std::string path = "members[" + std::to_string(index++) + "]";
    auto unnamed = map_reader::open(file, element, element.Mark(), path);
    if (!unnamed) return std::move(unnamed).err();
    auto id = unnamed->require_nonempty("id", "the member id");
    if (!id) return std::move(id).err();
    // Once the id is known, messages name the member rather than its index.
    auto map = map_reader::open(file, element, element.Mark(), "members." + *id);
    if (!map) return std::move(map).err();
    sources.push_back(member_source{*id, unnamed->find("id")->value.Mark(), std::move(map).value()});
  }
  return sources;
}

result<void> check_member_ids(const std::string& file, const std::vector<member_source>& sources) {
  for (std::size_t i = 0; i < sources.size(); ++i) {
    const std::string path = "members." + sources[i].id;
    if (!detail::is_valid_id(sources[i].id)) {
      return detail::yaml_error(file, sources[i].id_mark, path, detail::invalid_id_problem("member id", sources[i].id));
    }
    for (std::size_t j = 0; j < i; ++j) {
      if (sources[j].id != sources[i].id) continue;
      return detail::yaml_error(file, sources[i].id_mark, path,
                                "duplicate member id '" + sources[i].id + "' (first defined at " +
                                    detail::format_position(sources[j].id_mark) + ")");
    }
  }
  return ok();
}

result<void> read_members(const map_reader& root, team_config& team) {
  detail::access_reader team_access;
  PARLEY_TRY(read_team_access(root, team_access));
  access::shell_policy team_shell;
  PARLEY_TRY(detail::read_shell(root, team_shell));
  std::int64_t team_max_tool_rounds = member_config{}.max_tool_rounds;
  PARLEY_TRY(root.read_positive("max_tool_rounds", team_max_tool_rounds));
  const map_reader::entry* item = root.find("members");
  if (item == nullptr) return root.missing("members", "a mapping of member id to member, or a list of members");
  const bool is_list = item->value.IsSequence();
  result<std::vector<member_source>> sources = std::vector<member_source>{};
  if (is_list) {
    sources = sources_from_list(root.file(), item->value);
  } else {
    auto map = root.child_of(*item, "members");
    if (!map) return std::move(map).err();
    sources = sources_from_map(*map);
  }
  if (!sources) return std::move(sources).err();
  if (sources->empty()) return root.fail_at_value(*item, "no members defined (expected at least one member)");
  PARLEY_TRY(check_member_ids(root.file(), *sources));
  std::vector<std::string> allowed = kMemberKeys;
  const auto& access_keys = detail::access_reader::keys();
  allowed.insert(allowed.end(), access_keys.begin(), access_keys.end());
  if (is_list) allowed.push_back("id");
  for (const auto& source : *sources) {
    auto member = read_member(source, team, allowed, team_access, team_shell, team_max_tool_rounds);
    if (!member) return std::move(member).err();
    team.members.push_back(std::move(member).value());
  }
  return ok();
}

// `mcp`: the MCP servers, in mcp.yaml's shape (`version` optional), or the path of such a file
// (relative to the team file; `version: 1` required there, as in any mcp.yaml). What refuses the
// whole section or file refuses the team, as any error of this file does; a server whose entry is
// wrong is refused alone, with a notice, as Dominds keeps going without it.
result<void> read_mcp_section(const map_reader& root, team_config& team) {
  const map_reader::entry* item = root.find("mcp");
  if (item == nullptr) return ok();
  if (item->value.IsScalar()) {
    auto file = detail::read_existing_path(root, "mcp", team.base_dir);
    if (!file) return std::move(file).err();
    auto config = read_mcp_file(*file);
    if (!config) return std::move(config).err();
    team.mcp = std::move(config).value();
  } else {
    if (!item->value.IsMap()) {
      return detail::type_error(root, *item, "a mapping with `servers:`, or the path of an mcp.yaml");
    }
    auto map = root.child_of(*item, "mcp");
    if (!map) return std::move(map).err();
    auto config = detail::read_mcp_map(*map, detail::mcp_version_key::optional);
    if (!config) return std::move(config).err();
    team.mcp = std::move(config).value();
    team.mcp.source = team.source;
  }
  detail::add_mcp_problems(team.mcp, team.problems);
  return ok();
}

result<team_config> load(const std::filesystem::path& file) {
  auto document = detail::load_yaml_file(file);
  if (!document) return std::move(document).err();
  auto root = map_reader::open(file.string(), *document, document->Mark(), {});
  if (!root) return std::move(root).err();
  PARLEY_TRY(root->check_keys(kTopKeys));
  PARLEY_TRY(read_version(*root));

  team_config team;
  std::error_code ec;
  team.source = std::filesystem::absolute(file, ec).lexically_normal();
  if (ec) return make_error(errc::config_error, file.string() + ": cannot resolve path: " + ec.message());
  team.base_dir = team.source.parent_path();
  team.workspace = team.base_dir;
  if (root->has("workspace")) {
    auto workspace = detail::read_existing_path(*root, "workspace", team.base_dir, /*folder=*/true);
    if (!workspace) return std::move(workspace).err();
    team.workspace = std::move(workspace).value();
  }
  PARLEY_TRY(detail::read_choice(*root, "language", {"en", "zh"}, team.language));
  PARLEY_TRY(detail::read_choice(*root, "titles", team.titles));
  PARLEY_TRY(read_limits(*root, team.limits));
  PARLEY_TRY(read_retention(*root, team.retention));
  PARLEY_TRY(read_providers(*root, team));
  PARLEY_TRY(read_members(*root, team));
  PARLEY_TRY(detail::read_default_member(*root, "default_member", team));
  PARLEY_TRY(read_media(*root, team));
  PARLEY_TRY(detail::read_records(*root, team));
  PARLEY_TRY(read_mcp_section(*root, team));
  if (team.default_member.empty()) team.default_member = team.members.front().id;
  return team;
}

}  // namespace

result<team_config> load_team_file(const std::filesystem::path& file) {
  // yaml-cpp reports misuse by throwing; a throw that slips past the readers must not leave the module.
  try {
    return load(file);
  } catch (const YAML::Exception& e) {
    return detail::yaml_error(file.string(), e.mark, {}, e.msg);
  } catch (const std::exception& e) {
    return make_error(errc::internal, file.string() + ": " + e.what());
  }
}

}  // namespace parley::config

// `parley providers [--json]`: the providers the team can name — for a Dominds workspace, Parley's
// built-in catalogue merged with `.minds/llm.yaml` — each with its API type, the kind Parley
// speaks to it, base URL, key variable and whether that variable is set (never its value), its
// models, where it was defined, and which members use it. Opens no store and builds no provider.
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cli_args.hpp"
#include "cli_context.hpp"
#include "cli_messages.hpp"
#include "parley/core/text.hpp"
#include "verb_usage.hpp"
#include "verbs.hpp"

namespace parley::cli {
namespace {

bool variable_is_set(const std::string& name) {
  if (name.empty()) return false;
  const char* value = std::getenv(name.c_str());
  return value != nullptr && *value != '\0';
}

// Parley's own team file has no catalogue: its providers are listed as entries of the file.
std::vector<config::provider_entry> entries_of(const config::team_config& team) {
  if (!team.provider_entries.empty()) return team.provider_entries;
  std::vector<config::provider_entry> entries;
  for (const auto& provider : team.providers) {
    config::provider_entry entry;
    entry.config = provider;
    entry.api_type = to_name(provider.kind);
    entry.origin = team.source.string();
    entries.push_back(std::move(entry));
  }
  return entries;
}

std::vector<std::string> users_of(const config::team_config& team, const std::string& provider) {
  std::vector<std::string> users;
  for (const auto& member : team.members) {
    if (member.provider == provider) users.push_back(member.id);
  }
  return users;
}

boost::json::object to_json(const config::team_config& team, const config::provider_entry& entry) {
  boost::json::array models;
  for (const auto& id : entry.config.models) {
    boost::json::object model{{"id", id}};
    for (const auto& detail : entry.config.model_details) {
      if (detail.id == id && detail.context_window > 0) model["contextWindow"] = detail.context_window;
    }
    models.push_back(std::move(model));
  }
  boost::json::array used_by;
  for (const auto& id : users_of(team, entry.config.id)) used_by.emplace_back(id);
  boost::json::object out{{"id", entry.config.id},       {"name", entry.name},
                          {"apiType", entry.api_type},   {"usable", entry.unsupported.empty()},
                          {"origin", entry.origin},      {"models", std::move(models)},
                          {"usedBy", std::move(used_by)}};
  if (!entry.unsupported.empty()) out["unsupported"] = entry.unsupported;
  if (entry.config.kind != config::provider_kind::none) out["kind"] = to_name(entry.config.kind);
  if (!entry.config.base_url.empty()) out["baseUrl"] = entry.config.base_url;
  if (!entry.config.api_key_env.empty()) {
    out["keyVariable"] = entry.config.api_key_env;
    out["keySet"] = variable_is_set(entry.config.api_key_env);
  }
  return out;
}

void print_line(const config::team_config& team, const config::provider_entry& entry) {
  std::string line = entry.config.id;
  if (!entry.name.empty()) line += say_cli(msg::providers_name, {{"name", entry.name}});
  line += ": " + entry.api_type;
  if (!entry.unsupported.empty()) {
    line += say_cli(msg::providers_not_usable, {{"why", entry.unsupported}});
  } else {
    const std::string_view kind = to_name(entry.config.kind);
    if (kind != entry.api_type) line += say_cli(msg::providers_as, {{"kind", kind}});
    if (!entry.config.base_url.empty()) line += say_cli(msg::providers_at, {{"url", entry.config.base_url}});
    if (entry.config.kind == config::provider_kind::codex) {
      // Not a key: the folder of Codex CLI's login, ~/.codex when unset (llm/responses/codex_auth.hpp).
      const std::string folder =
          variable_is_set(entry.config.api_key_env) ? "$" + entry.config.api_key_env : std::string("~/.codex");
      line += say_cli(msg::providers_login, {{"file", folder + "/auth.json"}});
    } else if (!entry.config.api_key_env.empty()) {
      const msg key_state =
          variable_is_set(entry.config.api_key_env) ? msg::providers_key_set : msg::providers_key_unset;
      line += say_cli(key_state, {{"variable", entry.config.api_key_env}});
    }
  }
  const std::string models = std::to_string(entry.config.models.size());
  line += say_cli(msg::providers_models, {{"n", models}, {"origin", entry.origin}});
  const auto users = users_of(team, entry.config.id);
  if (!users.empty()) line += say_cli(msg::providers_used_by, {{"members", join(users, ", ")}});
  std::printf("%s\n", line.c_str());
}

}  // namespace

int run_verb_providers(const std::vector<std::string>& raw) {
  auto args = parse_args(raw, arg_spec_of("providers"));
  if (!args) return report(args.err());
  if (args->help) return show_verb_help();
  if (!args->positionals.empty()) return report(make_error(errc::invalid_argument, usage_of("providers")));
  auto team = load_team(*args, data_dir_of(*args));
  if (!team) return report(team.err());
  const auto entries = entries_of(*team);
  if (args->has("json")) {
    boost::json::array out;
    for (const auto& entry : entries) out.push_back(to_json(*team, entry));
    std::printf("%s\n", boost::json::serialize(out).c_str());
    return kExitOk;
  }
  for (const auto& entry : entries) print_line(*team, entry);
  return kExitOk;
}

}  // namespace parley::cli

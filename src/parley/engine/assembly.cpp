#include "parley/engine/assembly.hpp"

#include <cstdlib>

#include "parley/core/messages.hpp"
#include "parley/engine/described_text.hpp"
#include "parley/engine/member_toolsets.hpp"
#include "parley/engine/team_problems.hpp"
#include "parley/engine/unavailable_provider.hpp"

#include "parley/llm/anthropic/anthropic_provider.hpp"
#include "parley/llm/openai/openai_provider.hpp"
#include "parley/llm/responses/responses_provider.hpp"
#include "parley/llm/scripted/dominds_mock.hpp"
#include "parley/llm/scripted/scripted_provider.hpp"
#include "parley/tools/basic_tools.hpp"
#include "parley/tools/dominds_tools.hpp"
#include "parley/tools/dominds_toolsets.hpp"
#include "parley/tools/memory_tools.hpp"
#include "parley/tools/shell_command.hpp"
#include "parley/tools/shell_tools.hpp"
#include "parley/tools/workspace_tools.hpp"

namespace parley::engine {
namespace {

std::string env_or_empty(const std::string& name) {
  if (name.empty()) return {};
  const char* value = std::getenv(name.c_str());
  return value == nullptr ? std::string{} : std::string(value);
}

// An HTTP provider with a fallback is live only when its key or base-URL variable is set.
bool is_live(const config::provider_config& spec) {
  if (spec.kind == config::provider_kind::scripted || spec.fallback.empty()) return true;
  return !env_or_empty(spec.api_key_env).empty() || !env_or_empty(spec.base_url_env).empty();
}

const config::provider_config& resolve(const config::team_config& team, const config::provider_config& spec) {
  const config::provider_config* at = &spec;
  while (!is_live(*at)) {
    const auto* next = team.find_provider(at->fallback);
    if (next == nullptr) break;  // the loader rejects unknown fallbacks; stay put if one slips by
    at = next;
  }
  return *at;
}

template <class Options>
Options remote_options_for(const config::provider_config& spec) {
  Options options;
  const std::string base_url = env_or_empty(spec.base_url_env);
  options.base_url = base_url.empty() ? spec.base_url : base_url;
  options.api_key = env_or_empty(spec.api_key_env);
  return options;
}

// Codex: api_key_env names the folder of Codex CLI's auth.json (CODEX_HOME), as in Dominds; unset,
// Codex CLI's own default, ~/.codex.
llm::responses_options codex_options_for(const config::provider_config& spec) {
  auto options = remote_options_for<llm::responses_options>(spec);
  options.api_key.clear();
  options.auth = llm::responses_auth::codex_login;
  std::string home = env_or_empty(spec.api_key_env);
  if (home.empty()) home = env_or_empty("HOME") + "/.codex";
  if (home.size() > 1 && home[0] == '~' && home[1] == '/') home = env_or_empty("HOME") + home.substr(1);
  options.codex_home = home;
  return options;
}

result<std::shared_ptr<llm::provider>> make_provider(const config::provider_config& spec,
                                                     const std::filesystem::path& workspace) {
  switch (spec.kind) {
    case config::provider_kind::scripted: {
      auto script = llm::load_scripted_script(spec.script);
      if (!script) return std::move(script).err();
      return std::shared_ptr<llm::provider>(std::make_shared<llm::scripted_provider>(std::move(*script)));
    }
    case config::provider_kind::openai:
      return llm::make_openai_provider(remote_options_for<llm::openai_options>(spec));
    case config::provider_kind::anthropic:
      return llm::make_anthropic_provider(remote_options_for<llm::anthropic_options>(spec));
    case config::provider_kind::openai_responses:
      return llm::make_responses_provider(remote_options_for<llm::responses_options>(spec));
    case config::provider_kind::codex:
      return llm::make_responses_provider(codex_options_for(spec));
    case config::provider_kind::mock: {
      // A Dominds workspace's baseUrl is relative to the workspace, where Dominds runs.
      const auto folder = spec.script.is_relative() ? workspace / spec.script : spec.script;
      return std::shared_ptr<llm::provider>(std::make_shared<llm::dominds_mock_provider>(folder));
    }
    case config::provider_kind::none:
      // A Dominds member's provider Parley cannot use: the member fails when driven, naming why.
      if (!spec.unavailable.empty()) return make_unavailable_provider(spec.id, spec.unavailable);
      break;  // a catalogue entry Parley does not speak; the loaders hand over no other
  }
  return make_error(errc::config_error,
                    "provider '" + spec.id + "': unknown kind '" + std::string(to_name(spec.kind)) + "'");
}

}  // namespace

result<provider_map> build_providers(const config::team_config& team) {
  provider_map providers;
  // Before any key is read: no shell command is given a provider's key, whatever its variable is
  // called (tools/shell_command.hpp).
  for (const auto& spec : team.providers) tools::mark_secret_variable(spec.api_key_env);
  for (const auto& spec : team.providers) {
    auto made = make_provider(resolve(team, spec), team.workspace);
    if (!made) return std::move(made).err();
    providers.emplace(spec.id, std::move(*made));
  }
  return providers;
}

std::unique_ptr<llm::embeddings_client> build_embeddings_client(const config::team_config& team) {
  if (!team.records.embeddings) return nullptr;
  const auto& wanted = *team.records.embeddings;
  const auto* spec = team.find_provider(wanted.provider);
  if (spec == nullptr) return nullptr;  // the loader refuses an unknown provider
  auto options = remote_options_for<llm::embeddings_options>(*spec);
  options.model = wanted.model;
  options.dimensions = wanted.dimensions;
  return std::make_unique<llm::embeddings_client>(std::move(options));
}

namespace {

tools::tool_registry builtin_tools_named(tools::tool_naming naming) {
  tools::tool_registry registry;
  tools::register_workspace_tools(registry);
  tools::register_basic_tools(registry);
  tools::register_shell_tools(registry);
  tools::register_memory_tools(registry);
  if (naming == tools::tool_naming::dominds) tools::register_dominds_tools(registry);
  tools::register_dominds_toolsets(registry, naming);
  return registry;
}

}  // namespace

tools::tool_registry build_builtin_tools() { return builtin_tools_named(tools::tool_naming::parley); }

tools::tool_registry build_builtin_tools(const config::team_config& team) {
  return builtin_tools_named(is_dominds_team(team) ? tools::tool_naming::dominds : tools::tool_naming::parley);
}

bool is_dominds_team(const config::team_config& team) {
  // load_dominds_workspace sets the source to <dir>/.minds/team.yaml; Parley's format is any other file.
  return team.source.filename() == "team.yaml" && team.source.parent_path().filename() == ".minds";
}

std::string describe_member_model(const config::team_config& team, const std::string& member_id) {
  return describe_member_model_in(team, member_id, "en");
}

std::string describe_member_model_in(const config::team_config& team, const std::string& member_id,
                                     std::string_view language) {
  const auto* member = team.find_member(member_id);
  if (member == nullptr) return say(msg::model_unknown_member, language);
  const auto* configured = team.find_provider(member->provider);
  if (configured == nullptr) return say(msg::model_unknown_provider, language);
  const auto& provider = resolve(team, *configured);
  if (!provider.unavailable.empty()) return say(msg::model_unusable, language, {{"provider", provider.id}});
  if (provider.kind == config::provider_kind::scripted) {
    std::string text = say(msg::model_scripted, language, {{"script", provider.script.filename().string()}});
    if (&provider != configured) {
      const std::string variables =
          configured->api_key_env +
          (configured->base_url_env.empty() ? "" : say(msg::model_or, language) + configured->base_url_env);
      text += say(msg::model_scripted_set_key, language, {{"variables", variables}});
    }
    return text;
  }
  if (provider.kind == config::provider_kind::mock) {
    return say(msg::model_mock, language, {{"file", (provider.script / (member->model + ".yaml")).string()}});
  }
  const std::string base_url = env_or_empty(provider.base_url_env);
  return say(msg::model_real, language,
             {{"kind", to_name(provider.kind)},
              {"model", member->model},
              {"url", base_url.empty() ? provider.base_url : base_url}});
}

result<team_parts> assemble_team(config::team_config team) {
  auto tools = build_builtin_tools(team);
  settle_team_problems(team, tools);
  PARLEY_TRY(check_team_toolsets(team, tools));
  auto providers = build_providers(team);
  if (!providers) return std::move(providers).err();
  return team_parts{std::move(team), std::move(*providers), std::move(tools)};
}

}  // namespace parley::engine

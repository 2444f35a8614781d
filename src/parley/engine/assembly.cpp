#include "parley/engine/assembly.hpp"

#include "parley/llm/scripted/scripted_provider.hpp"
#include "parley/tools/basic_tools.hpp"
#include "parley/tools/workspace_tools.hpp"

namespace parley::engine {
namespace {

result<std::shared_ptr<llm::provider>> make_provider(const config::provider_config& spec) {
  if (spec.kind == "scripted") {
    auto script = llm::load_scripted_script(spec.script);
    if (!script) return std::move(script).err();
    return std::shared_ptr<llm::provider>(std::make_shared<llm::scripted_provider>(std::move(*script)));
  }
  return make_error(errc::config_error, "provider '" + spec.id + "': kind '" + spec.kind +
                                            "' is not available in this build (available: scripted)");
}

}  // namespace

result<provider_map> build_providers(const config::team_config& team) {
  provider_map providers;
  for (const auto& spec : team.providers) {
    auto made = make_provider(spec);
    if (!made) return std::move(made).err();
    providers.emplace(spec.id, std::move(*made));
  }
  return providers;
}

tools::tool_registry build_builtin_tools() {
  tools::tool_registry registry;
  tools::register_workspace_tools(registry);
  tools::register_basic_tools(registry);
  return registry;
}

std::string describe_member_model(const config::team_config& team, const std::string& member_id) {
  const auto* member = team.find_member(member_id);
  if (member == nullptr) return "unknown member";
  const auto* provider = team.find_provider(member->provider);
  if (provider == nullptr) return "unknown provider";
  if (provider->kind == "scripted") {
    return "the built-in scripted model (offline, script " + provider->script.filename().string() + ")";
  }
  return provider->kind + " model " + member->model + " at " + provider->base_url;
}

}  // namespace parley::engine

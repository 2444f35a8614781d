#include "parley/engine/skills.hpp"

#include "parley/core/json.hpp"
#include "parley/core/text.hpp"
#include "parley/core/tool_spec.hpp"
#include "parley/tools/function_tool.hpp"

namespace parley::engine {
namespace {

namespace json = boost::json;

std::string_view scope_label(bool zh, const config::skill_config& skill) {
  if (skill.member_id.empty()) return zh ? "团队共享" : "Team Shared";
  return zh ? "个人" : "Individual";
}

tool_spec read_skill_spec() {
  json::object properties{
      {"skill_id", json::object{{"type", "string"}, {"description", "One skill ID from the Skills index."}}}};
  json::object schema{{"type", "object"},
                      {"additionalProperties", false},
                      {"required", json::array{"skill_id"}},
                      {"properties", std::move(properties)}};
  return {std::string(kReadSkillTool),
          "Read the full body of one available skill by skill_id. Use this after inspecting the Skills index in the "
          "system prompt.",
          std::move(schema)};
}

// Dominds' answer: the title, the facts of the index, then the body.
std::string skill_text(bool zh, const config::skill_config& skill) {
  std::string text = "# " + skill.title + "\n\n- ID: " + skill.id + "\n- " + (zh ? "作用域" : "Scope") + ": " +
                     (skill.member_id.empty() ? "team_shared" : "individual") + "\n- " + (zh ? "来源" : "Source") +
                     ": " + skill.source + "\n- " + (zh ? "说明" : "Description") + ": " + skill.description;
  if (!skill.allowed_tools.empty()) {
    text += std::string("\n- ") + (zh ? "上游 allowed-tools" : "Upstream allowed-tools") + ": " +
            join(skill.allowed_tools, ", ");
  }
  return text + "\n\n" + skill.body;
}

}  // namespace

std::vector<const config::skill_config*> skills_visible_to(const std::vector<config::skill_config>& skills,
                                                           std::string_view member_id) {
  std::vector<const config::skill_config*> visible;
  for (const auto& skill : skills) {
    if (skill.member_id.empty()) visible.push_back(&skill);
  }
  for (const auto& skill : skills) {
    if (!skill.member_id.empty() && skill.member_id == member_id) visible.push_back(&skill);
  }
  return visible;
}

std::string skills_index(std::string_view language, const std::vector<const config::skill_config*>& skills) {
  if (skills.empty()) return {};
  const bool zh = language == "zh";
  std::string text = zh ? "### Skills（工作技能）" : "### Skills";
  for (const auto* skill : skills) {
    text += "\n\n#### " + skill->title + "\n- ID: `" + skill->id + "`\n- " + (zh ? "作用域" : "Scope") + ": " +
            std::string(scope_label(zh, *skill)) + "\n- " + (zh ? "说明" : "Description") + ": " + skill->description +
            "\n- " + (zh ? "读取正文" : "Read body") + ": `read_skill({ \"skill_id\": \"" + skill->id + "\" })`";
    if (!skill->allowed_tools.empty()) {
      // As Dominds: the upstream list is a hint for people porting a skill, never a grant.
      text += std::string("\n- ") + (zh ? "上游 allowed-tools" : "Upstream allowed-tools") + ": " +
              join(skill->allowed_tools, ", ") + " (" +
              (zh ? "仅作迁移提示；不会据此自动授予工具权限，实际权限仍以 team.yaml / toolsets 为准。"
                  : "Advisory only; no tool permission is granted from this field. Actual access still comes from "
                    "team.yaml / toolsets.") +
              ")";
    }
  }
  return text;
}

std::unique_ptr<tools::tool> make_read_skill_tool(std::vector<config::skill_config> skills, std::string_view language) {
  auto shared = std::make_shared<const std::vector<config::skill_config>>(std::move(skills));
  const bool zh = language == "zh";
  return std::make_unique<tools::function_tool>(
      read_skill_spec(),
      [shared, zh](const json::object& args, const tools::tool_context& ctx) -> tools::tool_outcome {
        const auto* given = args.if_contains("skill_id");
        const std::string wanted = given != nullptr && given->is_string() ? std::string(given->as_string()) : "";
        for (const auto* skill : skills_visible_to(*shared, ctx.member_id)) {
          if (skill->id == wanted) return {true, skill_text(zh, *skill)};
        }
        std::string known;
        for (const auto* skill : skills_visible_to(*shared, ctx.member_id))
          known += (known.empty() ? "" : ", ") + skill->id;
        return {false, (zh ? "错误：未找到可用 skill '" : "Error: available skill '") + wanted +
                           (zh ? "'。" : "' was not found.") +
                           (known.empty() ? std::string(zh ? "（没有可用的 skill）" : " (no skills are available)")
                                          : std::string(zh ? " 可用：" : " Available: ") + known)};
      },
      tools::function_tool::effects::none);
}

}  // namespace parley::engine

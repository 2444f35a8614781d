#include "parley/engine/dialog_tools.hpp"

#include "parley/engine/dominds_control.hpp"
#include "parley/engine/dominds_pads.hpp"

#include <boost/json/parse.hpp>

#include <algorithm>

namespace parley::engine {
namespace {

llm::tool_spec make_spec(std::string_view name, std::string_view description, std::string_view schema) {
  return {std::string(name), std::string(description), boost::json::parse(schema).as_object()};
}

constexpr std::string_view kContentOnly =
    R"({"type":"object","properties":{"tellaskContent":{"type":"string","minLength":1}},)"
    R"("required":["tellaskContent"],"additionalProperties":false})";

std::vector<llm::tool_spec> all_specs() {
  std::vector<llm::tool_spec> specs{
      make_spec(dialog_tool::tellask,
                "Tellask Session (Type B): ask a teammate in a registered, resumable subdialog. The same "
                "targetAgentId and sessionSlug resume the same subdialog, which keeps its context. You wait "
                "until it replies; its reply is this call's result.",
                R"({"type":"object","properties":{"targetAgentId":{"type":"string","minLength":1},)"
                R"("sessionSlug":{"type":"string","minLength":1},"tellaskContent":{"type":"string","minLength":1}},)"
                R"("required":["targetAgentId","sessionSlug","tellaskContent"],"additionalProperties":false})"),
      make_spec(dialog_tool::tellask_sessionless,
                "Fresh Tellask (Type C): ask a teammate in a new one-off subdialog. You wait until it replies; "
                "its reply is this call's result.",
                R"({"type":"object","properties":{"targetAgentId":{"type":"string","minLength":1},)"
                R"("tellaskContent":{"type":"string","minLength":1}},)"
                R"("required":["targetAgentId","tellaskContent"],"additionalProperties":false})"),
      make_spec(dialog_tool::tellask_back,
                "TellaskBack (Type A): ask your tellasker (the dialog that gave you this assignment) for "
                "clarification or a decision. Start the content with 【tellaskBack】. You wait for the answer.",
                kContentOnly),
      make_spec(dialog_tool::fresh_boots_reasoning,
                "Fresh Boots Reasoning: think about one sub-problem in a fresh subdialog of yourself, without "
                "tools or Tellasks. Its answer is this call's result.",
                kContentOnly),
      make_spec(dialog_tool::self_reflect,
                "Self-reflection: step back from the task in a subdialog of yourself, with your tools, toward "
                "`goal` (e.g. review what went well, record what you learned as memory files under "
                ".minds/memory/). Each tool use there is recorded as an introspection turn; its final answer — "
                "the reflection's summary — is this call's result.",
                R"({"type":"object","properties":{"goal":{"type":"string","minLength":1},)"
                R"("moodState":{"type":"string"}},"required":["goal"],"additionalProperties":false})"),
      make_spec(dialog_tool::ask_human,
                "Ask the human (Q4H). The first line of tellaskContent is the question's headline. You wait "
                "until the human answers; the answer is this call's result.",
                kContentOnly),
      make_spec(dialog_tool::add_reminder,
                "Add a reminder: working memory shown in every prompt of this dialog, kept across clear_mind.",
                R"({"type":"object","properties":{"content":{"type":"string","minLength":1}},)"
                R"("required":["content"],"additionalProperties":false})"),
      make_spec(dialog_tool::update_reminder, "Replace the text of reminder number reminder_no (1-based).",
                R"({"type":"object","properties":{"reminder_no":{"type":"integer","minimum":1},)"
                R"("content":{"type":"string","minLength":1}},"required":["reminder_no","content"],)"
                R"("additionalProperties":false})"),
      make_spec(dialog_tool::delete_reminder, "Delete reminder number reminder_no (1-based).",
                R"({"type":"object","properties":{"reminder_no":{"type":"integer","minimum":1}},)"
                R"("required":["reminder_no"],"additionalProperties":false})"),
      make_spec(dialog_tool::clear_mind,
                "Start a new course of this dialog: the messages so far are cleared, reminders and the Taskdoc "
                "stay. Optionally add a reminder first.",
                R"({"type":"object","properties":{"reminder_content":{"type":"string"}},)"
                R"("additionalProperties":false})"),
      make_spec(
          dialog_tool::change_mind,
          "Rewrite one section of the Taskdoc shared by every dialog of this task. Pass the section's "
          "current hash (shown with the Taskdoc) as expectedHash so a concurrent change is not lost.",
          R"({"type":"object","properties":{"selector":{"type":"string","enum":["goals","constraints","progress"]},)"
          R"("content":{"type":"string"},"expectedHash":{"type":"string"}},)"
          R"("required":["selector","content"],"additionalProperties":false})"),
  };
  // Offered only to a team from `.minds/` (member_roster), but known to every dialog's routing.
  auto dominds = dominds_control_specs();
  specs.insert(specs.end(), std::make_move_iterator(dominds.begin()), std::make_move_iterator(dominds.end()));
  // The same for Dominds' scratch pads, offered to the members given them (member_roster).
  auto pads = dominds_pad_specs();
  specs.insert(specs.end(), std::make_move_iterator(pads.begin()), std::make_move_iterator(pads.end()));
  return specs;
}

const std::vector<llm::tool_spec>& every_spec() {
  static const std::vector<llm::tool_spec> specs = all_specs();
  return specs;
}

std::vector<llm::tool_spec> pick(std::initializer_list<std::string_view> names) {
  std::vector<llm::tool_spec> out;
  for (const auto name : names) out.push_back(*find_dialog_tool_spec(name));
  return out;
}

std::vector<llm::tool_spec> with(std::vector<llm::tool_spec> specs, std::string_view name) {
  specs.push_back(*find_dialog_tool_spec(name));
  return specs;
}

}  // namespace

bool is_dialog_tool(std::string_view name) { return find_dialog_tool_spec(name) != nullptr; }

bool is_tellask_call(std::string_view name) {
  return name == dialog_tool::tellask || name == dialog_tool::tellask_sessionless ||
         name == dialog_tool::tellask_back || name == dialog_tool::fresh_boots_reasoning ||
         name == dialog_tool::ask_human || name == dialog_tool::self_reflect;
}

const llm::tool_spec* find_dialog_tool_spec(std::string_view name) {
  const auto& specs = every_spec();
  const auto it = std::find_if(specs.begin(), specs.end(), [&](const llm::tool_spec& s) { return s.name == name; });
  return it == specs.end() ? nullptr : &*it;
}

std::vector<llm::tool_spec> team_dialog_tool_specs(const std::vector<std::string>& member_ids) {
  boost::json::array ids;
  for (const auto& id : member_ids) ids.emplace_back(id);
  std::vector<llm::tool_spec> specs = every_spec();
  for (auto& spec : specs) {
    auto* properties = spec.parameters.if_contains("properties");
    if (properties == nullptr || !properties->is_object()) continue;
    auto& fields = properties->as_object();
    if (!fields.contains("targetAgentId")) continue;
    fields["targetAgentId"] =
        boost::json::object{{"type", "string"},
                            {"enum", ids},
                            {"description", "The member to ask, by id (see the Team section of your system prompt)."}};
  }
  return specs;
}

std::vector<std::string> dialog_tool_names() {
  std::vector<std::string> names;
  for (const auto& spec : every_spec()) names.push_back(spec.name);
  return names;
}

const std::vector<llm::tool_spec>& dialog_tool_specs(dialog_place place, bool text_syntax, bool self_reflection) {
  using namespace dialog_tool;
  static const std::vector<llm::tool_spec> none;
  static const std::vector<llm::tool_spec> root =
      pick({tellask, tellask_sessionless, fresh_boots_reasoning, ask_human, add_reminder, update_reminder,
            delete_reminder, clear_mind, change_mind});
  static const std::vector<llm::tool_spec> sub =
      pick({tellask, tellask_sessionless, tellask_back, fresh_boots_reasoning, ask_human, add_reminder, update_reminder,
            delete_reminder, clear_mind});
  static const std::vector<llm::tool_spec> root_text =
      pick({add_reminder, update_reminder, delete_reminder, clear_mind, change_mind});
  static const std::vector<llm::tool_spec> sub_text =
      pick({add_reminder, update_reminder, delete_reminder, clear_mind});
  static const std::vector<llm::tool_spec> root_reflecting = with(root, self_reflect);
  static const std::vector<llm::tool_spec> sub_reflecting = with(sub, self_reflect);
  static const std::vector<llm::tool_spec> root_text_reflecting = with(root_text, self_reflect);
  static const std::vector<llm::tool_spec> sub_text_reflecting = with(sub_text, self_reflect);
  switch (place) {
    case dialog_place::fbr:
      return none;
    case dialog_place::sub:
      if (self_reflection) return text_syntax ? sub_text_reflecting : sub_reflecting;
      return text_syntax ? sub_text : sub;
    case dialog_place::root:
      break;
  }
  if (self_reflection) return text_syntax ? root_text_reflecting : root_reflecting;
  return text_syntax ? root_text : root;
}

}  // namespace parley::engine

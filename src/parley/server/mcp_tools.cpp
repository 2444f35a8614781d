#include "parley/server/mcp_tools.hpp"

#include <boost/json/object.hpp>

#include "parley/core/utf8.hpp"
#include "parley/server/mcp_protocol.hpp"

namespace parley::server {

namespace json = boost::json;

namespace {

// How much of a persona a tool's description quotes: enough to tell members apart, not a prompt.
constexpr std::size_t kPersonaExcerptBytes = 600;

constexpr const char* kResultContract =
    " The result's status is \"answered\" (the answer is the text), \"waiting_for_human\" (the team asks "
    "questions: reply to each with answer_question), \"working\" (still busy: call wait_for_answer with the "
    "dialog_id) or \"failed\". Every result names the dialog_id.";

json::object string_property(std::string_view description) {
  return json::object{{"type", "string"}, {"description", description}};
}

json::object member_input_schema() {
  json::object message = string_property("What to ask or tell them.");
  message["minLength"] = 1;
  json::object properties{
      {"message", std::move(message)},
      {"dialog_id", string_property("Continue this conversation (the dialog_id of an earlier result with this "
                                    "member) instead of starting a new one.")}};
  return json::object{{"type", "object"},
                      {"properties", std::move(properties)},
                      {"required", json::array{"message"}},
                      {"additionalProperties", false}};
}

json::object answer_input_schema() {
  json::object answer = string_property("Your answer.");
  answer["minLength"] = 1;
  json::object properties{{"question_id", string_property("The question_id of a question the team asked.")},
                          {"answer", std::move(answer)}};
  return json::object{{"type", "object"},
                      {"properties", std::move(properties)},
                      {"required", json::array{"question_id", "answer"}},
                      {"additionalProperties", false}};
}

json::object wait_input_schema() {
  json::object properties{{"dialog_id", string_property("The dialog_id of a result whose status was \"working\".")}};
  return json::object{{"type", "object"},
                      {"properties", std::move(properties)},
                      {"required", json::array{"dialog_id"}},
                      {"additionalProperties", false}};
}

// structuredContent of every tool's result (mcp_tool_result.hpp).
json::object output_schema() {
  json::object question{{"type", "object"},
                        {"properties", json::object{{"question_id", json::object{{"type", "string"}}},
                                                    {"dialog_id", json::object{{"type", "string"}}},
                                                    {"member_id", json::object{{"type", "string"}}},
                                                    {"question", json::object{{"type", "string"}}}}},
                        {"required", json::array{"question_id", "dialog_id", "member_id", "question"}}};
  json::object properties{
      {"dialog_id", json::object{{"type", "string"}}},
      {"status",
       json::object{{"type", "string"}, {"enum", json::array{"answered", "waiting_for_human", "working", "failed"}}}},
      {"answer", json::object{{"type", "string"}}},
      {"questions", json::object{{"type", "array"}, {"items", std::move(question)}}},
      {"error", json::object{{"type", "string"}}}};
  return json::object{{"type", "object"},
                      {"properties", std::move(properties)},
                      {"required", json::array{"dialog_id", "status", "answer", "questions"}}};
}

std::string member_description(const config::member_config& member) {
  const std::string name = member.name.empty() ? member.id : member.name;
  std::string text = "Ask " + name + " (@" + member.id +
                     "), a member of this Parley team of AI agents, and get their final answer once their work (and "
                     "any teammates they ask) is done.";
  if (!member.persona.empty()) text += " Persona: " + utf8_excerpt(member.persona, kPersonaExcerptBytes);
  if (!member.gofor.empty()) {
    text += " Go to them for:";
    for (std::size_t i = 0; i < member.gofor.size(); ++i) text += (i == 0 ? " " : "; ") + member.gofor[i];
    text += ".";
  }
  text += " A call starts a new conversation unless dialog_id names one to continue.";
  return text + kResultContract;
}

json::object tool(std::string_view name, std::string_view title, std::string description, json::object input,
                  std::string_view version) {
  json::object out{{"name", name}, {"description", std::move(description)}, {"inputSchema", std::move(input)}};
  if (mcp_version_has_structured_output(version)) {
    out["title"] = title;
    out["outputSchema"] = output_schema();
  }
  return out;
}

}  // namespace

std::string member_tool_name(std::string_view member_id) {
  return std::string(kMemberToolPrefix) + std::string(member_id);
}

std::vector<const config::member_config*> offered_members(const config::team_config& team) {
  std::vector<const config::member_config*> out;
  for (const auto& member : team.members) {
    if (member.kind != config::member_kind::llm || member.hidden) continue;
    if (member_tool_name(member.id).size() > kMaxToolNameChars) continue;
    out.push_back(&member);
  }
  return out;
}

const config::member_config* member_of_tool(const config::team_config& team, std::string_view tool_name) {
  if (tool_name.substr(0, kMemberToolPrefix.size()) != kMemberToolPrefix) return nullptr;
  for (const auto* member : offered_members(team)) {
    if (member_tool_name(member->id) == tool_name) return member;
  }
  return nullptr;
}

json::array tool_list(const config::team_config& team, std::string_view version) {
  json::array tools;
  for (const auto* member : offered_members(team)) {
    const std::string title = "Ask " + (member->name.empty() ? member->id : member->name);
    tools.push_back(
        tool(member_tool_name(member->id), title, member_description(*member), member_input_schema(), version));
  }
  tools.push_back(tool(kAnswerQuestionTool, "Answer the team's question",
                       "Answer a question the team asked the human (a result with status \"waiting_for_human\" "
                       "lists them with their question_id), then wait for the team's next answer like the call "
                       "that asked." +
                           std::string(kResultContract),
                       answer_input_schema(), version));
  tools.push_back(tool(kWaitForAnswerTool, "Wait for an answer",
                       "Wait again for a conversation whose result had status \"working\": returns its answer once "
                       "the team is done, its questions, or \"working\" again." +
                           std::string(kResultContract),
                       wait_input_schema(), version));
  return tools;
}

}  // namespace parley::server

#include "parley/engine/context_builder.hpp"

#include <boost/json/parse.hpp>

#include "parley/core/json.hpp"

namespace parley::engine {
namespace {

std::string system_prompt_for(const config::member_config& member) {
  std::string prompt = "You are " + member.name + " (@" + member.id + "), a member of an agent team.";
  if (!member.persona.empty()) {
    prompt += "\n\n";
    prompt += member.persona;
  }
  return prompt;
}

std::vector<llm::tool_call> parse_tool_calls(const std::string& text) {
  std::vector<llm::tool_call> calls;
  if (text.empty()) return calls;
  boost::system::error_code ec;
  const auto value = boost::json::parse(text, ec);
  if (ec || !value.is_array()) return calls;
  for (const auto& item : value.get_array()) {
    if (!item.is_object()) continue;
    const auto& obj = item.get_object();
    calls.push_back({json_string_or(obj, "id"), json_string_or(obj, "name"), json_string_or(obj, "arguments")});
  }
  return calls;
}

}  // namespace

llm::chat_message to_chat_message(const message_row& row) {
  llm::chat_message msg;
  if (row.role == "assistant") {
    msg.role = llm::role::assistant;
    msg.thinking = row.thinking;
    msg.tool_calls = parse_tool_calls(row.tool_calls_json);
  } else if (row.role == "tool") {
    msg.role = llm::role::tool;
    msg.tool_call_id = row.tool_call_id;
    msg.name = row.tool_name;
  } else {
    msg.role = llm::role::user;
  }
  msg.content = row.content;
  return msg;
}

llm::model_request build_model_request(const dialog_runtime& dialog, const config::member_config& member,
                                       const std::vector<llm::tool_spec>& tools, std::int64_t round) {
  llm::model_request request;
  request.member_id = member.id;
  request.model = member.model;
  request.system_prompt = system_prompt_for(member);
  request.params = member.model_params;
  request.tools = tools;
  request.round = round;
  request.dialog_id = dialog.id();
  request.messages.reserve(dialog.messages().size());
  for (const auto& row : dialog.messages()) request.messages.push_back(to_chat_message(row));
  return request;
}

}  // namespace parley::engine

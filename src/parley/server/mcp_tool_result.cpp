#include "parley/server/mcp_tool_result.hpp"

#include <boost/json/array.hpp>

#include "parley/server/mcp_protocol.hpp"
#include "parley/server/mcp_tools.hpp"

namespace parley::server {

namespace json = boost::json;

namespace {

std::string questions_text(const std::vector<asked_question>& questions) {
  std::string text = questions.size() == 1
                         ? "The team waits for your answer to a question:"
                         : "The team waits for your answers to " + std::to_string(questions.size()) + " questions:";
  for (const auto& question : questions) {
    text += "\n- question_id " + question.question_id + " (from @" + question.member_id + "): " + question.text;
  }
  return text + "\nAnswer each with answer_question {question_id, answer}.";
}

std::string outcome_text(const call_outcome& outcome) {
  const std::string& id = outcome.dialog_id;
  const std::string go_on = "[dialog_id: " + id + "; to continue this conversation, call " +
                            member_tool_name(outcome.member_id) + " with dialog_id \"" + id + "\"]";
  switch (outcome.status) {
    case call_status::answered:
      return outcome.answer + (outcome.answer.empty() ? "" : "\n\n") + go_on;
    case call_status::waiting_for_human:
      return outcome.answer + (outcome.answer.empty() ? "" : "\n\n") + questions_text(outcome.questions) +
             "\n\n[dialog_id: " + id + "]";
    case call_status::working:
      return "@" + outcome.member_id + " is still working on dialog " + id + ". Call " +
             std::string(kWaitForAnswerTool) + " with dialog_id \"" + id +
             "\" for the answer; the work goes on meanwhile.\n\n[dialog_id: " + id + "]";
    case call_status::failed:
      return "Dialog " + id + " stopped: " + outcome.error + ". Parley's operator can resume it (parley resume " + id +
             ").\n\n[dialog_id: " + id + "]";
  }
  return {};
}

json::object structured(const call_outcome& outcome) {
  json::array questions;
  for (const auto& question : outcome.questions) {
    questions.push_back(json::object{{"question_id", question.question_id},
                                     {"dialog_id", question.dialog_id},
                                     {"member_id", question.member_id},
                                     {"question", question.text}});
  }
  json::object out{{"dialog_id", outcome.dialog_id},
                   {"status", wire_name(outcome.status)},
                   {"answer", outcome.answer},
                   {"questions", std::move(questions)}};
  if (!outcome.error.empty()) out["error"] = outcome.error;
  return out;
}

}  // namespace

std::string_view wire_name(call_status status) {
  switch (status) {
    case call_status::answered:
      return "answered";
    case call_status::waiting_for_human:
      return "waiting_for_human";
    case call_status::working:
      return "working";
    case call_status::failed:
      return "failed";
  }
  return "failed";
}

json::object tool_result(const call_outcome& outcome, std::string_view version) {
  json::array content{json::object{{"type", "text"}, {"text", outcome_text(outcome)}}};
  json::object out{{"content", std::move(content)}, {"isError", outcome.status == call_status::failed}};
  if (mcp_version_has_structured_output(version)) out["structuredContent"] = structured(outcome);
  return out;
}

json::object tool_error(std::string message) {
  json::array content{json::object{{"type", "text"}, {"text", std::move(message)}}};
  return json::object{{"content", std::move(content)}, {"isError", true}};
}

}  // namespace parley::server

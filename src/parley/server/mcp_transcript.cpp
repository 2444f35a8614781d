#include "parley/server/mcp_transcript.hpp"

#include <deque>

#include "parley/core/utf8.hpp"
#include "parley/model/events/wire.hpp"

namespace parley::server {

namespace {

// A tool's output or a call's arguments in a transcript: enough to follow what happened.
constexpr std::size_t kToolTextBytes = 2000;

std::string heading_of(const dialog_row& row, const message_row& message) {
  switch (message.role) {
    case events::message_role::user:
      return message.speaker.empty() ? "user" : message.speaker;
    case events::message_role::assistant:
      return "@" + (message.speaker.empty() ? row.member_id : message.speaker);
    case events::message_role::tool:
      return "tool " + message.tool_name + (message.ok ? "" : " (failed)");
  }
  return "?";
}

std::string message_markdown(const dialog_row& row, const message_row& message) {
  std::string text = "### " + heading_of(row, message) + "\n\n";
  const bool tool = message.role == events::message_role::tool;
  if (!message.content.empty())
    text += (tool ? utf8_excerpt(message.content, kToolTextBytes) : message.content) + "\n\n";
  if (message.interrupted) text += "_(interrupted)_\n\n";
  for (const auto& call : message.tool_calls) {
    text += "→ calls `" + call.name + "` with `" + utf8_excerpt(call.arguments, kToolTextBytes) + "`\n\n";
  }
  return text;
}

std::string header_of(const dialog_row& row, std::size_t messages) {
  std::string text = "# " + (row.title.empty() ? "Dialog " + row.id : row.title) + "\n\n";
  text += "- dialog: " + row.id +
          (row.parent_id.empty() ? " (root)" : " (subdialog of " + row.parent_id + ", root " + row.root_id + ")") +
          "\n";
  text += "- member: @" + row.member_id + "\n";
  text += "- status: " + std::string(events::to_wire(row.status)) + ", course " + std::to_string(row.course) + ", " +
          std::to_string(messages) + (messages == 1 ? " message" : " messages") + "\n";
  if (row.open_questions > 0) text += "- open questions for the human: " + std::to_string(row.open_questions) + "\n";
  if (!row.last_error.empty()) text += "- stopped: " + row.last_error + "\n";
  return text + "\n";
}

}  // namespace

std::string dialog_markdown(const dialog_row& row, const std::vector<message_row>& messages) {
  std::string head = header_of(row, messages.size());
  // The latest messages that fit, oldest first.
  std::deque<std::string> kept;
  std::size_t size = head.size();
  std::size_t left_out = messages.size();
  for (auto it = messages.rbegin(); it != messages.rend(); ++it) {
    std::string text = message_markdown(row, *it);
    if (size + text.size() > kMaxTranscriptBytes && !kept.empty()) break;
    size += text.size();
    kept.push_front(std::move(text));
    --left_out;
  }
  if (left_out > 0) head += "_(" + std::to_string(left_out) + " earlier messages left out)_\n\n";
  for (auto& text : kept) head += text;
  return head;
}

std::string question_markdown(const engine::open_question& asked) {
  const auto& question = asked.question;
  return "# @" + asked.dialog.member_id + " asks the human\n\n- question_id: " + question.id +
         "\n- dialog: " + asked.dialog.id + " (root " + asked.dialog.root_id + ")\n- asked at: " + question.asked_at +
         "\n\n" + question.tellask_content + "\n\nAnswer it with the tool answer_question {question_id, answer}.\n";
}

}  // namespace parley::server

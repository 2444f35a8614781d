#include "parley/server/mcp_progress.hpp"

#include <algorithm>

#include "parley/core/utf8.hpp"

namespace parley::server {

namespace {

constexpr std::size_t kStepLineBytes = 160;

// The line an event stands for; empty when it is not a step a caller is told of.
std::string step_line_of(const event& ev, const std::string& who) {
  if (ev.is<events::generation_started>()) return who + " is thinking";
  if (const auto* finished = ev.as<events::generation_finished>(); finished != nullptr && !finished->saying.empty()) {
    return who + " says: " + finished->saying;
  }
  if (const auto* call = ev.as<events::tellask_called>()) {
    if (call->name == events::call_kind::tellask_back) return who + " asks back: " + call->tellask_content;
    return who + " asked @" + call->target_agent_id + ": " + call->tellask_content;
  }
  if (const auto* reply = ev.as<events::reply_received>()) return "@" + reply->from_member_id + " replied to " + who;
  if (const auto* tool = ev.as<events::tool_result>()) {
    return who + ": tool " + tool->name + (tool->ok ? " ran" : " failed");
  }
  if (const auto* question = ev.as<events::question_asked>()) {
    return who + " asks the human: " + question->tellask_content;
  }
  if (ev.is<events::question_answered>()) return "the human answered " + who;
  if (const auto* failed = ev.as<events::drive_failed>()) return who + " stopped: " + failed->message;
  return {};
}

}  // namespace

std::string progress_text(std::string_view text, std::size_t max_bytes) {
  std::string flat;
  flat.reserve(std::min(text.size(), max_bytes + 8));
  bool blank = false;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    const bool space = byte < 0x20 || byte == 0x7f || c == ' ';
    if (space) {
      blank = !flat.empty();
      continue;
    }
    if (blank) flat += ' ';
    blank = false;
    flat += c;
    if (flat.size() > max_bytes + 8) break;  // enough to cut from
  }
  // C1 controls (U+0080–U+009F) are two bytes each in UTF-8; made spaces too.
  std::string out;
  out.reserve(flat.size());
  for (std::size_t i = 0; i < flat.size(); ++i) {
    if (static_cast<unsigned char>(flat[i]) == 0xc2 && i + 1 < flat.size() &&
        static_cast<unsigned char>(flat[i + 1]) < 0xa0 && static_cast<unsigned char>(flat[i + 1]) >= 0x80) {
      out += ' ';
      ++i;
      continue;
    }
    out += flat[i];
  }
  return utf8_excerpt(out, max_bytes);
}

progress_steps::progress_steps(std::string root_member) : root_member_(std::move(root_member)) {}

std::string progress_steps::who(const event& ev) const {
  if (ev.dialog_id == ev.root_id) return "@" + root_member_;
  const auto found = members_.find(ev.dialog_id);
  return found == members_.end() ? std::string("a subdialog") : "@" + found->second;
}

bool progress_steps::take(const event& ev) {
  if (const auto* created = ev.as<events::dialog_created>()) {
    members_.emplace(ev.dialog_id, created->member_id);
    return false;
  }
  if (const auto* call = ev.as<events::tellask_called>(); call != nullptr && !call->subdialog_id.empty()) {
    members_.emplace(call->subdialog_id, call->target_agent_id);
  }
  const std::string line = step_line_of(ev, who(ev));
  if (line.empty()) return false;
  add(line);
  if (ev.is<events::drive_failed>()) failure_ = latest_;
  return true;
}

void progress_steps::add(std::string_view line) {
  ++count_;
  latest_ = progress_text(line, kStepLineBytes);
}

}  // namespace parley::server

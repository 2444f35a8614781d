#include "parley/llm/scripted/script_match.hpp"

#include "parley/core/utf8.hpp"

namespace parley::llm::scripted_detail {
namespace {

// The text a condition looks at; nullptr when that message does not exist (never matches).
const std::string* condition_text(condition_target target, const model_request& request, const request_facts& facts) {
  switch (target) {
    case condition_target::last_user:
      return facts.last_user ? &facts.last_user->content : nullptr;
    case condition_target::last_tool:
      return facts.last_tool ? &facts.last_tool->content : nullptr;
    case condition_target::last_message:
      return facts.last_message ? &facts.last_message->content : nullptr;
    case condition_target::system:
      return &request.system_prompt;
    case condition_target::dialog:
      return nullptr;  // handled by dialog_contains
  }
  return nullptr;
}

bool dialog_contains(const model_request& request, std::string_view needle) {
  for (const auto& message : request.messages) {
    if (message.content.find(needle) != std::string::npos) return true;
    if (message.thinking.find(needle) != std::string::npos) return true;
    for (const auto& call : message.tool_calls) {
      if (call.arguments.find(needle) != std::string::npos) return true;
    }
  }
  return false;
}

bool condition_holds(const text_condition& condition, const model_request& request, const request_facts& facts,
                     std::vector<std::string>* captures) {
  if (condition.target == condition_target::dialog) return dialog_contains(request, condition.needle);
  const std::string* text = condition_text(condition.target, request, facts);
  if (text == nullptr) return false;
  if (!condition.regex) return text->find(condition.needle) != std::string::npos;
  if (captures == nullptr) return std::regex_search(*text, *condition.regex);
  std::smatch match;
  if (!std::regex_search(*text, match, *condition.regex)) return false;
  captures->clear();
  captures->reserve(match.size());
  // std::regex works on bytes, so `.` or `\w*` can end a group inside a multibyte character; a
  // cut character becomes U+FFFD, or the text streamed from it could not be logged or sent.
  for (const auto& group : match) captures->push_back(repair_utf8(group.str()).text);
  return true;
}

bool rule_holds(const script_rule& rule, const model_request& request, const request_facts& facts,
                std::vector<std::string>& captures) {
  if (rule.round && *rule.round != request.round) return false;
  for (std::size_t i = 0; i < rule.conditions.size(); ++i) {
    const bool wants_captures = static_cast<int>(i) == rule.capture_condition;
    if (!condition_holds(rule.conditions[i], request, facts, wants_captures ? &captures : nullptr)) return false;
  }
  return true;
}

// Keeps the error readable when the user message is long; cuts on a UTF-8 character boundary.
std::string shorten(std::string_view text) {
  constexpr std::size_t kMaxShown = 120;
  if (text.size() <= kMaxShown) return std::string(text);
  std::size_t cut = kMaxShown;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0U) == 0x80U) --cut;
  return std::string(text.substr(0, cut)) + "...";
}

}  // namespace

request_facts request_facts::of(const model_request& request) {
  request_facts facts;
  if (request.messages.empty()) return facts;
  facts.last_message = &request.messages.back();
  for (auto it = request.messages.rbegin(); it != request.messages.rend(); ++it) {
    if (it->role == role::user) {
      facts.last_user = &*it;
      break;
    }
    if (it->role == role::tool && facts.last_tool == nullptr) facts.last_tool = &*it;
  }
  return facts;
}

result<rule_match> match_rule(const scripted_script& script, const model_request& request, const request_facts& facts) {
  rule_match match;
  if (const auto* rules = script.rules_for(request.member_id)) {
    for (const auto& rule : *rules) {
      if (rule_holds(rule, request, facts, match.captures)) {
        match.rule = &rule;
        return match;
      }
    }
  }
  std::string message = "scripted model: no rule matches for member '" + request.member_id + "' (round " +
                        std::to_string(request.round) + ", last user message: '" +
                        (facts.last_user ? shorten(facts.last_user->content) : std::string()) + "')";
  if (script.rules_for(request.member_id) == nullptr) {
    message += "; " + script.source + " has no rules for this member and no '*' rules";
  }
  return make_error(errc::provider_error, std::move(message));
}

}  // namespace parley::llm::scripted_detail

// Picks the rule of a script that answers a request. Private to llm/scripted.
#pragma once

#include <string>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/llm/provider.hpp"
#include "parley/llm/scripted/script.hpp"

namespace parley::llm::scripted_detail {

// The messages conditions and placeholders read, found once per request.
struct request_facts {
  const chat_message* last_user = nullptr;
  // The last tool message, only when it comes after the last user message: a new user turn must
  // not match the tool results of an earlier one.
  const chat_message* last_tool = nullptr;
  const chat_message* last_message = nullptr;

  static request_facts of(const model_request& request);
};

struct rule_match {
  const script_rule* rule = nullptr;
  std::vector<std::string> captures;  // of the rule's first regex condition; [0] = whole match
};

// The first rule for request.member_id (or "*") whose conditions all hold; errc::provider_error
// naming the member, round and last user message when none does.
result<rule_match> match_rule(const scripted_script& script, const model_request& request, const request_facts& facts);

}  // namespace parley::llm::scripted_detail

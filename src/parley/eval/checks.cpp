#include "parley/eval/checks.hpp"

#include <algorithm>
#include <regex>

#include "parley/core/json.hpp"
#include "parley/core/text.hpp"
#include "parley/tools/json_schema.hpp"

namespace parley::eval {
namespace {

constexpr std::size_t kCheckQuoteChars = 80;

std::string check_quote(std::string_view text) {
  if (text.size() <= kCheckQuoteChars) return "'" + std::string(text) + "'";
  return "'" + std::string(text.substr(0, kCheckQuoteChars)) + "...'";
}

check_result check_outcome(const check_spec& check, verdict outcome, std::string message) {
  check_result out;
  out.check = check.label();
  out.where = check.where;
  out.outcome = outcome;
  out.message = std::move(message);
  return out;
}

const std::string& check_answer(const tree_summary& tree) {
  static const std::string none;
  return tree.dialogs.empty() ? none : tree.dialogs.front().final_answer;
}

check_result check_text(const check_spec& check, const tree_summary& tree) {
  const std::string& answer = check_answer(tree);
  if (check.kind == check_kind::contains) {
    const bool found = answer.find(check.text) != std::string::npos;
    return check_outcome(check, found ? verdict::pass : verdict::fail,
                         found ? "found" : "the answer " + check_quote(answer) + " does not contain it");
  }
  if (check.kind == check_kind::regex) {
    try {
      const std::regex pattern(check.text, std::regex::ECMAScript);
      const bool found = std::regex_search(answer, pattern);
      return check_outcome(check, found ? verdict::pass : verdict::fail,
                           found ? "matches" : "the answer " + check_quote(answer) + " does not match");
    } catch (const std::regex_error& e) {  // checked when the suite was read; the engine's limits still apply
      return check_outcome(check, verdict::error, std::string("cannot be evaluated: ") + e.what());
    }
  }
  auto parsed = parse_json(answer);
  if (!parsed) return check_outcome(check, verdict::fail, "the answer is not JSON: " + parsed.err().message);
  auto valid = tools::validate_arguments(*parsed, check.schema);
  if (valid) return check_outcome(check, verdict::pass, "valid");
  if (valid.err().code == errc::internal) {
    return check_outcome(check, verdict::error, "cannot be evaluated: " + valid.err().message);
  }
  return check_outcome(check, verdict::fail, valid.err().message);
}

check_result check_structure(const check_spec& check, const tree_summary& tree) {
  if (check.kind == check_kind::asked) {
    const auto asked = tree.members_asked();
    std::vector<std::string> missing;
    for (const auto& member : check.members) {
      if (std::find(asked.begin(), asked.end(), member) == asked.end()) missing.push_back(member);
    }
    if (missing.empty()) return check_outcome(check, verdict::pass, "asked");
    return check_outcome(
        check, verdict::fail,
        "not asked: " + join(missing, ", ") + " (asked: " + (asked.empty() ? "nobody" : join(asked, ", ")) + ")");
  }
  const auto tools = tree.tools_called();
  const bool called = std::find(tools.begin(), tools.end(), check.text) != tools.end();
  const std::string seen = "called: " + (tools.empty() ? std::string("no tool") : join(tools, ", "));
  if (check.kind == check_kind::tool_called) return check_outcome(check, called ? verdict::pass : verdict::fail, seen);
  return check_outcome(check, called ? verdict::fail : verdict::pass, seen);
}

check_result check_limits(const check_spec& check, const tree_summary& tree) {
  const member_stats& total = tree.total;
  if (check.kind == check_kind::max_cost) {
    if (total.unpriced_calls > 0) {
      return check_outcome(check, verdict::error,
                           "cannot be evaluated: " + std::to_string(total.unpriced_calls) +
                               " model calls have no declared price (team.yaml models: prices)");
    }
    return check_outcome(check, total.cost_usd <= check.limit ? verdict::pass : verdict::fail,
                         "cost $" + format_number(total.cost_usd));
  }
  const bool rounds = check.kind == check_kind::max_rounds;
  const std::int64_t used = rounds ? total.rounds : total.input_tokens + total.output_tokens;
  return check_outcome(check, static_cast<double>(used) <= check.limit ? verdict::pass : verdict::fail,
                       std::to_string(used) + (rounds ? " rounds" : " tokens"));
}

}  // namespace

const char* verdict_name(verdict value) noexcept {
  switch (value) {
    case verdict::pass:
      return "pass";
    case verdict::fail:
      return "fail";
    case verdict::error:
      return "error";
  }
  return "error";
}

check_result evaluate_check(const check_spec& check, const tree_summary& tree) {
  switch (check.kind) {
    case check_kind::contains:
    case check_kind::regex:
    case check_kind::json_schema:
      return check_text(check, tree);
    case check_kind::asked:
    case check_kind::tool_called:
    case check_kind::tool_not_called:
      return check_structure(check, tree);
    case check_kind::max_rounds:
    case check_kind::max_tokens:
    case check_kind::max_cost:
      return check_limits(check, tree);
    case check_kind::judge:
      break;
  }
  return check_outcome(check, verdict::error, "cannot be evaluated here: a judge runs a model");
}

std::string judge_prompt(const check_spec& check, std::string_view task, std::string_view answer) {
  return "You judge an answer against a rubric.\n\n## Rubric\n" + check.judge.rubric + "\n\n## Task\n" +
         std::string(task) + "\n\n## Answer\n" + std::string(answer) +
         "\n\nReply with one JSON object and nothing else: "
         "{\"verdict\": \"pass\" or \"fail\", \"reasons\": \"why, in a sentence or two\"}";
}

check_result read_judge_verdict(const check_spec& check, std::string_view reply) {
  const auto open = reply.find('{');
  const auto close = reply.rfind('}');
  if (open == std::string_view::npos || close == std::string_view::npos || close < open) {
    return check_outcome(check, verdict::error, "judge error: the reply holds no JSON object: " + check_quote(reply));
  }
  auto parsed = parse_json(reply.substr(open, close - open + 1));
  if (!parsed || !parsed->is_object()) {
    return check_outcome(check, verdict::error, "judge error: the reply is not a JSON object: " + check_quote(reply));
  }
  const auto& object = parsed->as_object();
  const auto* said = object.if_contains("verdict");
  const auto* reasons = object.if_contains("reasons");
  if (said == nullptr || !said->is_string() || (said->as_string() != "pass" && said->as_string() != "fail")) {
    return check_outcome(check, verdict::error, "judge error: field 'verdict': expected \"pass\" or \"fail\"");
  }
  if (reasons == nullptr || !reasons->is_string() || reasons->as_string().empty()) {
    return check_outcome(check, verdict::error, "judge error: field 'reasons': expected a non-empty string");
  }
  const bool passed = said->as_string() == "pass";
  auto out = check_outcome(check, passed ? verdict::pass : verdict::fail,
                           std::string("the judge says ") + (passed ? "pass" : "fail"));
  out.reasons = std::string(reasons->as_string());
  return out;
}

}  // namespace parley::eval

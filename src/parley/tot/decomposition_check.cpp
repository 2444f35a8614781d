#include "parley/tot/decomposition_check.hpp"

#include <array>
#include <string_view>

#include "parley/tot/protocol_json.hpp"

namespace parley::tot {
namespace {

struct constraint_sense {
  bool negated = false;
  std::string core;
};

bool strip_constraint_prefix(std::string& text, std::string_view prefix) {
  if (!text.starts_with(prefix)) return false;
  text.erase(0, prefix.size());
  while (!text.empty() && text.front() == ' ') text.erase(0, 1);
  return true;
}

constraint_sense sense_of_constraint(std::string_view text) {
  std::string s;
  bool blank = false;
  for (const char c : text) {
    const bool space = c == ' ' || c == '\t' || c == '\n' || c == '\r';
    if (space) {
      blank = !s.empty();
      continue;
    }
    if (blank) s += ' ';
    blank = false;
    s += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  }
  while (!s.empty() && (s.back() == '.' || s.back() == ';')) s.pop_back();
  (void)(strip_constraint_prefix(s, "must") || strip_constraint_prefix(s, "should") ||
         strip_constraint_prefix(s, "必须") || strip_constraint_prefix(s, "应该"));
  // Longest first: "不能" before "不".
  static constexpr std::array<std::string_view, 12> kNegations{"do not", "don't", "cannot", "can't", "never", "not",
                                                               "no",     "不能",  "不得",   "不要",  "禁止",  "不"};
  constraint_sense out;
  for (const auto negation : kNegations) {
    // An English word must end where the prefix does ("no" is not "normal").
    const bool ascii = static_cast<unsigned char>(negation[0]) < 0x80;
    if (s.starts_with(negation) && (!ascii || s.size() == negation.size() || s[negation.size()] == ' ')) {
      strip_constraint_prefix(s, negation);
      out.negated = true;
      break;
    }
  }
  (void)(strip_constraint_prefix(s, "must") || strip_constraint_prefix(s, "be") || strip_constraint_prefix(s, "必须"));
  out.core = std::move(s);
  return out;
}

}  // namespace

std::optional<std::pair<std::string, std::string>> contradictory_constraints(
    const std::vector<std::string>& constraints) {
  std::vector<constraint_sense> senses;
  senses.reserve(constraints.size());
  for (const auto& c : constraints) senses.push_back(sense_of_constraint(c));
  for (std::size_t i = 0; i < senses.size(); ++i) {
    for (std::size_t j = i + 1; j < senses.size(); ++j) {
      if (!senses[i].core.empty() && senses[i].core == senses[j].core && senses[i].negated != senses[j].negated)
        return std::pair{constraints[i], constraints[j]};
    }
  }
  return std::nullopt;
}

std::optional<protocol_error> check_decomposition(const decomposition_result& decomposition) {
  // protocol_read refuses these already; checked again here for a decomposition built in code.
  if (decomposition.depth_estimate < 1 || decomposition.depth_estimate > kMaxSearchDepth) {
    return protocol_error{
        error_code::invalid_format,
        "decomposer: depth_estimate: " + std::to_string(decomposition.depth_estimate) + " is outside 1–10", false};
  }
  if (auto pair = contradictory_constraints(decomposition.constraints)) {
    return protocol_error{error_code::invalid_format,
                          "decomposer: constraints: '" + pair->first.substr(0, 120) + "' and '" +
                              pair->second.substr(0, 120) + "' contradict each other",
                          false};
  }
  return std::nullopt;
}

void apply_decomposition(explorer_options& options, const decomposition_result& decomposition, bool depth_given) {
  if (!depth_given) options.config.max_depth = decomposition.depth_estimate;
  options.constraints = decomposition.constraints;
}

}  // namespace parley::tot

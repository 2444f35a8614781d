// An eval suite (docs/eval.md "The suite file"): a YAML file whose top-level `cases:` lists cases,
// each a team, a first message, scripted answers to the team's questions and checks on the outcome.
// Read with the config module's YAML reader, so every error is `FILE:LINE:COLUMN: path: problem`.
// A problem of the file as a whole (syntax, no `cases`) refuses the suite; a problem of one case (an
// unknown check, a missing team, a bad regex) makes that case an error and the others still run.
#pragma once

#include <boost/json/object.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "parley/core/result.hpp"

namespace parley::eval {

enum class check_kind {
  contains,
  regex,
  json_schema,
  asked,
  tool_called,
  tool_not_called,
  max_rounds,
  max_tokens,
  max_cost,
  judge,
};
const char* check_kind_name(check_kind kind) noexcept;

struct judge_spec {
  std::filesystem::path team;  // a team file or a folder with `.minds/`, relative to the suite
  std::string member;          // empty: the judge team's default member
  std::string rubric;
};

struct check_spec {
  check_kind kind = check_kind::contains;
  std::string where;                 // "FILE:LINE:COLUMN" of the check
  std::string text;                  // contains, regex: the text; tool_called, tool_not_called: the tool
  std::vector<std::string> members;  // asked
  boost::json::object schema;        // json_schema
  double limit = 0;                  // max_rounds, max_tokens, max_cost
  judge_spec judge;
  std::string label() const;  // "contains: 864", "max_rounds: 10"
};

struct scripted_answer {
  std::string question;  // a text the question must contain; empty: any question
  std::string answer;
};

struct eval_case {
  std::string name;
  std::string where;  // "FILE:LINE:COLUMN" of the case
  std::filesystem::path team;
  std::string member;  // empty: the team's default member
  std::string message;
  std::vector<scripted_answer> answers;
  std::vector<check_spec> checks;
  // The case cannot run: `FILE:LINE:COLUMN: path: problem`. Reported as the case's error.
  std::optional<std::string> error;
};

struct eval_suite {
  std::filesystem::path file;
  std::vector<eval_case> cases;
};

// Bounds that keep one suite from asking for unbounded work.
inline constexpr std::size_t kMaxSuiteCases = 10'000;
inline constexpr std::size_t kMaxCaseAnswers = 32;

result<eval_suite> load_suite(const std::filesystem::path& file);
// `text` as if read from `file` (relative team paths resolve against its folder).
result<eval_suite> parse_suite(const std::filesystem::path& file, const std::string& text);

}  // namespace parley::eval

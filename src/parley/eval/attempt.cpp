// One attempt of a case and a judge's verdict: roots driven by a team's engine, read back from the
// store and checked.
#include <algorithm>
#include <optional>

#include "parley/core/ids.hpp"
#include "parley/core/time.hpp"
#include "parley/eval/team_engines.hpp"
#include "parley/eval/tree_summary.hpp"

namespace parley::eval {
namespace {

namespace asio = boost::asio;

struct open_eval_question {
  std::string dialog_id;
  std::string question_id;
  std::string text;
};

// The first question of the tree (in the order the dialogs were made) not yet answered.
result<std::optional<open_eval_question>> first_open_question(store& log, const std::string& root_id) {
  auto events = read_tree(log, root_id);
  if (!events) return std::move(events).err();
  std::vector<open_eval_question> asked;
  std::vector<std::string> answered;
  for (const auto& ev : *events) {
    if (const auto* question = ev.as<events::question_asked>()) {
      asked.push_back({ev.dialog_id, question->question_id, question->tellask_content});
    } else if (const auto* answer = ev.as<events::question_answered>()) {
      answered.push_back(answer->question_id);
    }
  }
  for (auto& question : asked) {
    if (std::find(answered.begin(), answered.end(), question.question_id) == answered.end()) {
      return std::optional<open_eval_question>(std::move(question));
    }
  }
  return std::optional<open_eval_question>{};
}

std::optional<std::size_t> pick_answer(const std::vector<scripted_answer>& answers, std::vector<bool>& used,
                                       const std::string& question) {
  for (std::size_t i = 0; i < answers.size(); ++i) {
    if (used[i]) continue;
    if (answers[i].question.empty() || question.find(answers[i].question) != std::string::npos) {
      used[i] = true;
      return i;
    }
  }
  return std::nullopt;
}

asio::awaitable<check_result> run_judge(team_engines& engines, store& log, const check_spec& check,
                                        const std::string& task, const std::string& answer) {
  check_result out;
  out.check = check.label();
  out.where = check.where;
  auto eng = engines.engine_of(check.judge.team);
  if (!eng) {
    out.message = "cannot be evaluated: " + eng.err().message;
    co_return out;
  }
  std::string problem;
  const std::vector<scripted_answer> none;
  root_spec spec{check.judge.member, "eval judge", judge_prompt(check, task, answer), engines.owner()};
  auto root = co_await run_root(**eng, log, std::move(spec), none, problem);
  if (!root) {
    out.message = "judge error: " + root.err().message;
    co_return out;
  }
  auto events = read_tree(log, *root);
  if (!events) {
    out.message = "judge error: " + events.err().message;
    co_return out;
  }
  const auto tree = summarize_tree(*root, *events, nullptr);
  const auto& verdict_root = tree.dialogs.front();
  if (!problem.empty() || !verdict_root.last_error.empty()) {
    out.message = "judge error: " + (problem.empty() ? verdict_root.last_error : problem);
  } else {
    out = read_judge_verdict(check, verdict_root.final_answer);
  }
  out.judge_root = *root;
  co_return out;
}

verdict attempt_outcome(const case_attempt& attempt) {
  if (!attempt.error.empty()) return verdict::error;
  verdict outcome = verdict::pass;
  for (const auto& check : attempt.checks) {
    if (check.outcome == verdict::error) return verdict::error;
    if (check.outcome == verdict::fail) outcome = verdict::fail;
  }
  return outcome;
}

// The tree's failures (a drive that stopped) as the attempt's error.
std::string tree_failure(const tree_summary& tree) {
  for (const auto& dialog : tree.dialogs) {
    if (!dialog.last_error.empty())
      return "dialog " + dialog.id + " (@" + dialog.member_id + ") stopped: " + dialog.last_error;
  }
  return {};
}

}  // namespace

asio::awaitable<result<std::string>> run_root(engine::engine& eng, store& log, root_spec root,
                                              const std::vector<scripted_answer>& answers, std::string& problem) {
  engine::new_dialog spec;
  spec.member_id = std::move(root.member);
  spec.title = std::move(root.title);
  spec.first_message = std::move(root.message);
  if (!root.owner.empty()) spec.humans.push_back(std::move(root.owner));
  auto id = co_await eng.create_root_dialog(std::move(spec));
  if (!id) co_return std::move(id).err();
  std::vector<bool> used(answers.size(), false);
  for (std::size_t given = 0;; ++given) {
    co_await eng.runs().wait_until_settled(*id);
    auto open = first_open_question(log, *id);
    if (!open) co_return std::move(open).err();
    if (!*open) break;
    const auto pick = given < kMaxCaseAnswers ? pick_answer(answers, used, (*open)->text) : std::nullopt;
    if (!pick) {
      problem = "no scripted answer fits the question '" + (*open)->text + "' (dialog " + (*open)->dialog_id + ")";
      break;
    }
    engine::user_answer reply{(*open)->dialog_id, answers[*pick].answer, new_uuid(), (*open)->question_id};
    auto answered = co_await eng.questions().answer_question(std::move(reply));
    if (!answered) co_return std::move(answered).err();
  }
  co_return *id;
}

asio::awaitable<case_attempt> run_attempt(team_engines& engines, store& log, const eval_case& one, int attempt) {
  case_attempt out;
  out.attempt = attempt;
  const std::int64_t started = now_ms();
  auto eng =
      one.error ? result<engine::engine*>(make_error(errc::config_error, *one.error)) : engines.engine_of(one.team);
  if (!eng) {
    out.error = eng.err().message;
    co_return out;
  }
  std::string problem;
  root_spec spec{one.member, "eval: " + one.name, one.message, engines.owner()};
  auto root = co_await run_root(**eng, log, std::move(spec), one.answers, problem);
  if (!root) {
    out.error = root.err().message;
    co_return out;
  }
  out.root_id = *root;
  auto events = read_tree(log, *root);
  if (!events) {
    out.error = events.err().message;
    co_return out;
  }
  const auto tree = summarize_tree(*root, *events, &(*eng)->team());
  out.answer = tree.dialogs.front().final_answer;
  out.rounds = tree.total.rounds;
  out.tokens = tree.total.input_tokens + tree.total.output_tokens;
  out.cost_usd = tree.total.cost_usd;
  out.error = problem.empty() ? tree_failure(tree) : problem;
  if (out.error.empty()) {
    for (const auto& check : one.checks) {
      if (check.kind != check_kind::judge) {
        out.checks.push_back(evaluate_check(check, tree));
        continue;
      }
      auto judged = co_await run_judge(engines, log, check, one.message, out.answer);
      out.checks.push_back(std::move(judged));
    }
  }
  out.outcome = attempt_outcome(out);
  out.duration_ms = now_ms() - started;
  co_return out;
}

}  // namespace parley::eval

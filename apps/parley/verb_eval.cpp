// `parley eval SUITE.yaml`: run a suite of cases against their teams, each case a root tree in the
// store, and report pass, fail or error per case (docs/eval.md). Exit status 0 when every attempt
// passed, 1 when one failed or was an error, 2 for a suite that does not read.
#include <cstdio>

#include "cli_context.hpp"
#include "cli_messages.hpp"
#include "parley/core/file_io.hpp"
#include "parley/core/terminal_text.hpp"
#include "parley/eval/compare.hpp"
#include "parley/eval/reports.hpp"
#include "parley/eval/run_store.hpp"
#include "verb_usage.hpp"
#include "verbs.hpp"

namespace parley::cli {
namespace {

namespace fs = std::filesystem;

void print_eval_case(const eval::case_report& one) {
  // The verdicts (pass, fail, error) are key words, as in the reports; the rest is said.
  char verdict[16];
  std::snprintf(verdict, sizeof verdict, "%-5s", eval::verdict_name(one.outcome()));
  const std::string passed = std::to_string(one.passed());
  const std::string attempts = std::to_string(one.attempts.size());
  std::printf(
      "%s\n",
      say_cli(msg::eval_case,
              {{"verdict", verdict}, {"name", terminal_safe(one.name)}, {"passed", passed}, {"attempts", attempts}})
          .c_str());
  for (const auto& attempt : one.attempts) {
    const std::string root =
        attempt.root_id.empty() ? std::string() : say_cli(msg::eval_root, {{"id", terminal_safe(attempt.root_id)}});
    const std::string n = std::to_string(attempt.attempt);
    if (!attempt.error.empty()) {
      std::printf("%s\n",
                  say_cli(msg::eval_attempt_error, {{"n", n}, {"root", root}, {"error", terminal_safe(attempt.error)}})
                      .c_str());
    }
    for (const auto& check : attempt.checks) {
      if (check.outcome == eval::verdict::pass) continue;
      std::printf("%s\n", say_cli(msg::eval_check, {{"n", n},
                                                    {"verdict", eval::verdict_name(check.outcome)},
                                                    {"root", root},
                                                    {"check", terminal_safe(check.check)},
                                                    {"message", terminal_safe(check.message)}})
                              .c_str());
      if (!check.reasons.empty()) {
        std::printf("%s\n", say_cli(msg::eval_reasons, {{"reasons", terminal_safe(check.reasons)}}).c_str());
      }
    }
  }
}

void print_eval_comparison(const std::vector<eval::case_comparison>& rows) {
  std::printf("%s\n", say_cli(msg::eval_compared).c_str());
  for (const auto& row : rows) {
    const auto rate = [](const std::optional<double>& value) {
      return value ? std::to_string(static_cast<int>(*value * 100.0 + 0.5)) + "%" : std::string("-");
    };
    std::printf("  %-6s %s (%s -> %s)\n", row.change.c_str(), terminal_safe(row.name).c_str(), rate(row.before).c_str(),
                rate(row.after).c_str());
    if (!row.diff_problem.empty()) {
      std::printf("%s\n", say_cli(msg::eval_no_diff, {{"problem", terminal_safe(row.diff_problem)}}).c_str());
    }
    if (!row.diff) continue;
    std::string text = eval::diff_to_text(*row.diff, cli_language());  // already made terminal-safe
    std::string indented;
    for (std::size_t start = 0; start < text.size();) {
      const std::size_t end = text.find('\n', start);
      indented += "    " + text.substr(start, end - start) + "\n";
      start = end == std::string::npos ? text.size() : end + 1;
    }
    std::fputs(indented.c_str(), stdout);
  }
}

result<eval::run_options> eval_options(const parsed_args& args) {
  eval::run_options options;
  auto repeat = args.integer("repeat", 1, eval::kMaxRepeat);
  if (!repeat) return std::move(repeat).err();
  auto concurrency = args.integer("concurrency", 1, eval::kMaxConcurrency);
  if (!concurrency) return std::move(concurrency).err();
  options.repeat = static_cast<int>(repeat->value_or(1));
  options.concurrency = static_cast<int>(concurrency->value_or(4));
  // Whose run it is: the server shows it (and its trees) to that user only (docs/eval.md "Runs").
  if (const auto user = args.value("user")) {
    if (!eval::valid_run_owner(*user)) {
      return make_error(errc::invalid_argument,
                        "--user: expected a user id as `parley serve --users` names them ([A-Za-z][A-Za-z0-9_-]*, at "
                        "most 64 characters)");
    }
    options.owner = *user;
  }
  options.protected_dirs = {data_dir_of(args)};
  return options;
}

// --junit and --html, after the run is saved: a file that cannot be written is reported, the run stays.
result<void> write_eval_reports(const parsed_args& args, const eval::eval_run& run,
                                const std::vector<eval::case_comparison>& comparison) {
  if (const auto junit = args.value("junit")) PARLEY_TRY(write_file_atomically(*junit, eval::junit_xml(run)));
  if (const auto html = args.value("html")) {
    std::error_code ec;
    fs::create_directories(*html, ec);
    if (ec) return make_error(errc::io_error, "--html " + *html + ": " + ec.message());
    PARLEY_TRY(write_file_atomically(fs::path(*html) / "index.html", eval::html_report(run, comparison)));
  }
  return ok();
}

}  // namespace

int run_verb_eval(const std::vector<std::string>& raw) {
  auto args = parse_args(raw, arg_spec_of("eval"));
  if (!args) return report(args.err());
  if (args->help) return show_verb_help();
  if (args->positionals.size() != 1) return report(make_error(errc::invalid_argument, usage_of("eval")));
  auto options = eval_options(*args);
  if (!options) return report(options.err());
  auto suite = eval::load_suite(args->positionals[0]);
  if (!suite) return report(make_error(errc::config_error, suite.err().message));
  const fs::path data_dir = data_dir_of(*args);
  auto log = open_data_store(data_dir);
  if (!log) return report(log.err());
  std::optional<eval::eval_run> earlier;
  if (const auto compare = args->value("compare")) {
    auto loaded = eval::load_run(data_dir, *compare);
    if (!loaded) return report(loaded.err());
    earlier = std::move(*loaded);
  }
  auto run = eval::run_suite(*suite, **log, *options);
  if (earlier) run.compared_with = earlier->id;
  if (auto saved = eval::save_run(data_dir, run); !saved) return report(saved.err());
  for (const auto& one : run.cases) print_eval_case(one);
  std::vector<eval::case_comparison> comparison;
  if (earlier) {
    comparison = eval::compare_runs(*earlier, run, **log);
    print_eval_comparison(comparison);
  }
  if (auto written = write_eval_reports(*args, run, comparison); !written) return report(written.err());
  std::int64_t passed = 0;
  std::size_t attempts = 0;
  for (const auto& one : run.cases) {
    passed += one.passed();
    attempts += one.attempts.size();
  }
  char percent[16];
  std::snprintf(percent, sizeof percent, "%.0f", run.pass_rate() * 100.0);
  const std::string passed_text = std::to_string(passed);
  const std::string attempts_text = std::to_string(attempts);
  std::printf("%s\n",
              say_cli(msg::eval_run_summary,
                      {{"id", run.id}, {"passed", passed_text}, {"attempts", attempts_text}, {"percent", percent}})
                  .c_str());
  return passed == static_cast<std::int64_t>(attempts) ? kExitOk : kExitRuntime;
}

}  // namespace parley::cli

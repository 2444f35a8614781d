// Runs an eval suite: each case (each of its `repeat` attempts) is a root tree in the store, driven
// by an engine of the case's team against its providers — offline, the scripted model — with the
// case's scripted answers given to the questions its team asks the human. Up to `concurrency`
// attempts run at once on one single-threaded io_context; one engine per distinct team file serves
// every case of that team (as one server serves many roots).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "parley/eval/checks.hpp"
#include "parley/eval/suite.hpp"
#include "parley/store/store.hpp"

namespace parley::eval {

struct case_attempt {
  int attempt = 1;      // 1-based, up to --repeat
  std::string root_id;  // the tree in the store ("" when the case could not start)
  verdict outcome = verdict::error;
  std::string error;  // why the attempt is an error (the case's, the team's, the drive's)
  std::vector<check_result> checks;
  std::string answer;  // the root's final answer
  std::int64_t rounds = 0;
  std::int64_t tokens = 0;
  double cost_usd = 0;
  std::int64_t duration_ms = 0;
};

struct case_report {
  std::string name;
  std::string where;  // FILE:LINE:COLUMN of the case
  std::vector<case_attempt> attempts;
  std::int64_t passed() const;
  double pass_rate() const;  // passed attempts / attempts
  verdict outcome() const;   // pass when every attempt passed; error when any was an error; else fail
};

struct eval_run {
  std::string id;
  std::string suite;  // the suite file as given
  std::int64_t started_ms = 0;
  std::int64_t finished_ms = 0;
  int repeat = 1;
  // The user the run and its trees belong to (`parley eval --user`): each tree's root has them as
  // its human, and the server shows the run to whoever may see those trees. "" for no one's (the
  // operator's, as a dialog no human takes part in).
  std::string owner;
  std::string compared_with;  // the run `--compare` put this one beside, "" for none
  std::vector<case_report> cases;
  double pass_rate() const;  // over every attempt of every case
};

struct run_options {
  int repeat = 1;
  int concurrency = 4;
  std::string owner;  // eval_run::owner
  // Folders the team's tools must not touch (Parley's data directory).
  std::vector<std::filesystem::path> protected_dirs;
};

inline constexpr int kMaxRepeat = 1000;
inline constexpr int kMaxConcurrency = 64;

// Runs every case and returns the run (not yet saved: run_store.hpp). Blocks until all are done.
eval_run run_suite(const eval_suite& suite, store& log, const run_options& options);

}  // namespace parley::eval

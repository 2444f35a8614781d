// Where eval runs are kept: one JSON file per run, `<data dir>/eval-runs/<run id>.json`, written
// atomically when the run ends (docs/eval.md "Runs"). The trees of a run are in the store like any
// other root; the run file holds what the log does not: the suite, the checks and their verdicts.
// A file, not a table, because the two stores (SQLite, PostgreSQL) would each need a schema
// version for data that only `parley eval` and the runs page read; `parley backup` of the data
// directory keeps them.
#pragma once

#include <boost/json/object.hpp>

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/eval/runner.hpp"

namespace parley::eval {

std::filesystem::path runs_dir(const std::filesystem::path& data_dir);
// Whether `id` can be a run's owner: a user id as `parley serve --users` takes it.
bool valid_run_owner(std::string_view id);

boost::json::object run_to_json(const eval_run& run);
// Strict: every field named in the error ("field 'cases[0].attempts': expected an array ...").
result<eval_run> run_from_json(const boost::json::object& object);

result<void> save_run(const std::filesystem::path& data_dir, const eval_run& run);
// `id`: a run id as `parley eval` printed it ("run-" and a UUID); anything else is refused before
// a file is looked for.
result<eval_run> load_run(const std::filesystem::path& data_dir, const std::string& id);
// Every run, oldest first; a file that does not read is skipped and named in `skipped`.
result<std::vector<eval_run>> list_runs(const std::filesystem::path& data_dir, std::vector<std::string>& skipped);

}  // namespace parley::eval

#include "parley/eval/run_store.hpp"

#include <algorithm>

#include "parley/core/file_io.hpp"
#include "parley/core/file_text.hpp"
#include "parley/core/json.hpp"
#include "parley/core/json_fields.hpp"

namespace parley::eval {
namespace {

namespace fs = std::filesystem;
constexpr std::size_t kMaxRunFileBytes = std::size_t{64} << 20;

boost::json::object check_to_json(const check_result& check) {
  return {{"check", check.check},     {"where", check.where},     {"outcome", verdict_name(check.outcome)},
          {"message", check.message}, {"reasons", check.reasons}, {"judgeRoot", check.judge_root}};
}

boost::json::object attempt_to_json(const case_attempt& attempt) {
  boost::json::array checks;
  for (const auto& check : attempt.checks) checks.push_back(check_to_json(check));
  return {{"attempt", attempt.attempt}, {"rootId", attempt.root_id},   {"outcome", verdict_name(attempt.outcome)},
          {"error", attempt.error},     {"answer", attempt.answer},    {"rounds", attempt.rounds},
          {"tokens", attempt.tokens},   {"costUsd", attempt.cost_usd}, {"durationMs", attempt.duration_ms},
          {"checks", std::move(checks)}};
}

verdict read_verdict(json_fields& in, std::string_view key) {
  const std::string text = in.string(key);
  for (const verdict value : {verdict::pass, verdict::fail, verdict::error}) {
    if (text == verdict_name(value)) return value;
  }
  if (in.ok()) in.fail(key, "expected pass, fail or error, got '" + text + "'");
  return verdict::error;
}

// Reads each object of `array` with `read`, under `where[i]`.
template <class T, class Read>
std::vector<T> read_each(json_fields& in, std::string_view key, Read read) {
  std::vector<T> out;
  const auto* array = in.array(key);
  if (array == nullptr) return out;
  for (std::size_t i = 0; i < array->size(); ++i) {
    const std::string where = in.path_of(key) + "[" + std::to_string(i) + "]";
    if (!(*array)[i].is_object()) {
      in.fail(std::string(key) + "[" + std::to_string(i) + "]", "expected an object");
      return out;
    }
    json_fields item((*array)[i].as_object(), where);
    out.push_back(read(item));
    if (!item.ok()) {
      in.adopt(item);
      return out;
    }
  }
  return out;
}

check_result check_from_json(json_fields& in) {
  check_result out;
  out.check = in.string("check");
  out.where = in.string("where");
  out.outcome = read_verdict(in, "outcome");
  out.message = in.string("message");
  out.reasons = in.string("reasons");
  out.judge_root = in.string("judgeRoot");
  return out;
}

case_attempt attempt_from_json(json_fields& in) {
  case_attempt out;
  out.attempt = static_cast<int>(in.integer("attempt"));
  out.root_id = in.string("rootId");
  out.outcome = read_verdict(in, "outcome");
  out.error = in.string("error");
  out.answer = in.string("answer");
  out.rounds = in.integer("rounds");
  out.tokens = in.integer("tokens");
  out.cost_usd = in.number("costUsd");
  out.duration_ms = in.integer("durationMs");
  out.checks = read_each<check_result>(in, "checks", check_from_json);
  return out;
}

case_report case_from_json(json_fields& in) {
  case_report out;
  out.name = in.string("name");
  out.where = in.string("where");
  out.attempts = read_each<case_attempt>(in, "attempts", attempt_from_json);
  return out;
}

// A user id as `parley serve --users` takes it (docs/server.md): [A-Za-z][A-Za-z0-9_-]*, at most 64.
bool valid_run_owner_text(std::string_view id) {
  const auto alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  if (id.empty() || id.size() > 64 || !alpha(id.front())) return false;
  return std::all_of(id.begin(), id.end(),
                     [&](char c) { return alpha(c) || (c >= '0' && c <= '9') || c == '_' || c == '-'; });
}

bool valid_run_id(const std::string& id) {
  if (id.size() < 5 || id.size() > 64 || id.rfind("run-", 0) != 0) return false;
  return std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-';
  });
}

}  // namespace

fs::path runs_dir(const fs::path& data_dir) { return data_dir / "eval-runs"; }

bool valid_run_owner(std::string_view id) { return valid_run_owner_text(id); }

boost::json::object run_to_json(const eval_run& run) {
  boost::json::array cases;
  for (const auto& one : run.cases) {
    boost::json::array attempts;
    for (const auto& attempt : one.attempts) attempts.push_back(attempt_to_json(attempt));
    cases.push_back({{"name", one.name},
                     {"where", one.where},
                     {"outcome", verdict_name(one.outcome())},
                     {"passRate", one.pass_rate()},
                     {"attempts", std::move(attempts)}});
  }
  boost::json::object out{
      {"id", run.id},         {"suite", run.suite}, {"startedMs", run.started_ms}, {"finishedMs", run.finished_ms},
      {"repeat", run.repeat}, {"owner", run.owner}, {"passRate", run.pass_rate()}, {"cases", std::move(cases)}};
  if (!run.compared_with.empty()) out["comparedWith"] = run.compared_with;
  return out;
}

result<eval_run> run_from_json(const boost::json::object& object) {
  json_fields in(object);
  eval_run run;
  run.id = in.string("id");
  run.suite = in.string("suite");
  run.started_ms = in.integer("startedMs");
  run.finished_ms = in.integer("finishedMs");
  run.repeat = static_cast<int>(in.integer("repeat"));
  // Absent in the files of runs made before runs had owners: those are no one's, as "" says.
  run.owner = in.optional_string("owner").value_or("");
  if (!run.owner.empty() && !valid_run_owner_text(run.owner))
    in.fail("owner", "expected a user id ([A-Za-z][A-Za-z0-9_-]*, at most 64) or \"\"");
  run.compared_with = in.optional_string("comparedWith").value_or("");
  if (!run.compared_with.empty() && !valid_run_id(run.compared_with))
    in.fail("comparedWith", "expected an eval run id (run-...)");
  run.cases = read_each<case_report>(in, "cases", case_from_json);
  if (!in.ok()) return in.status().err();
  return run;
}

result<void> save_run(const fs::path& data_dir, const eval_run& run) {
  std::error_code ec;
  fs::create_directories(runs_dir(data_dir), ec);
  if (ec) return make_error(errc::io_error, runs_dir(data_dir).string() + ": " + ec.message());
  return write_file_atomically(runs_dir(data_dir) / (run.id + ".json"), to_json_text(run_to_json(run)) + "\n");
}

result<eval_run> load_run(const fs::path& data_dir, const std::string& id) {
  if (!valid_run_id(id)) return make_error(errc::invalid_argument, "'" + id + "' is not an eval run id (run-...)");
  const fs::path file = runs_dir(data_dir) / (id + ".json");
  std::error_code ec;
  if (!fs::exists(file, ec))
    return make_error(errc::not_found, "no eval run '" + id + "' in " + runs_dir(data_dir).string());
  auto text = read_regular_file(file, errc::io_error, kMaxRunFileBytes);
  if (!text) return std::move(text).err();
  auto parsed = parse_json(*text);
  if (!parsed) return make_error(errc::corrupt, file.string() + ": " + parsed.err().message);
  if (!parsed->is_object()) return make_error(errc::corrupt, file.string() + ": expected a JSON object");
  auto run = run_from_json(parsed->as_object());
  if (!run) return make_error(errc::corrupt, file.string() + ": " + run.err().message);
  return run;
}

result<std::vector<eval_run>> list_runs(const fs::path& data_dir, std::vector<std::string>& skipped) {
  std::vector<eval_run> runs;
  std::error_code ec;
  if (!fs::is_directory(runs_dir(data_dir), ec)) return runs;
  for (const auto& entry : fs::directory_iterator(runs_dir(data_dir), ec)) {
    if (entry.path().extension() != ".json") continue;
    auto run = load_run(data_dir, entry.path().stem().string());
    if (run) {
      runs.push_back(std::move(*run));
    } else {
      skipped.push_back(run.err().message);
    }
  }
  if (ec) return make_error(errc::io_error, runs_dir(data_dir).string() + ": " + ec.message());
  std::sort(runs.begin(), runs.end(), [](const eval_run& a, const eval_run& b) {
    return a.started_ms != b.started_ms ? a.started_ms < b.started_ms : a.id < b.id;
  });
  return runs;
}

}  // namespace parley::eval

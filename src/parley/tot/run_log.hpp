// Seed 003's log folder of one ToT run: `logs/tot-YYYYMMDD-HHMMSS-<6 chars>/` under the data
// directory, with `00-task-info.json`, one JSON-Lines file per agent call named
// `{seq}-{agent}[-roundN].log` whose lines are {ts, seq, level, msg, data?}, each buffered and
// written once when its call ends (so a crash leaves every finished call readable), and
// `99-merged-timeline.log`, every entry merged by (ts, seq) in the seed's human-readable format
// with its statistics block.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "parley/core/json.hpp"
#include "parley/core/result.hpp"
#include "parley/core/vocabulary.hpp"
#include "parley/tot/protocol.hpp"

namespace parley::tot {

// `status` in 00-task-info.json: running until the run ends, then completed (solved) or failed.
enum class task_status { running, completed, failed };

}  // namespace parley::tot

namespace parley {

template <>
struct vocabulary<tot::task_status> {
  static constexpr std::array<std::pair<tot::task_status, std::string_view>, 3> values{
      {{tot::task_status::running, "running"},
       {tot::task_status::completed, "completed"},
       {tot::task_status::failed, "failed"}}};
};

}  // namespace parley

namespace parley::tot {

struct log_entry {
  std::int64_t ts_ms = 0;
  std::int64_t seq = 0;
  std::string level;  // info | progress | warning | error
  std::string msg;
  json::object data;  // left out of the line when empty
};

// One agent call's entries, collected in memory and written at once.
class log_buffer {
 public:
  void add(std::string_view level, std::string msg, json::object data = {});
  const std::vector<log_entry>& entries() const noexcept { return entries_; }

 private:
  std::vector<log_entry> entries_;
};

std::string to_json_line(const log_entry& entry);
// errc::corrupt naming the field when one is missing or of the wrong type.
result<log_entry> read_json_line(std::string_view line);

// What is read back of a run's 00-task-info.json (tot_run.cpp's task_info writes it).
struct task_info_fields {
  std::string problem;
  std::string task_type;
  std::string start_time;
  task_status status = task_status::running;
  std::string end_time;                   // absent until the run ends
  std::int64_t duration_ms = 0;           // likewise
  std::vector<std::string> root_dialogs;  // older runs wrote one root_dialog instead; it is read into this
};
// errc::corrupt naming the field.
result<task_info_fields> read_task_info_fields(const json::object& info);

class run_folder {
 public:
  // A new folder in `logs_dir` named for `start_ms` with six random characters (run_logs.hpp
  // says which logs folder).
  static result<run_folder> create_in(const std::filesystem::path& logs_dir, std::int64_t start_ms);
  // An existing run's folder in `logs_dir`, by its task id (tot-…): for --resume.
  static result<run_folder> open_in(const std::filesystem::path& logs_dir, const std::string& task_id);

  const std::string& task_id() const noexcept { return task_id_; }
  const std::filesystem::path& dir() const noexcept { return dir_; }

  // The file of `role`'s next round: "04-generator-round1.log". The orchestrator, decomposer,
  // explorer and synthesizer are called once and have no round.
  std::string reserve(agent_role role);
  // Seed 003: "轮次: 如果同一个 agent 被多次调用,添加 round1, round2…" — a round agent this run
  // called in one round only loses its "-round1" (04-generator-round1.log → 04-generator.log).
  result<void> finish_names();
  // The ThoughtTree as the search left it (search state: current depth, frontier, best path).
  result<void> write_thought_tree(const json::value& tree) const;
  result<void> write(const std::string& file_name, const log_buffer& buffer) const;
  result<void> write_task_info(const json::object& info) const;
  result<json::object> read_task_info() const;
  // Every call file's entries by file name (not 99-merged-timeline.log), in name order.
  result<std::map<std::string, std::vector<log_entry>>> read_calls() const;
  // Writes 99-merged-timeline.log from the call files and the task info.
  result<void> merge_timeline(std::int64_t llm_calls) const;

 private:
  run_folder(std::filesystem::path dir, std::string task_id) : dir_(std::move(dir)), task_id_(std::move(task_id)) {}
  std::filesystem::path dir_;
  std::string task_id_;
  int next_seq_ = 1;
  std::map<std::string, int> rounds_;
  std::map<std::string, std::vector<std::string>> reserved_rounds_;  // agent → its round files of this run
};

// The ThoughtTree file of a run's folder.
inline constexpr const char* kThoughtTreeFile = "98-thought-tree.json";

}  // namespace parley::tot

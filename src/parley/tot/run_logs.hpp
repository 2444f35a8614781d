// Where a Tree of Thoughts run's folders go and where they are found again. Seed 003 ("日志规范"):
// "每次执行 /tot 命令时,在 logs/ 目录下创建独立的任务文件夹" — the `logs/` folder of the project,
// i.e. the team's workspace, unless the user names another (`parley tot --logs DIR`,
// `parley serve --tot-logs DIR`). Runs written before that default (under DATA/logs) are still
// found, listed and resumed; new runs never go there.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/tot/run_log.hpp"

namespace parley::tot {

class run_logs {
 public:
  // `chosen` when the user named a folder, else `workspace`/logs; `data_dir`/logs is read too.
  static run_logs of(const std::filesystem::path& workspace, const std::filesystem::path& data_dir,
                     const std::optional<std::filesystem::path>& chosen = std::nullopt);
  // Only `dir`: what a caller that names one folder (a test, the bench) gets.
  static run_logs in(std::filesystem::path dir);

  const std::filesystem::path& dir() const noexcept { return folders_.front(); }
  // Every folder runs are found in, the one new runs go to first.
  const std::vector<std::filesystem::path>& folders() const noexcept { return folders_; }

  result<run_folder> create(std::int64_t start_ms) const { return run_folder::create_in(dir(), start_ms); }
  // The run's folder in the first folder that holds it; not_found naming where it was looked for.
  result<run_folder> open(const std::string& task_id) const;

 private:
  std::vector<std::filesystem::path> folders_;
};

}  // namespace parley::tot

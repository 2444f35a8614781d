#include "parley/tot/run_logs.hpp"

#include <algorithm>
#include <system_error>

namespace parley::tot {

run_logs run_logs::of(const std::filesystem::path& workspace, const std::filesystem::path& data_dir,
                      const std::optional<std::filesystem::path>& chosen) {
  run_logs out = in(chosen ? *chosen : workspace / "logs");
  if (data_dir.empty()) return out;
  const std::filesystem::path older = data_dir / "logs";
  std::error_code ec;
  const bool same = std::filesystem::equivalent(older, out.dir(), ec) || older == out.dir();
  if (!same) out.folders_.push_back(older);
  return out;
}

run_logs run_logs::in(std::filesystem::path dir) {
  run_logs out;
  out.folders_.push_back(std::move(dir));
  return out;
}

result<run_folder> run_logs::open(const std::string& task_id) const {
  for (const auto& folder : folders_) {
    std::error_code ec;
    if (std::filesystem::is_directory(folder / task_id, ec)) return run_folder::open_in(folder, task_id);
  }
  // The first folder's own refusal: a task id that is not one, or not found there.
  return run_folder::open_in(dir(), task_id);
}

}  // namespace parley::tot

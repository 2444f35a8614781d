#include "parley/eval/team_engines.hpp"

#include "parley/config/team.hpp"
#include "parley/engine/assembly.hpp"

namespace parley::eval {
namespace {

namespace fs = std::filesystem;

result<config::team_config> load_eval_team(const fs::path& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    // A workspace with `.minds/` or the `.minds/` folder itself.
    if (fs::is_directory(path / ".minds", ec)) return config::load_dominds_workspace(path);
    if (path.filename() == ".minds") return config::load_dominds_workspace(path.parent_path());
    return make_error(errc::config_error, path.string() +
                                              ": a folder without .minds/ (expected a team file or a "
                                              "Dominds workspace)");
  }
  return config::load_team_file(path);
}

result<std::unique_ptr<engine::engine>> make_eval_engine(const boost::asio::any_io_executor& executor, store& log,
                                                         const fs::path& path,
                                                         const std::vector<fs::path>& protected_dirs) {
  auto team = load_eval_team(path);
  if (!team) return std::move(team).err();
  auto parts = engine::assemble_team(std::move(*team));
  if (!parts) return std::move(parts).err();
  auto created = engine::engine::create(executor, log, std::move(parts->team), std::move(parts->providers),
                                        std::move(parts->tools));
  if (!created) return std::move(created).err();
  std::vector<tools::protected_dir> dirs;
  for (const auto& dir : protected_dirs) dirs.push_back({fs::absolute(dir), "Parley's data directory"});
  (*created)->drives().set_protected_dirs(std::move(dirs));
  return std::move(*created);
}

}  // namespace

result<engine::engine*> team_engines::engine_of(const fs::path& team) {
  std::error_code ec;
  const fs::path canonical = fs::weakly_canonical(team, ec);
  const std::string key = ec ? team.string() : canonical.string();
  auto found = engines_.find(key);
  if (found == engines_.end()) {
    loaded entry;
    auto made = make_eval_engine(executor_, log_, team, protected_dirs_);
    if (made) {
      entry.engine = std::move(*made);
    } else {
      entry.error = made.err().message;
    }
    found = engines_.emplace(key, std::move(entry)).first;
  }
  if (!found->second.engine)
    return make_error(errc::config_error, "team " + team.string() + ": " + found->second.error);
  return found->second.engine.get();
}

void team_engines::stop() {
  for (auto& [key, entry] : engines_) {
    if (entry.engine) entry.engine->stop_mcp();
  }
}

}  // namespace parley::eval

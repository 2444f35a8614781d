#include "cli_loop.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;  // NOLINT(readability-redundant-declaration): POSIX names it for posix_spawn

namespace parley::bench {

std::vector<cli_args> read_only_verbs(const std::filesystem::path& team, const std::filesystem::path& data,
                                      const std::string& dialog_id) {
  const std::string dir = data.string();
  return {{"dialogs", "--data", dir},
          {"show", dialog_id, "--team", team.string(), "--data", dir},
          {"questions", "--team", team.string(), "--data", dir},
          {"check", "--data", dir}};
}

cli_loop::cli_loop(std::filesystem::path parley, std::vector<cli_args> verbs)
    : parley_(std::move(parley)), verbs_(std::move(verbs)) {
  thread_ = std::thread([this] { run(); });
}

cli_loop::~cli_loop() { stop(); }

void cli_loop::stop() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

void cli_loop::run() {
  for (std::size_t i = 0; !stop_ && !verbs_.empty(); ++i) {
    const int status = run_once(verbs_[i % verbs_.size()]);
    ++runs_;
    if (status != 0) ++failed_;
  }
}

int cli_loop::run_once(const cli_args& args) const {
  std::vector<std::string> owned{parley_.string()};
  owned.insert(owned.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& arg : owned) argv.push_back(arg.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  ::posix_spawn_file_actions_init(&actions);
  ::posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  ::posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  const int spawned = ::posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  ::posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return -1;
  int status = 0;
  if (::waitpid(pid, &status, 0) != pid) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::filesystem::path parley_beside_bench() {
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  return self.parent_path().parent_path() / "apps" / "parley" / "parley";
}

}  // namespace parley::bench

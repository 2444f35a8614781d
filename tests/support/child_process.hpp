// The processes tests start: a program run with posix_spawn (nothing of the test runs between the
// fork and the exec), and forked children that end the way a crashed process does. Header-only;
// POSIX.
#pragma once

#include <signal.h>
#include <spawn.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

extern char** environ;

namespace parley::test {

struct spawn_options {
  int output_fd = -1;  // stdout and stderr go here; -1: the test's own
  std::vector<std::pair<std::string, std::string>> set_env;
  std::vector<std::string> unset_env;
};

// Runs the program `argv[0]` (a path) with this process's environment changed as `options` says.
// Returns its pid, or -1 when it cannot start (the program is missing or not executable).
inline pid_t spawn_program(const std::vector<std::string>& argv, const spawn_options& options = {}) {
  std::vector<std::string> env_text;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string text(*entry);
    const std::string name = text.substr(0, text.find('='));
    bool dropped = false;
    for (const auto& unset : options.unset_env) dropped = dropped || unset == name;
    for (const auto& [set_name, value] : options.set_env) dropped = dropped || set_name == name;
    if (!dropped) env_text.push_back(text);
  }
  for (const auto& [name, value] : options.set_env) env_text.push_back(name + "=" + value);

  std::vector<char*> argv_ptrs;
  std::vector<std::string> argv_text = argv;
  for (auto& arg : argv_text) argv_ptrs.push_back(arg.data());
  argv_ptrs.push_back(nullptr);
  std::vector<char*> env_ptrs;
  for (auto& entry : env_text) env_ptrs.push_back(entry.data());
  env_ptrs.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (options.output_fd >= 0) {
    posix_spawn_file_actions_adddup2(&actions, options.output_fd, STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, options.output_fd, STDERR_FILENO);
  }
  pid_t pid = -1;
  const int failed = ::posix_spawn(&pid, argv_ptrs[0], &actions, nullptr, argv_ptrs.data(), env_ptrs.data());
  posix_spawn_file_actions_destroy(&actions);
  return failed == 0 ? pid : -1;
}

// Ends a forked child as `kill -9` would: no destructor, no atexit handler, no stdio flush, no
// close of anything it holds open. The parent checks died_by_sigkill.
[[noreturn]] inline void die_killed() {
  ::kill(::getpid(), SIGKILL);
  std::abort();  // not reached
}

// Ends a forked child that failed before the point it was to die at (the parent sees SIGABRT).
[[noreturn]] inline void give_up() { std::abort(); }

inline bool died_by_sigkill(int status) { return WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL; }

// Waits for the child `pid` to end and returns its wait status (-1 if it is not our child).
inline int reaped_status(pid_t pid) {
  int status = 0;
  if (::waitpid(pid, &status, 0) != pid) return -1;
  return status;
}

}  // namespace parley::test

// Starts `BINARY serve ARGS...` in a child process for the benchmarks that measure the server apart
// from their clients (history, chat): stdout to /dev/null, stderr to `log` (or /dev/null).
#pragma once

#include <fcntl.h>
#include <spawn.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

namespace parley::bench {

// The child's pid, or 0 when it could not be started.
inline pid_t spawn_serve(const std::filesystem::path& binary, std::vector<std::string> args,
                         const std::filesystem::path& log = "/dev/null") {
  args.insert(args.begin(), {binary.string(), "serve"});
  std::vector<char*> raw;
  for (auto& a : args) raw.push_back(a.data());
  raw.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, binary.c_str(), &actions, nullptr, raw.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  return spawned == 0 ? pid : 0;
}

}  // namespace parley::bench

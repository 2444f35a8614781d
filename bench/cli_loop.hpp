// The `parley` CLI run over and over beside a server, as a user at a terminal would while it works
// (issue 36): one process at a time, on a thread of its own, until stopped. parley-bench ws
// compares a stream's chunk latency and the server's CPU with the read-only verbs on the server's
// data directory and with `parley version` (the same processes started, no store touched): on a
// machine of two cores the processes alone move the stream's p99.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

namespace parley::bench {

using cli_args = std::vector<std::string>;

// `dialogs`, `show DIALOG`, `questions` and `check` on the server's `team` and `data`.
std::vector<cli_args> read_only_verbs(const std::filesystem::path& team, const std::filesystem::path& data,
                                      const std::string& dialog_id);

class cli_loop {
 public:
  // Runs `parley` with each of `verbs` in turn, over and over, output discarded.
  cli_loop(std::filesystem::path parley, std::vector<cli_args> verbs);
  cli_loop(const cli_loop&) = delete;
  cli_loop& operator=(const cli_loop&) = delete;
  ~cli_loop();  // stops and joins

  void stop();
  std::int64_t runs() const { return runs_.load(); }
  int failed() const { return failed_.load(); }

 private:
  void run();
  int run_once(const cli_args& args) const;  // the exit status, -1 when it did not run

  std::filesystem::path parley_;
  std::vector<cli_args> verbs_;
  std::atomic<bool> stop_{false};
  std::atomic<std::int64_t> runs_{0};
  std::atomic<int> failed_{0};
  std::thread thread_;
};

// The `parley` binary beside this one in the build tree (build/X/bench/parley-bench ->
// build/X/apps/parley/parley).
std::filesystem::path parley_beside_bench();

}  // namespace parley::bench

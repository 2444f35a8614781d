#include "mcp_floor.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <vector>

extern char** environ;

namespace parley::bench {

stdio_floor::stdio_floor(const std::filesystem::path& exe, const std::string& tool)
    : request_(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":")" + tool +
               R"(","arguments":{"text":"1 + 1"}}})"
               "\n") {
  int in[2];
  int out[2];
  if (::pipe2(in, O_CLOEXEC) != 0) return;
  if (::pipe2(out, O_CLOEXEC) != 0) {
    ::close(in[0]);
    ::close(in[1]);
    return;
  }
  posix_spawn_file_actions_t actions;
  ::posix_spawn_file_actions_init(&actions);
  ::posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
  ::posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  std::string exe_text = exe.string();
  std::vector<std::string> words{exe_text, "mcp-echo-server", "--tool", tool};
  std::vector<char*> argv;
  for (auto& word : words) argv.push_back(word.data());
  argv.push_back(nullptr);
  if (::posix_spawn(&pid_, exe_text.c_str(), &actions, nullptr, argv.data(), environ) != 0) pid_ = -1;
  ::posix_spawn_file_actions_destroy(&actions);
  ::close(in[0]);
  ::close(out[1]);
  to_server_ = in[1];
  from_server_ = out[0];
}

stdio_floor::~stdio_floor() {
  if (to_server_ >= 0) ::close(to_server_);
  if (from_server_ >= 0) ::close(from_server_);
  if (pid_ <= 0) return;
  ::kill(pid_, SIGTERM);
  int status = 0;
  ::waitpid(pid_, &status, 0);
}

bool stdio_floor::read_line() {
  std::array<char, 4096> chunk{};
  for (;;) {
    if (const auto newline = pending_.find('\n'); newline != std::string::npos) {
      pending_.erase(0, newline + 1);
      return true;
    }
    const ssize_t n = ::read(from_server_, chunk.data(), chunk.size());
    if (n <= 0) return false;
    pending_.append(chunk.data(), static_cast<std::size_t>(n));
  }
}

bool stdio_floor::round_trips(int count) {
  if (!ok()) return false;
  for (int i = 0; i < count; ++i) {
    if (::write(to_server_, request_.data(), request_.size()) != static_cast<ssize_t>(request_.size())) return false;
    if (!read_line()) return false;
  }
  return true;
}

}  // namespace parley::bench
